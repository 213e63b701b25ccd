package bot_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/game"
)

// searchMessages are the bot's messages in chat that show a search, in any state.
func (h *harness) searchMessages(chat int64) []telegramtest.ChatMessage {
	var out []telegramtest.ChatMessage
	for _, m := range h.srv.BotMessages(chat) {
		for _, s := range []string{"Looking for an opponent", "Opponent found", "no longer looking", "search is over", "Nobody came"} {
			if strings.Contains(m.Text, s) {
				out = append(out, m)
				break
			}
		}
	}
	return out
}

// waitSearch waits for the message of u's search that waits, on size×size.
func (h *harness) waitSearch(u *telegramtest.Person, size int) telegramtest.ChatMessage {
	h.t.Helper()
	sub := "Looking for an opponent on " + strconv.Itoa(size) + "×" + strconv.Itoa(size)
	return h.waitMsg(u.ID(), "the search", func(m telegramtest.ChatMessage) bool {
		return strings.Contains(m.Text, sub) && strings.Contains(m.Text, "ends by itself") && m.Markup != nil
	})
}

// TestSecondFindEditsTheFirst: a user has one search, in one message: a second /find (for
// another size) edits the first search message instead of posting another.
func TestSecondFindEditsTheFirst(t *testing.T) {
	h := newHarness(t)
	alice := h.user("Alice", "en")
	h.send(alice, alice.ID(), "/find")
	first := h.waitSearch(alice, 8)
	if !strings.Contains(first.Text, "10 min") {
		t.Errorf("the search does not say how long it waits: %q", first.Text)
	}
	h.send(alice, alice.ID(), "/find 12")
	h.waitState(first, "the search moved to 12×12", func(m telegramtest.ChatMessage) bool {
		return strings.Contains(m.Text, "Looking for an opponent on 12×12") && m.Markup != nil
	})
	if got := h.searchMessages(alice.ID()); len(got) != 1 {
		t.Fatalf("%d search messages, want 1:%s", len(got), dump(got))
	}
	// Someone on 8×8 no longer meets her: her search is for 12×12 now.
	bob := h.user("Bob", "en")
	h.send(bob, bob.ID(), "/find 8")
	h.waitSearch(bob, 8)
}

// TestPairedSearchMessages: the pairing turns both search messages into who was found, with
// the opponent's rating and the reader's colour, without a live Cancel; a Cancel forged on
// the old message afterwards says the search is over and changes nothing.
func TestPairedSearchMessages(t *testing.T) {
	var l *handledLog
	h := newHarness(t, withHandledLog(&l))
	alice, bob := h.user("Alice", "en"), h.user("Bob", "en")
	h.send(alice, alice.ID(), "/find 10")
	search := h.waitSearch(alice, 10)
	cancel := search.Buttons()[0][0].CallbackData
	bobLast := h.lastID(bob.ID())
	h.send(bob, bob.ID(), "/find 10")
	found := h.waitState(search, "Alice's search found Bob", func(m telegramtest.ChatMessage) bool {
		return strings.Contains(m.Text, "Opponent found: Bob (rating 1200). You play ")
	})
	if found.Markup != nil {
		t.Errorf("the found search keeps buttons:%s", dump([]telegramtest.ChatMessage{found}))
	}
	bobs := h.waitMsg(bob.ID(), "Bob's search found Alice", func(m telegramtest.ChatMessage) bool {
		return m.ID > bobLast && strings.Contains(m.Text, "Opponent found: Alice (rating 1200). You play ")
	})
	if bobs.Markup != nil {
		t.Errorf("Bob's found search keeps buttons:%s", dump([]telegramtest.ChatMessage{bobs}))
	}
	if got := h.searchMessages(bob.ID()); len(got) != 1 {
		t.Errorf("Bob has %d search messages, want 1:%s", len(got), dump(got))
	}
	ab := h.boardIn(alice.ID(), search.ID)
	id := gameID(h.waitState(ab, "the board's buttons", func(m telegramtest.ChatMessage) bool { return gameID(m) != "" }))
	version, boards := h.gameState(id)
	a := h.forge(l, alice, found, cancel)
	if !strings.Contains(a.Text, "This search is over") || a.ShowAlert {
		t.Errorf("a stale Cancel answered %+v, want a toast that the search is over", a)
	}
	h.unchanged("a stale Cancel", id, version, boards)
	h.waitState(found, "the message says the search is over", func(m telegramtest.ChatMessage) bool {
		return strings.Contains(m.Text, "This search is over") && m.Markup == nil
	})
}

// TestSearchExpires: a search nobody answers ends by itself at its deadline (the injected
// clock moves; the bot's sweeper notices), and its message says so with a button to search
// again, which starts a new search in the same message; /cancel then cancels it there.
func TestSearchExpires(t *testing.T) {
	h := newHarness(t, func(o *options) { o.SearchSweep = 5 * time.Millisecond })
	alice := h.user("Alice", "ru")
	h.send(alice, alice.ID(), "/lang en")
	h.waitText(alice.ID(), "I will speak English")
	h.send(alice, alice.ID(), "/find 16")
	search := h.waitSearch(alice, 16)
	h.clock.Add(game.DefaultQueueTTL - time.Second)
	if cur := h.current(search); !strings.Contains(cur.Text, "Looking for") {
		t.Fatalf("the search ended early:%s", dump([]telegramtest.ChatMessage{cur}))
	}
	h.clock.Add(2 * time.Second)
	expired := h.waitState(search, "the search ended by itself", func(m telegramtest.ChatMessage) bool {
		return strings.Contains(m.Text, "Nobody came to play on 16×16")
	})
	b := expired.Buttons()
	if len(b) != 1 || len(b[0]) != 1 || b[0][0].Text != "🔁 Search again" {
		t.Fatalf("the ended search offers %v, want Search again", b)
	}
	// The search is over: /cancel finds none.
	h.send(alice, alice.ID(), "/cancel")
	h.waitText(alice.ID(), "You were not looking")
	h.press(alice, expired, "🔁 Search again")
	again := h.waitState(search, "a new search in the same message", func(m telegramtest.ChatMessage) bool {
		return strings.Contains(m.Text, "Looking for an opponent on 16×16") && m.Markup != nil
	})
	h.send(alice, alice.ID(), "/cancel")
	h.waitMsg(alice.ID(), "the answer to /cancel", func(m telegramtest.ChatMessage) bool {
		return m.ID > search.ID && strings.Contains(m.Text, "You are no longer looking")
	})
	h.waitState(again, "the search message cancelled", func(m telegramtest.ChatMessage) bool {
		return strings.Contains(m.Text, "no longer looking") && m.Markup == nil
	})
	if got := h.searchMessages(alice.ID()); len(got) != 2 { // the search, and /cancel's answer
		t.Errorf("%d search messages, want the one search and the answer to /cancel:%s", len(got), dump(got))
	}
}

// TestFindSizeFromMenu: the menu's random opponent asks for the size in place (with Back),
// and the size chosen starts the search in the menu's message.
func TestFindSizeFromMenu(t *testing.T) {
	h := newHarness(t)
	alice := h.srv.NewUser("Alice", "ru")
	menu := h.startMenu2(alice)
	h.press(alice, menu, "🎲 Случайный соперник")
	menu = h.waitState(menu, "the size choice", func(m telegramtest.ChatMessage) bool {
		return strings.Contains(m.Text, "поищу соперника")
	})
	h.press(alice, menu, "« Назад")
	menu = h.waitState(menu, "the main menu", func(m telegramtest.ChatMessage) bool { return strings.Contains(m.Text, "Во что сыграем?") })
	h.press(alice, menu, "🎲 Случайный соперник")
	menu = h.waitState(menu, "the size choice", func(m telegramtest.ChatMessage) bool {
		return strings.Contains(m.Text, "поищу соперника")
	})
	h.press(alice, menu, callback.Data{Action: callback.ActionMenu, Arg: 3, Page: 12}.Encode())
	h.waitState(menu, "the search in the menu's message", func(m telegramtest.ChatMessage) bool {
		return strings.Contains(m.Text, "Ищу соперника для доски 12×12") && m.Markup != nil
	})
}

// startMenu2 has u send /start and waits for the main menu in Russian.
func (h *harness) startMenu2(u *telegramtest.Person) telegramtest.ChatMessage {
	h.t.Helper()
	return h.startMenuText(u, "Во что сыграем?")
}

// TestSearchLeftForAnotherGame: a user who searches and starts a game against the bot leaves
// the queue, and the search message says so and loses its Cancel.
func TestSearchLeftForAnotherGame(t *testing.T) {
	h := newHarness(t)
	alice := h.user("Alice", "en")
	h.send(alice, alice.ID(), "/find")
	search := h.waitSearch(alice, 8)
	h.aiBoard(alice, alice.ID(), "/ai 8 1 black")
	h.waitState(search, "the search stopped", func(m telegramtest.ChatMessage) bool {
		return strings.Contains(m.Text, "you went into another game") && m.Markup == nil
	})
	h.send(alice, alice.ID(), "/cancel")
	h.waitText(alice.ID(), "You were not looking")
}
