package present_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/go-telegram/bot/models"
	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/bot/present"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/render"
	"github.com/reversibot/reversi/render/rendertest"
)

// keyboardLayout is a keyboard as the golden files hold it: one string per button,
// "text | callback data".
func keyboardLayout(kb models.InlineKeyboardMarkup) [][]string {
	out := make([][]string, len(kb.InlineKeyboard))
	for i, row := range kb.InlineKeyboard {
		for _, b := range row {
			out[i] = append(out[i], b.Text+" | "+b.CallbackData)
		}
	}
	return out
}

// TestKeyboardGolden keeps the buttons of boards and move pickers of several sizes and moments
// as they were reviewed: every text and every callback data.
func TestKeyboardGolden(t *testing.T) {
	ctl := [][]models.InlineKeyboardButton{{
		{Text: "Resign", CallbackData: callback.Data{Action: callback.ActionResign, Game: "Gm"}.Encode()},
		{Text: "Hint", CallbackData: callback.Data{Action: callback.ActionHint, Game: "Gm"}.Encode()},
	}}
	got := map[string][][]string{}
	add := func(name string, kb models.InlineKeyboardMarkup, err error) {
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got[name] = keyboardLayout(kb)
	}
	kb, err := present.Keyboard(render.NewView(engine.MustStart(8)), present.KeyboardOptions{Game: "Gm", Controls: ctl})
	add("8x8 start", kb, err)
	kb, err = present.Keyboard(render.ViewOf(rendertest.RandomGame(t, 8, 5, 23)), present.KeyboardOptions{Game: "Gm", Controls: ctl})
	add("8x8 ply 23", kb, err)
	mid := render.ViewOf(rendertest.RandomGame(t, 8, 5, 23))
	kb, err = present.Keyboard(mid.WithHint(mid.Position.LegalMoves()[0]), present.KeyboardOptions{Game: "Gm", Controls: ctl})
	add("8x8 ply 23 hint", kb, err)
	kb, err = present.Keyboard(render.ViewOf(rendertest.RandomGame(t, 6, 2, 100)), present.KeyboardOptions{Game: "Gm"})
	add("6x6 finished", kb, err)
	kb, err = present.MovePicker(render.NewView(engine.MustStart(10)), 0, present.KeyboardOptions{Game: "Gm", Controls: ctl})
	add("10x10 picker start", kb, err)
	kb, err = present.MovePicker(render.ViewOf(rendertest.RandomGame(t, 16, 9, 90)), 0, present.KeyboardOptions{Game: "Gm", Controls: ctl})
	add("16x16 picker ply 90", kb, err)
	full := render.NewView(rendertest.Fullest(t, 16))
	for page := 0; page < 2; page++ {
		kb, err = present.MovePicker(full, page, present.KeyboardOptions{Game: "Gm", Controls: present.ControlRows(40)})
		add(fmt.Sprintf("16x16 fullest page %d", page), kb, err)
	}
	data, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "keyboards", string(data)+"\n")
}
