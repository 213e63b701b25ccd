package bot_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reversibot/reversi/bot"
	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/render"
)

// groupGame opens an 8×8 game of alice and bob in a new group with carol watching, and returns
// the group and its board.
func groupGame(h *harness, alice, bob, carol *telegramtest.Person) (*telegramtest.Group, telegramtest.ChatMessage) {
	h.t.Helper()
	g := h.srv.NewGroup("Club", alice, bob, carol)
	h.send(alice, g.ID(), "/new@"+telegramtest.DefaultBotUsername+" 8")
	lobby := h.waitLobby(g.ID(), "wants to play Reversi")
	last := h.lastID(g.ID())
	h.press(bob, lobby, "✅ Join")
	return g, h.boardIn(g.ID(), last)
}

// untouched checks that the users have no results and the initial rating.
func (h *harness) untouched(what string, users ...*telegramtest.Person) {
	h.t.Helper()
	for _, u := range users {
		p, err := h.store.Profile(context.Background(), u.ID())
		if err != nil {
			h.t.Fatal(err)
		}
		s := p.Stats
		if s.Wins+s.Losses+s.Draws != 0 || s.Rating != game.InitialRating || len(s.VsAI) != 0 {
			h.t.Errorf("%s: %s has results %+v, want none", what, u.Model().FirstName, s)
		}
	}
}

// aborted reports whether m says its game was aborted before both players moved.
func aborted(m telegramtest.ChatMessage) bool {
	return strings.Contains(m.Content(), "Aborted before both players had moved")
}

// TestZeroMoveEndsAreAborted: a resignation before both players have moved, an idle claim on
// a game the idle player never moved in, and a resignation against the AI before the player's
// first move all abort the game: the board says so, and no rating or result moves.
func TestZeroMoveEndsAreAborted(t *testing.T) {
	h := newHarness(t)
	alice, bob, carol := h.user("Alice", "en"), h.user("Bob", "en"), h.user("Carol", "en")
	g, board := groupGame(h, alice, bob, carol)
	h.resign(alice, board)
	over := h.waitState(board, "the aborted game", aborted)
	if strings.Contains(over.Content(), "resigns") {
		t.Errorf("the aborted board tells a resignation:%s", dump([]telegramtest.ChatMessage{over}))
	}
	h.untouched("a resignation before any move", alice, bob)

	// One move made, then a claim: the claimant's opponent has moved, the claimant never did.
	h.send(bob, g.ID(), "/new@"+telegramtest.DefaultBotUsername+" 8")
	lobby := h.waitLobby(g.ID(), "Bob wants to play Reversi")
	last := h.lastID(g.ID())
	h.press(alice, lobby, "✅ Join")
	board = h.boardIn(g.ID(), last)
	black := alice
	if colorOf(t, board, "Bob") == render.BlackDisc {
		black = bob
	}
	h.pressData(black, board, legalMoves(board)[0].CallbackData)
	board = h.waitState(board, "the first move", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 1 })
	h.clock.Add(2 * h.opts.IdleClaim)
	if a := h.press(black, board, "⏰ Claim win"); a.ShowAlert {
		t.Fatalf("the claim answered with an alert %q", a.Text)
	}
	h.waitState(board, "the aborted claim", aborted)
	h.untouched("a claim on a game with one move", alice, bob)

	// Against the AI, playing white: the AI moved, the player resigns before moving.
	ai := h.aiBoard(carol, carol.ID(), "/ai 8 1 white")
	ai = h.waitState(ai, "the AI's first move", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 1 })
	h.resign(carol, ai)
	ai = h.waitState(ai, "the aborted AI game", aborted)
	h.untouched("a resignation to the AI before the first move", carol)
	if _, err := ai.Button("🔁 Rematch"); err != nil {
		t.Errorf("the aborted AI game offers no rematch:%s", dump([]telegramtest.ChatMessage{ai}))
	}
}

// TestResignAsksInPlace: Resign asks once in the board message itself ("Resign? Yes / No"),
// sends no message, and No restores the board as it was; only the asked player may answer.
func TestResignAsksInPlace(t *testing.T) {
	h := newHarness(t)
	alice, bob, carol := h.user("Alice", "en"), h.user("Bob", "en"), h.user("Carol", "en")
	g, board := groupGame(h, alice, bob, carol)
	final := playPeople(h, []seat{{alice, board, "Alice"}, {bob, board, "Bob"}}, 2)
	board = final[0]
	before, last := board.Buttons(), h.lastID(g.ID())

	if a := h.press(carol, board, "🏳 Resign"); a.ShowAlert || !strings.Contains(a.Text, "only the two players") {
		t.Errorf("a spectator's Resign answered %+v", a)
	}
	if a := h.press(alice, board, "🏳 Resign"); a.Text != "" {
		t.Errorf("Resign answered %q, want nothing (the board asks)", a.Text)
	}
	asked := h.waitState(board, "the question", func(m telegramtest.ChatMessage) bool {
		_, err := m.Button("🏳 Resign?")
		return err == nil
	})
	if asked.Content() != board.Content() || h.lastID(g.ID()) != last {
		t.Errorf("the question changed the text or sent a message:%s", dump([]telegramtest.ChatMessage{asked}))
	}
	for _, label := range []string{"Yes", "No"} {
		if _, err := asked.Button(label); err != nil {
			t.Errorf("the question has no %q: %v", label, err)
		}
	}
	// Bob may not answer Alice's question, either way.
	for _, label := range []string{"Yes", "No"} {
		if a := h.press(bob, asked, label); !strings.Contains(a.Text, "for the other player") {
			t.Errorf("Bob's %s on Alice's question answered %q", label, a.Text)
		}
	}
	if cur := h.current(asked); cur.Edits != asked.Edits || finished(cur) {
		t.Errorf("Bob's answers changed the board:%s", dump([]telegramtest.ChatMessage{cur}))
	}
	h.press(alice, asked, "No")
	restored := h.waitState(board, "the board restored", func(m telegramtest.ChatMessage) bool {
		_, err := m.Button("🏳 Resign?")
		return err != nil
	})
	if !slices.EqualFunc(restored.Buttons(), before, slices.Equal) || finished(restored) || h.lastID(g.ID()) != last {
		t.Errorf("No did not restore the board:%s", dump([]telegramtest.ChatMessage{restored}))
	}

	// Yes resigns: rated, once each player has moved.
	h.resign(alice, restored)
	over := h.waitState(board, "the resignation", finished)
	if !strings.Contains(over.Content(), "Alice resigns") || !strings.Contains(over.Content(), "Ratings: Alice 1184 (−16), Bob 1216 (+16)") &&
		!strings.Contains(over.Content(), "Ratings: Bob 1216 (+16), Alice 1184 (−16)") {
		t.Errorf("the resigned board:%s", dump([]telegramtest.ChatMessage{over}))
	}
	// A question left on a board from before the end is answered, and changes nothing.
	yes, _ := resignButton(asked, callback.ResignYes)
	qid, err := alice.PressData(g.ID(), board.ID, yes)
	if err != nil {
		t.Fatal(err)
	}
	if a := h.waitAnswer(qid); !strings.Contains(a.Text, "over") {
		t.Errorf("Yes after the end answered %q", a.Text)
	}
}

// TestRematchNeedsAccept: in a group, a rematch is an offer on the finished board that only
// the other player may accept; a declined offer says so on the board and starts nothing; an
// accepted one starts the game.
func TestRematchNeedsAccept(t *testing.T) {
	h := newHarness(t)
	alice, bob, carol := h.user("Alice", "en"), h.user("Bob", "en"), h.user("Carol", "en")
	g, board := groupGame(h, alice, bob, carol)
	board = playPeople(h, []seat{{alice, board, "Alice"}, {bob, board, "Bob"}}, 2)[0]
	h.resign(bob, board)
	over := h.waitState(board, "the end", finished)
	last := h.lastID(g.ID())

	if a := h.press(alice, over, "🔁 Rematch"); a.Text != "Rematch offered." {
		t.Errorf("the offer answered %q", a.Text)
	}
	offered := h.waitState(board, "the offer", func(m telegramtest.ChatMessage) bool {
		return strings.Contains(m.Content(), "Alice offers a rematch (open for 10 minutes).")
	})
	if a := h.press(alice, offered, "✅ Accept"); !strings.Contains(a.Text, "other player has to accept") {
		t.Errorf("Alice accepting her own offer answered %q", a.Text)
	}
	if a := h.press(carol, offered, "✅ Accept"); !strings.Contains(a.Text, "only the two players") {
		t.Errorf("a spectator's accept answered %q", a.Text)
	}
	h.press(bob, offered, "✖ Decline")
	declined := h.waitState(board, "the decline", func(m telegramtest.ChatMessage) bool {
		return strings.Contains(m.Content(), "Bob declined the rematch.")
	})
	if _, err := declined.Button("🔁 Rematch"); err != nil {
		t.Errorf("a declined board has no Rematch:%s", dump([]telegramtest.ChatMessage{declined}))
	}
	if h.lastID(g.ID()) != last {
		t.Fatalf("the offer or its decline posted a message")
	}
	h.send(carol, g.ID(), "/board@"+telegramtest.DefaultBotUsername)
	h.waitText(g.ID(), "no game here")

	// Bob offers, withdraws, offers again; Alice accepts: the rematch starts, colours swapped.
	h.press(bob, declined, "🔁 Rematch")
	offered = h.waitState(board, "Bob's offer", func(m telegramtest.ChatMessage) bool {
		return strings.Contains(m.Content(), "Bob offers a rematch (open for 10 minutes).")
	})
	h.press(bob, offered, "✖ Decline")
	withdrawn := h.waitState(board, "the withdrawal", func(m telegramtest.ChatMessage) bool {
		return strings.Contains(m.Content(), "Bob withdrew the rematch offer.")
	})
	h.press(bob, withdrawn, "🔁 Rematch")
	offered = h.waitState(board, "Bob's second offer", func(m telegramtest.ChatMessage) bool {
		return strings.Contains(m.Content(), "Bob offers a rematch (open for 10 minutes).")
	})
	last = h.lastID(g.ID())
	h.press(alice, offered, "✅ Accept")
	re := h.boardIn(g.ID(), last)
	if gameID(re) == gameID(board) || colorOf(t, re, "Alice") == colorOf(t, board, "Alice") {
		t.Errorf("the rematch is game %s with Alice %s (first %s, %s)", gameID(re), colorOf(t, re, "Alice"), gameID(board), colorOf(t, board, "Alice"))
	}
	h.waitState(board, "the accepted offer", func(m telegramtest.ChatMessage) bool {
		_, err := m.Button("✅ Accept")
		return strings.Contains(m.Content(), "Rematch accepted") && err != nil
	})
}

// TestRematchOfferExpires: in private-chat games each board shows the offer as its viewer
// sees it; an offer not accepted within ten minutes (the injected clock) expires, and the
// late accept says so on both boards and starts nothing.
func TestRematchOfferExpires(t *testing.T) {
	h := newHarness(t)
	alice, bob := h.user("Alice", "en"), h.user("Bob", "en")
	ab := h.joinedBoard(alice, bob, "/new 8 black")
	bb := h.waitMsg(bob.ID(), "Bob's board", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 0 })
	final := playPeople(h, []seat{{alice, ab, "Alice"}, {bob, bb, "Bob"}}, 2)
	h.resign(alice, final[0])
	ab, bb = h.waitState(ab, "Alice's end", finished), h.waitState(bb, "Bob's end", finished)
	aliceLast, bobLast := h.lastID(alice.ID()), h.lastID(bob.ID())

	h.press(alice, ab, "🔁 Rematch")
	ab = h.waitState(ab, "Alice's offer on her board", func(m telegramtest.ChatMessage) bool {
		_, err := m.Button("✖ Withdraw offer")
		return err == nil && strings.Contains(m.Content(), "You offered a rematch (open for 10 minutes). Waiting for Bob to accept.")
	})
	bb = h.waitState(bb, "Alice's offer on Bob's board", func(m telegramtest.ChatMessage) bool {
		_, err := m.Button("✅ Accept")
		return err == nil && strings.Contains(m.Content(), "Alice offers you a rematch (open for 10 minutes).")
	})
	// Bob's board changed by an edit, which notifies nobody: he gets a notice too.
	h.waitMsg(bob.ID(), "the notice of the offer", func(m telegramtest.ChatMessage) bool {
		return m.Content() == "Alice offers you a rematch: accept or decline it on your board."
	})
	h.clock.Add(game.DefaultRematchFor)
	if a := h.press(bob, bb, "✅ Accept"); !strings.Contains(a.Text, "expired") {
		t.Errorf("the late accept answered %q", a.Text)
	}
	for _, m := range []telegramtest.ChatMessage{ab, bb} {
		h.waitState(m, "the expiry", func(c telegramtest.ChatMessage) bool {
			_, err := c.Button("🔁 Rematch")
			return err == nil && strings.Contains(c.Content(), "The rematch offer of Alice expired.")
		})
	}
	if boardIs := func(chat int64, after int) bool {
		m, ok := h.srv.LastMessage(chat)
		return ok && m.ID > after && boardPly(m) == 0
	}; boardIs(alice.ID(), aliceLast) || boardIs(bob.ID(), bobLast) {
		t.Errorf("an expired offer started a game")
	}
	h.untouchedGamesIn(alice.ID(), bob.ID())
}

// untouchedGamesIn checks that the chats have no game in play.
func (h *harness) untouchedGamesIn(chats ...int64) {
	h.t.Helper()
	for _, c := range chats {
		if g, err := h.store.GameByChat(context.Background(), c); err == nil && g.Status != game.StatusFinished {
			h.t.Errorf("chat %d has game %s in %v", c, g.ID, g.Status)
		}
	}
}

// TestAIGameEnd: the end of a game against the AI tells the player's own result and the
// numbered moves, and its buttons open the menus in a new message, keeping the final board.
func TestAIGameEnd(t *testing.T) {
	h := newHarness(t)
	alice := h.user("Alice", "en")
	board := h.aiBoard(alice, alice.ID(), "/ai 8 1 black")
	final, _, _ := playToEnd(h, alice, board, render.BlackDisc+" Alice")
	c := final.Content()
	if !strings.Contains(c, "You win ") && !strings.Contains(c, "You lose ") || !strings.Contains(c, "Moves: 1. ") {
		t.Errorf("the final board lacks the personal result or the numbered moves:%s", dump([]telegramtest.ChatMessage{final}))
	}
	for _, m := range []struct{ label, want string }{{"🎚 Level or size", "board size"}, {"☰ Menu", "Alice"}} {
		last := h.lastID(alice.ID())
		h.press(alice, final, m.label)
		// The game's replay may come in between: it is no menu.
		menu := h.waitMsg(alice.ID(), m.label, func(x telegramtest.ChatMessage) bool { return x.ID > last && !x.HasAnimation() })
		if !strings.Contains(strings.ToLower(menu.Content()), strings.ToLower(m.want)) || len(menu.Buttons()) == 0 {
			t.Errorf("%s posted:%s", m.label, dump([]telegramtest.ChatMessage{menu}))
		}
		if cur := h.current(final); cur.Edits != final.Edits {
			t.Errorf("%s changed the final board:%s", m.label, dump([]telegramtest.ChatMessage{cur}))
		}
	}
}

// expireOffersNow has the bot expire the rematch offers due and checks how many it expired.
func (h *harness) expireOffersNow(want int) {
	h.t.Helper()
	if n, err := h.b.Offers.Now(h.guard()); err != nil || n != want {
		h.t.Fatalf("Offers.Now expired %d offers (%v), want %d", n, err, want)
	}
}

// TestRematchOfferExpiresByItself: an offer nobody answers expires by itself at its deadline
// (the injected clock, the manual trigger), across a restart of the bot: both players' boards
// say so without any tap and offer a Rematch again; it expires once, and not before its time.
func TestRematchOfferExpiresByItself(t *testing.T) {
	h := newHarness(t)
	alice, bob := h.user("Alice", "en"), h.user("Bob", "en")
	ab := h.joinedBoard(alice, bob, "/new 8 black")
	bb := h.waitMsg(bob.ID(), "Bob's board", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 0 })
	final := playPeople(h, []seat{{alice, ab, "Alice"}, {bob, bb, "Bob"}}, 2)
	h.resign(alice, final[0])
	ab, bb = h.waitState(ab, "Alice's end", finished), h.waitState(bb, "Bob's end", finished)
	h.press(alice, ab, "🔁 Rematch")
	ab = h.waitState(ab, "Alice's offer on her board", func(m telegramtest.ChatMessage) bool {
		_, err := m.Button("✖ Withdraw offer")
		return err == nil
	})
	bb = h.waitState(bb, "Alice's offer on Bob's board", func(m telegramtest.ChatMessage) bool {
		_, err := m.Button("✅ Accept")
		return err == nil
	})
	h.stop() // the offer's expiry is in the store, not in the process
	h.start()
	h.clock.Add(game.DefaultRematchFor - time.Second)
	h.expireOffersNow(0)
	for _, m := range []telegramtest.ChatMessage{ab, bb} {
		if cur := h.current(m); cur.Edits != m.Edits {
			t.Fatalf("a board changed before the deadline:%s", dump([]telegramtest.ChatMessage{cur}))
		}
	}
	h.clock.Add(time.Second)
	h.expireOffersNow(1)
	for _, m := range []telegramtest.ChatMessage{ab, bb} {
		h.waitState(m, "the expiry without a tap", func(c telegramtest.ChatMessage) bool {
			_, err := c.Button("🔁 Rematch")
			_, accept := c.Button("✅ Accept")
			return err == nil && accept != nil && strings.Contains(c.Content(), "The rematch offer of Alice expired.")
		})
	}
	h.clock.Add(time.Hour)
	h.expireOffersNow(0)
	h.untouchedGamesIn(alice.ID(), bob.ID())
}

// TestAnsweredOfferDoesNotExpire: in a group, an offer declined, one withdrawn and one
// accepted before their time get no "expired" redraw later; the shared board of an offer
// nobody answers does.
func TestAnsweredOfferDoesNotExpire(t *testing.T) {
	h := newHarness(t)
	alice, bob, carol := h.user("Alice", "en"), h.user("Bob", "en"), h.user("Carol", "en")
	g, board := groupGame(h, alice, bob, carol)
	board = playPeople(h, []seat{{alice, board, "Alice"}, {bob, board, "Bob"}}, 2)[0]
	h.resign(bob, board)
	h.waitState(board, "the end", finished)
	says := func(text string) func(telegramtest.ChatMessage) bool {
		return func(m telegramtest.ChatMessage) bool { return strings.Contains(m.Content(), text) }
	}
	answered := []struct{ offerer, answerer *telegramtest.Person }{{alice, bob}, {bob, bob}}
	for _, a := range answered {
		cur := h.current(board)
		h.press(a.offerer, cur, "🔁 Rematch")
		offered := h.waitState(board, "the offer", says(" offers a rematch (open for 10 minutes)."))
		h.press(a.answerer, offered, "✖ Decline")
		done := h.waitState(board, "the answer", func(m telegramtest.ChatMessage) bool { return !says("offers a rematch")(m) })
		h.clock.Add(game.DefaultRematchFor)
		h.expireOffersNow(0)
		if cur := h.current(board); cur.Edits != done.Edits || strings.Contains(cur.Content(), "expired") {
			t.Fatalf("an answered offer was redrawn:%s", dump([]telegramtest.ChatMessage{cur}))
		}
	}

	// Nobody answers Alice's offer: the group's board says so by itself.
	h.press(alice, h.current(board), "🔁 Rematch")
	h.waitState(board, "the unanswered offer", says("Alice offers a rematch (open for 10 minutes)."))
	h.clock.Add(game.DefaultRematchFor)
	h.expireOffersNow(1)
	expired := h.waitState(board, "the expiry", says("The rematch offer of Alice expired."))

	// Bob offers again, Alice accepts: the rematch starts, and the old board stays accepted.
	h.press(bob, expired, "🔁 Rematch")
	offered := h.waitState(board, "Bob's offer", says("Bob offers a rematch (open for 10 minutes)."))
	last := h.lastID(g.ID())
	h.press(alice, offered, "✅ Accept")
	re := h.boardIn(g.ID(), last)
	accepted := h.waitState(board, "the accepted offer", says("Rematch accepted"))
	h.clock.Add(game.DefaultRematchFor)
	h.expireOffersNow(0)
	if cur := h.current(board); cur.Edits != accepted.Edits {
		t.Fatalf("an accepted offer was redrawn:%s", dump([]telegramtest.ChatMessage{cur}))
	}
	if gameID(re) == gameID(board) {
		t.Fatalf("the rematch is the finished game")
	}
}

// TestRematchOfferExpiresOnceAcrossProcesses: two bot processes on one store, both looking for
// offers to expire at the same moment, expire an unanswered offer once between them, and its
// board says so.
func TestRematchOfferExpiresOnceAcrossProcesses(t *testing.T) {
	h := newHarness(t)
	other, err := bot.Start(context.Background(), h.botOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := other.Shutdown(ctx); err != nil {
			t.Error(err)
		}
	}()
	alice, bob, carol := h.user("Alice", "en"), h.user("Bob", "en"), h.user("Carol", "en")
	_, board := groupGame(h, alice, bob, carol)
	board = playPeople(h, []seat{{alice, board, "Alice"}, {bob, board, "Bob"}}, 2)[0]
	h.resign(bob, board)
	h.press(alice, h.waitState(board, "the end", finished), "🔁 Rematch")
	h.waitState(board, "the offer", func(m telegramtest.ChatMessage) bool {
		return strings.Contains(m.Content(), "Alice offers a rematch (open for 10 minutes).")
	})
	h.clock.Add(game.DefaultRematchFor)
	counts := make(chan int, 2)
	for _, b := range []*bot.Running{h.b, other} {
		go func() {
			n, err := b.Offers.Now(h.guard())
			if err != nil {
				t.Error(err)
			}
			counts <- n
		}()
	}
	if n := <-counts + <-counts; n != 1 {
		t.Fatalf("the two processes expired %d offers, want 1", n)
	}
	h.waitState(board, "the expiry", func(m telegramtest.ChatMessage) bool {
		return strings.Contains(m.Content(), "The rematch offer of Alice expired.")
	})
}

// TestInlineOfferExpiresByItself: the one message of an inline game says by itself that its
// rematch offer expired.
func TestInlineOfferExpiresByItself(t *testing.T) {
	h := newHarness(t)
	alice, bob := h.user("Alice", "en"), h.user("Bob", "en")
	chat := h.srv.NewGroup("Chat", alice, bob)
	post := h.postInline(alice, 8, chat.ID())
	join, _ := post.ButtonAt(0, 0)
	h.pressData(bob, post, join.CallbackData)
	board := h.waitState(post, "the board in the post", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 0 })
	board = playPeople(h, []seat{{alice, board, "Alice"}, {bob, board, "Bob"}}, 2)[0]
	h.resign(bob, board)
	h.press(alice, h.waitState(post, "the end", finished), "🔁 Rematch")
	h.waitState(post, "the offer", func(m telegramtest.ChatMessage) bool {
		return strings.Contains(m.Content(), "Alice offers a rematch (open for 10 minutes).")
	})
	h.clock.Add(game.DefaultRematchFor)
	h.expireOffersNow(1)
	h.waitState(post, "the expiry", func(m telegramtest.ChatMessage) bool {
		_, err := m.Button("🔁 Rematch")
		return err == nil && strings.Contains(m.Content(), "The rematch offer of Alice expired.")
	})
}
