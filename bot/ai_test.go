package bot_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/render"
)

// playToEnd plays the game of board m as the player sym+name, tapping the first legal move
// each turn, until the game is over; it returns the final board and the number of taps.
func playToEnd(h *harness, u *telegramtest.Person, m telegramtest.ChatMessage, who string) (final telegramtest.ChatMessage, taps, passes int) {
	h.t.Helper()
	for {
		m = h.waitState(m, who+" to move or the end", func(c telegramtest.ChatMessage) bool {
			return finished(c) || toMove(c, who)
		})
		if finished(m) {
			return m, taps, passes
		}
		if strings.Contains(m.Content(), "passes") {
			passes++
		}
		moves := legalMoves(m)
		if len(moves) == 0 {
			h.t.Fatalf("no legal move button on the board:%s", dump([]telegramtest.ChatMessage{m}))
		}
		ply := boardPly(m)
		a := h.pressData(u, m, moves[0].CallbackData)
		if a.ShowAlert {
			h.t.Fatalf("move %s answered with an alert %q", moves[0].Text, a.Text)
		}
		taps++
		m = h.waitState(m, "the board after the move", func(c telegramtest.ChatMessage) bool {
			return boardPly(c) != ply || finished(c)
		})
		if taps > 200 {
			h.t.Fatalf("game does not end")
		}
	}
}

func TestAIGameToTheEnd(t *testing.T) {
	for _, size := range []int{8, 10} {
		t.Run(fmt.Sprintf("%dx%d", size, size), func(t *testing.T) {
			h := newHarness(t)
			alice := h.user("Alice", "en")
			board := h.aiBoard(alice, alice.ID(), fmt.Sprintf("/ai %d 1 black", size))
			if got := board.HasPhoto(); got != (size > 8) {
				t.Fatalf("board is a photo = %v, want %v", got, size > 8)
			}
			if size == 8 {
				checkKeyboardBoard(t, board)
			}
			final, taps, passes := playToEnd(h, alice, board, render.BlackDisc+" Alice")
			if taps < 10 {
				t.Errorf("game over after %d taps", taps)
			}
			// Both sides play their lowest legal square: on 8×8 black must pass at plies 18,
			// 20 and 22 (and 50), which the boards announce; on 10×10 nobody passes.
			if wantPasses := map[int]bool{8: true, 10: false}[size]; (passes > 0) != wantPasses {
				t.Errorf("boards announced passes %d times; want some: %v", passes, wantPasses)
			}
			if c := final.Content(); !strings.Contains(c, "Moves: 1. ") && !strings.Contains(c, "Game record: ") {
				t.Errorf("final board lacks the record:%s", dump([]telegramtest.ChatMessage{final}))
			}
			if _, err := final.Button("🔁 Rematch"); err != nil {
				t.Errorf("final board has no rematch button: %v", err)
			}
			// While the AI thought, the chat showed it typing.
			if n := h.srv.Calls("sendChatAction"); n < taps/2 {
				t.Errorf("%d chat actions in %d taps, want one while the AI thinks after each move", n, taps)
			}
			h.send(alice, alice.ID(), "/stats")
			h.waitText(alice.ID(), "Against the bot:")
		})
	}
}

// checkKeyboardBoard checks the 8×8 keyboard contract: 8 rows of 8 first, discs only as ⚫ ⚪.
func checkKeyboardBoard(t *testing.T, m telegramtest.ChatMessage) {
	t.Helper()
	rows := m.Buttons()
	if len(rows) < 9 {
		t.Fatalf("keyboard has %d rows, want 8 board rows and controls", len(rows))
	}
	discs := 0
	for r, row := range rows {
		if r < 8 && len(row) != 8 {
			t.Fatalf("row %d has %d buttons, want 8", r+1, len(row))
		}
		for c, b := range row {
			has := strings.Contains(b.Text, render.BlackDisc) || strings.Contains(b.Text, render.WhiteDisc)
			if has && r >= 8 {
				t.Errorf("control button %q shows a disc", b.Text)
			}
			if has {
				discs++
			}
			if r < 8 {
				cb, err := callback.Parse(b.CallbackData)
				if err != nil || int(cb.Square.Col()) != c || int(cb.Square.Row()) != r {
					t.Errorf("button r%d c%d carries %q (%v)", r, c, b.CallbackData, err)
				}
			}
		}
	}
	if discs != 4 {
		t.Errorf("start board shows %d discs, want 4", discs)
	}
}
