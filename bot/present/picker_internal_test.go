package present

import (
	"fmt"
	"testing"

	"github.com/go-telegram/bot/models"
	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/render"
	"github.com/reversibot/reversi/render/rendertest"
)

// TestMovePickerRows checks how the move buttons are split into rows: at most 5 in a row, as
// even as may be, the longer rows first, in the order of the moves.
func TestMovePickerRows(t *testing.T) {
	for _, tc := range []struct {
		n    int // moves on the page
		want string
	}{{0, "[]"}, {1, "[1]"}, {4, "[4]"}, {5, "[5]"}, {6, "[3 3]"}, {7, "[4 3]"}, {11, "[4 4 3]"}, {16, "[4 4 4 4]"}, {64, "[5 5 5 5 5 5 5 5 5 5 5 5 4]"}} {
		buttons := make([]models.InlineKeyboardButton, tc.n)
		for i := range buttons {
			buttons[i].Text = fmt.Sprint(i)
		}
		var sizes []int
		var order []models.InlineKeyboardButton
		for _, row := range pickerRows(buttons, 2) {
			sizes = append(sizes, len(row))
			order = append(order, row...)
		}
		if got := fmt.Sprint(sizes); got != tc.want {
			t.Errorf("%d moves: rows of %s, want %s", tc.n, got, tc.want)
		}
		if fmt.Sprint(order) != fmt.Sprint(buttons) {
			t.Errorf("%d moves: rows hold %v", tc.n, order)
		}
	}
	// Every count a page can hold, against the rule.
	for n := 1; n <= maxPageMoves; n++ {
		rows := pickerRows(make([]models.InlineKeyboardButton, n), 0)
		total := 0
		for i, row := range rows {
			total += len(row)
			if len(row) > pickerRowButtons || len(row) > len(rows[0]) || len(rows[0])-len(row) > 1 || i > 0 && len(row) > len(rows[i-1]) {
				t.Fatalf("%d moves: rows %v", n, rows)
			}
		}
		if total != n || len(rows) != (n+pickerRowButtons-1)/pickerRowButtons {
			t.Fatalf("%d moves: %d rows holding %d", n, len(rows), total)
		}
	}
}

// TestPickerHideMovesUnlabelled: a viewer who may not move gets a picture without labels, so
// the picker's buttons name their squares alone.
func TestPickerHideMovesUnlabelled(t *testing.T) {
	p, err := engine.Start(16)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := MovePicker(render.NewView(p), 0, KeyboardOptions{Game: "g1", HideMoves: true})
	if err != nil {
		t.Fatal(err)
	}
	moves := p.LegalMoves()
	i := 0
	for _, row := range kb.InlineKeyboard {
		for _, b := range row {
			if i < len(moves) && b.Text != moves[i].String() {
				t.Errorf("button %d is %q, want %q", i, b.Text, moves[i].String())
			}
			i++
		}
	}
}

// TestPickerLabels reads every move button of the picker, on every page: each names its
// square, and the i-th legal move's button carries render.MoveLabel(i), the label the picture
// shows on that square (render's TestLabelsMatchPicture reads it there), counting on from page
// to page.
func TestPickerLabels(t *testing.T) {
	busy := render.ViewOf(rendertest.RandomGame(t, 16, 64, 120))
	moves := busy.Position.LegalMoves()
	for _, tc := range []struct {
		name string
		v    render.View
		ctl  int
	}{
		{"10x10 start", render.NewView(engine.MustStart(10)), 2},
		{"12x12 ply 70", render.ViewOf(rendertest.RandomGame(t, 12, 2, 70)), 2},
		{"16x16 busy, hint", busy.WithHint(moves[len(moves)/2]), 2},
		{"16x16 busy, 3 pages", busy, 70},
		{"16x16 fullest, 2 pages", render.NewView(rendertest.Fullest(t, 16)), 40},
		{"16x16 white to move", render.ViewOf(rendertest.RandomGame(t, 16, 64, 121)), 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.v.Position
			buttons := pickerButtons(t, tc.v, KeyboardOptions{Game: "g", Controls: controlRows(tc.ctl)})
			if len(buttons) != p.MoveCount() {
				t.Fatalf("%d move buttons for %d moves", len(buttons), p.MoveCount())
			}
			for i, b := range buttons {
				cb, _ := callback.Parse(b.CallbackData)
				want := cb.Square.String()
				if label := render.MoveLabel(i); label != "" {
					want = label + " · " + want
				}
				if cb.Square != p.LegalMoves()[i] || b.Text != want {
					t.Errorf("button %d: %q for the move %v, want %q for %v", i, b.Text, cb.Square, want, p.LegalMoves()[i])
				}
			}
		})
	}
}

// FuzzPicker draws the move picker of any board, any page, with up to 39 control buttons:
// nothing panics, the keyboard keeps Telegram's limits, and its buttons carry the labels in the
// order of the legal moves.
func FuzzPicker(f *testing.F) {
	f.Add(uint8(16), []byte(rendertest.Fullest(f, 16).BoardText()), false, uint8(3), uint8(0), uint8(0))
	f.Add(uint8(10), []byte(engine.MustStart(10).BoardText()), true, uint8(0), uint8(1), uint8(44))
	f.Add(uint8(8), []byte{}, false, uint8(200), uint8(7), uint8(0x33))
	f.Fuzz(func(t *testing.T, size uint8, cells []byte, white bool, page, ctl, hint uint8) {
		p, err := rendertest.FuzzedBoard(size, cells, white)
		if err != nil {
			t.Skip(err)
		}
		v := render.NewView(p).WithHint(engine.Square(hint))
		opt := KeyboardOptions{Game: "g", Controls: controlRows(int(ctl) % 40)}
		kb, err := MovePicker(v, int(page), opt)
		if err != nil {
			t.Fatalf("MovePicker: %v", err)
		}
		if err := ValidateKeyboard(kb); err != nil {
			t.Fatal(err)
		}
		index := map[engine.Square]int{}
		for i, sq := range p.LegalMoves() {
			index[sq] = i
		}
		for _, row := range kb.InlineKeyboard {
			for _, b := range row {
				cb, err := callback.Parse(b.CallbackData)
				if err != nil || cb.Action != callback.ActionMove {
					continue
				}
				i, ok := index[cb.Square]
				if want := pickerText(i, cb.Square); !ok || b.Text != want {
					t.Fatalf("button %q for %v, want %q", b.Text, cb.Square, want)
				}
			}
		}
	})
}
