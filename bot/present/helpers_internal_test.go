package present

import (
	"testing"

	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/render"
)

// sizes are every board size the engine supports.
var sizes = []int{4, 6, 8, 10, 12, 14, 16}

// controlRows returns n control buttons in rows of 8 (none of them shows a disc symbol).
func controlRows(n int) [][]models.InlineKeyboardButton {
	var rows [][]models.InlineKeyboardButton
	for i := 0; i < n; i++ {
		if i%8 == 0 {
			rows = append(rows, nil)
		}
		cb := callback.Data{Action: callback.ActionHint, Game: "G", Arg: i}
		rows[len(rows)-1] = append(rows[len(rows)-1], models.InlineKeyboardButton{Text: "ctl", CallbackData: cb.Encode()})
	}
	return rows
}

// pickerButtons returns the move buttons of every page of v's move picker, in order.
func pickerButtons(t *testing.T, v render.View, opt KeyboardOptions) []models.InlineKeyboardButton {
	t.Helper()
	var out []models.InlineKeyboardButton
	for _, kb := range pickerPagesOf(t, v, opt) {
		for _, row := range kb.InlineKeyboard {
			for _, b := range row {
				if cb, err := callback.Parse(b.CallbackData); err == nil && cb.Action == callback.ActionMove {
					out = append(out, b)
				}
			}
		}
	}
	return out
}
