package present

import (
	"strconv"
	"testing"

	"github.com/go-telegram/bot/models"
	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/render"
)

// TestMoveButtonsCarryVersion: the move buttons of a keyboard and of a move picker carry
// KeyboardOptions.Version in Callback.Arg (the other buttons never), and a version that does
// not fit a callback number is left out (0) rather than making the data invalid.
func TestMoveButtonsCarryVersion(t *testing.T) {
	v := render.NewView(engine.MustStart(8))
	for _, tc := range []struct {
		version int64
		want    int
	}{{0, 0}, {1, 1}, {4711, 4711}, {callback.MaxNumber, callback.MaxNumber}, {callback.MaxNumber + 1, 0}, {-3, 0}} {
		opt := KeyboardOptions{Game: "g1", Version: tc.version}
		kb, err := Keyboard(v, opt)
		if err != nil {
			t.Fatal(err)
		}
		picker, err := MovePicker(v, 0, opt)
		if err != nil {
			t.Fatal(err)
		}
		moves := 0
		for _, rows := range [][][]string{dataOf(kb.InlineKeyboard), dataOf(picker.InlineKeyboard)} {
			for _, row := range rows {
				for _, data := range row {
					c, err := callback.Parse(data)
					if err != nil {
						t.Fatalf("version %d: button data %q: %v", tc.version, data, err)
					}
					switch {
					case c.Action == callback.ActionMove && c.Arg != tc.want:
						t.Errorf("version %d: move %q carries Arg %d, want %d", tc.version, data, c.Arg, tc.want)
					case c.Action != callback.ActionMove && c.Arg != 0:
						t.Errorf("version %d: %v button %q carries Arg %d", tc.version, c.Action, data, c.Arg)
					}
					if c.Action == callback.ActionMove {
						moves++
					}
				}
			}
		}
		if moves != 60+4 {
			t.Errorf("version %d: %d move buttons, want 60 empty squares and 4 picker moves", tc.version, moves)
		}
	}
	// d3 at version 4711 of the game: the version follows the (empty) page field.
	opt := KeyboardOptions{Game: "g1", Version: 4711}
	kb, _ := Keyboard(v, opt)
	if got, want := kb.InlineKeyboard[2][3].CallbackData, "1mg1::z::"+strconv.FormatInt(4711, 36)+":"+strconv.FormatUint(v.Position.Tag(), 36); got != want {
		t.Errorf("d3 carries %q, want %q", got, want)
	}
}

// TestMoveDataWithoutVersion: the data of move buttons drawn before they carried a version
// still parses, as version 0 (none named), and encodes back to the same bytes.
func TestMoveDataWithoutVersion(t *testing.T) {
	for _, data := range []string{"1mAb3:h:z:::2bq7cd1f", "1mAb3:h:z", "1mAb3:h:z::3mn:2bq7cd1f"} {
		c, err := callback.Parse(data)
		if err != nil {
			t.Fatalf("ParseCallback(%q): %v", data, err)
		}
		if got := c.Encode(); got != data {
			t.Errorf("Encode(ParseCallback(%q)) = %q", data, got)
		}
		if c.Action != callback.ActionMove || c.Ply != 17 || c.Square != 35 {
			t.Errorf("ParseCallback(%q) = %+v", data, c)
		}
	}
}

// dataOf is the callback data of every button of rows.
func dataOf(rows [][]models.InlineKeyboardButton) [][]string {
	out := make([][]string, len(rows))
	for i, row := range rows {
		for _, b := range row {
			out[i] = append(out[i], b.CallbackData)
		}
	}
	return out
}
