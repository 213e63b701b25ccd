package bot_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/render"
)

// hintSquare is the square m's keyboard marks as the hint (render.HintMark), "" for none.
func hintSquare(t testing.TB, m telegramtest.ChatMessage) string {
	t.Helper()
	for _, row := range m.Buttons() {
		for _, b := range row {
			if b.Text == render.HintMark {
				c, err := callback.Parse(b.CallbackData)
				if err != nil {
					t.Fatalf("hint button %+v: %v", b, err)
				}
				return c.Square.String()
			}
		}
	}
	return ""
}

// TestHintOnBoard: after a tap on Hint the tapper's board shows the hinted square, as
// render.HintMark on an 8×8 keyboard (a ring on a picture) and in the text with its place
// counted from the edges on a keyboard; the next move's board shows no hint.
func TestHintOnBoard(t *testing.T) {
	for _, c := range []struct {
		size  int
		lang  string
		label string // the text's word for the hint
		place string // how the text says where h5-like squares lie (8×8 only)
	}{{8, "en", "Hint", "from the"}, {8, "ru", "Подсказка", "-й с"}, {16, "en", "Hint", ""}} {
		t.Run(fmt.Sprintf("%dx%d_%s", c.size, c.size, c.lang), func(t *testing.T) {
			h := newHarness(t)
			alice := h.user("Alice", c.lang)
			board := h.aiBoard(alice, alice.ID(), fmt.Sprintf("/ai %d 2 black", c.size))
			moves := legalMoves(board)
			want := moveName(t, moves[len(moves)-1]) // firstMover hints the highest
			hint, err := board.Button("💡 " + map[string]string{"en": "Hint", "ru": "Подсказка"}[c.lang])
			if err != nil {
				t.Fatal(err)
			}
			h.pressData(alice, board, hint.CallbackData)
			hinted := h.waitState(board, "the hint on the board", func(m telegramtest.ChatMessage) bool {
				return strings.Contains(m.Content(), c.label+": "+render.HintMark+" "+want)
			})
			line := hinted.Content()[strings.Index(hinted.Content(), c.label+": "):]
			line, _, _ = strings.Cut(line, "\n")
			if c.place != "" && !strings.Contains(line, c.place) {
				t.Errorf("the hint's line does not say where it lies: %q", line)
			}
			if c.size == 8 {
				if got := hintSquare(t, hinted); got != want {
					t.Errorf("the keyboard marks %q as the hint, want %s:%s", got, want, dump([]telegramtest.ChatMessage{hinted}))
				}
				if boardPly(hinted) != 0 || len(legalMoves(hinted)) != len(moves)-1 {
					t.Errorf("the hinted board lost its moves:%s", dump([]telegramtest.ChatMessage{hinted}))
				}
			} else if !hinted.HasPhoto() || string(hinted.Photo) == string(board.Photo) {
				t.Errorf("the picture was not redrawn with the hint")
			}
			// The next move drops the hint.
			h.pressData(alice, hinted, sameMove(t, hinted, moves[0]).CallbackData)
			after := h.waitState(board, "the AI's reply", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 2 })
			if strings.Contains(after.Content(), render.HintMark) || hintSquare(t, after) != "" {
				t.Errorf("the hint survived the move:%s", dump([]telegramtest.ChatMessage{after}))
			}
		})
	}
}
