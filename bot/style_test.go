package bot_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/reversibot/reversi/bot/present"
	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/render"
)

// checkPictureBoard checks that m is an 8×8 board drawn as a picture: a PNG photo whose
// keyboard is a move picker (coordinate buttons), never the 64-button board.
func checkPictureBoard(t *testing.T, m telegramtest.ChatMessage) {
	t.Helper()
	if !m.HasPhoto() || len(m.Photo) < 4 || string(m.Photo[1:4]) != "PNG" {
		t.Fatalf("8×8 board in the picture style is not a PNG photo:%s", dump([]telegramtest.ChatMessage{m}))
	}
	for _, row := range m.Buttons() {
		for _, b := range row {
			if b.Text == render.BlackDisc || b.Text == render.WhiteDisc || b.Text == present.LegalMark {
				t.Fatalf("picture board has board-cell button %q:%s", b.Text, dump([]telegramtest.ChatMessage{m}))
			}
		}
	}
}

// checkButtonsBoard checks that m is an 8×8 board drawn as buttons: a text message whose
// first 8 keyboard rows hold 8 buttons each, followed by controls.
func checkButtonsBoard(t *testing.T, m telegramtest.ChatMessage) {
	t.Helper()
	rows := m.Buttons()
	if m.HasPhoto() || len(rows) < 9 {
		t.Fatalf("8×8 board in the buttons style:%s", dump([]telegramtest.ChatMessage{m}))
	}
	for r := range 8 {
		if len(rows[r]) != 8 {
			t.Fatalf("board row %d has %d buttons", r+1, len(rows[r]))
		}
	}
}

func (h *harness) style(userID int64) game.Style {
	h.t.Helper()
	p, err := h.store.Profile(context.Background(), userID)
	if err != nil {
		h.t.Fatal(err)
	}
	return p.Style
}

// TestStyleCommand plays an 8×8 game against the AI in the picture style, switches to buttons
// mid-game (the board is posted again as a keyboard) and finishes the game there.
func TestStyleCommand(t *testing.T) {
	h := newHarness(t)
	for _, lang := range []string{"", "ru"} {
		found := false
		for _, c := range h.srv.Commands(lang) {
			found = found || c.Command == "style"
		}
		if !found {
			t.Errorf("setMyCommands(%q) lacks /style", lang)
		}
	}
	alice := h.user("Alice", "en")
	h.send(alice, alice.ID(), "/style")
	h.waitLobby(alice.ID(), "Now: buttons")
	last := h.lastID(alice.ID())
	h.send(alice, alice.ID(), "/style sideways")
	h.waitMsg(alice.ID(), "the style menu again", func(m telegramtest.ChatMessage) bool {
		return m.ID > last && strings.Contains(m.Content(), "Now: buttons") && m.Markup != nil
	})
	h.send(alice, alice.ID(), "/style image")
	h.waitText(alice.ID(), "drawn as picture")
	if got := h.style(alice.ID()); got != game.StyleImage {
		t.Fatalf("stored style %v, want image", got)
	}

	board := h.aiBoard(alice, alice.ID(), "/ai 8 1 black")
	checkPictureBoard(t, board)
	// Play a few moves on the picture: the picker lists the legal moves by coordinate.
	for range 3 {
		board = h.waitState(board, "Alice to move", func(m telegramtest.ChatMessage) bool { return toMove(m, render.BlackDisc+" Alice") })
		moves := legalMoves(board)
		if len(moves) == 0 || len(moves[0].Text) < 2 {
			t.Fatalf("no coordinate buttons:%s", dump([]telegramtest.ChatMessage{board}))
		}
		ply := boardPly(board)
		if a := h.pressData(alice, board, moves[0].CallbackData); a.ShowAlert {
			t.Fatalf("move %s answered %q", moves[0].Text, a.Text)
		}
		board = h.waitState(board, "the picture after the move", func(m telegramtest.ChatMessage) bool { return boardPly(m) > ply+1 })
		checkPictureBoard(t, board)
	}

	last = h.lastID(alice.ID())
	h.send(alice, alice.ID(), "/style buttons")
	confirm := h.waitText(alice.ID(), "drawn as buttons")
	kb := h.boardIn(alice.ID(), last)
	if kb.ID > confirm.ID {
		t.Errorf("the new board came after the confirmation")
	}
	if gameID(kb) != gameID(board) || boardPly(kb) != boardPly(board) || kb.HasPhoto() {
		t.Fatalf("board posted after /style buttons:%s\nwas:%s", dump([]telegramtest.ChatMessage{kb}), dump([]telegramtest.ChatMessage{board}))
	}
	checkButtonsBoard(t, kb)
	final, _, _ := playToEnd(h, alice, kb, render.BlackDisc+" Alice")
	if final.HasPhoto() || !strings.Contains(final.Content(), "Moves: 1. ") {
		t.Errorf("final board:%s", dump([]telegramtest.ChatMessage{final}))
	}
	// The picture message was replaced: it lost its buttons and still shows the position it
	// had at the switch.
	old := h.waitState(board, "the old board without buttons", func(m telegramtest.ChatMessage) bool { return len(m.Buttons()) == 0 })
	if !old.HasPhoto() || old.Caption != board.Caption {
		t.Errorf("the old picture board after the switch:%s", dump([]telegramtest.ChatMessage{old}))
	}
}

// TestStyleGroupAndMenu checks the /start menu's style button and that a group game is drawn
// in the style of whoever opened it, while each player's own private boards follow their own
// choice.
func TestStyleGroupAndMenu(t *testing.T) {
	h := newHarness(t)
	alice, bob := h.user("Alice", "en"), h.user("Bob", "en")
	h.send(alice, alice.ID(), "/start")
	menu := h.waitLobby(alice.ID(), "Alice")
	h.press(alice, menu, "🎨 Board style")
	menu = h.waitState(menu, "the style menu", func(m telegramtest.ChatMessage) bool { return strings.Contains(m.Content(), "Now: buttons") })
	h.press(alice, menu, "🖼 Picture")
	h.waitState(menu, "the choice confirmed", func(m telegramtest.ChatMessage) bool { return strings.Contains(m.Content(), "drawn as picture") })
	if got := h.style(alice.ID()); got != game.StyleImage {
		t.Fatalf("stored style %v after the menu, want image", got)
	}

	for _, tc := range []struct {
		opener, joiner *telegramtest.Person
		picture        bool
	}{{alice, bob, true}, {bob, alice, false}} {
		t.Run(fmt.Sprintf("opened by %s", tc.opener.Model().FirstName), func(t *testing.T) {
			g := h.srv.NewGroup("Club "+tc.opener.Model().FirstName, alice, bob)
			h.send(tc.opener, g.ID(), "/new@"+telegramtest.DefaultBotUsername+" 8")
			lobby := h.waitLobby(g.ID(), "Reversi")
			last := h.lastID(g.ID())
			h.press(tc.joiner, lobby, lobby.Markup.InlineKeyboard[0][0].Text)
			board := h.boardIn(g.ID(), last)
			if tc.picture {
				checkPictureBoard(t, board)
			} else {
				checkButtonsBoard(t, board)
			}
			// Two moves keep the style of the group's board.
			final := playPeople(h, []seat{{alice, board, "Alice"}, {bob, board, "Bob"}}, 2)
			if final[0].HasPhoto() != tc.picture {
				t.Errorf("group board after two moves: photo %v, want %v", final[0].HasPhoto(), tc.picture)
			}
			h.send(alice, g.ID(), "/resign@"+telegramtest.DefaultBotUsername)
			h.waitState(board, "the end", finished)
		})
	}
}

// TestIdleClaimIgnoresBoardRepost checks that posting the board again (/board) does not
// restart the idle clock of the player to move.
func TestIdleClaimIgnoresBoardRepost(t *testing.T) {
	h := newHarness(t)
	alice, bob := h.user("Alice", "en"), h.user("Bob", "en")
	ab := h.joinedBoard(alice, bob, "/new 8 white")
	// A move each (a claim before it would abort the game, unrated); then Bob (black, to move)
	// shows his board again 50 minutes later, and still does not move.
	bb0 := h.waitMsg(bob.ID(), "Bob's board", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 0 })
	ab = playPeople(h, []seat{{alice, ab, "Alice"}, {bob, bb0, "Bob"}}, 2)[0]
	h.clock.Add(50 * time.Minute)
	bobLast := h.lastID(bob.ID())
	h.send(bob, bob.ID(), "/board")
	bb := h.boardIn(bob.ID(), bobLast)
	h.clock.Add(9 * time.Minute)
	if a := h.press(alice, ab, "⏰ Claim win"); !strings.Contains(a.Text, "within 1 min") {
		t.Errorf("claim at 59 min answered %q, want 1 min left", a.Text)
	}
	h.clock.Add(time.Minute)
	if a := h.press(alice, ab, "⏰ Claim win"); a.ShowAlert {
		t.Fatalf("claim after an hour answered %q", a.Text)
	}
	h.waitState(bb, "timeout on Bob's new board", func(m telegramtest.ChatMessage) bool { return strings.Contains(m.Content(), "ran out of time") })
}
