package present_test

import (
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/go-telegram/bot/models"
	"github.com/reversibot/reversi/bot/present"
	"github.com/reversibot/reversi/render"
)

// FuzzTurnMention: whatever the players are called, the board of a group game mentions exactly
// one player, the one to move, over the name its turn line shows, inside the text in UTF-16
// units; a text without that line mentions no one.
func FuzzTurnMention(f *testing.F) {
	for _, s := range [][2]string{{"Alice", "Bob"}, {"Боб 🦊", "Боб"}, {"Bob", "Bob"}, {"", " "},
		{"\xff\xfe", "a\nb"}, {"To move: ⚫ X", "⚪"}, {strings.Repeat("👨‍👩‍👧", 20), "x"}, {"\u202eevil", "e\u0301"}} {
		f.Add(s[0], s[1], 9)
	}
	f.Fuzz(func(t *testing.T, black, white string, n int) {
		g := people(8, playMoves(t, 8, n%61), "en")
		g.Players[0].Name, g.Players[1].Name = black, white
		eg, err := present.Replay(g)
		if err != nil {
			t.Fatal(err)
		}
		c, err := present.BoardOf(g, eg, group, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if eg.Over() {
			if len(c.Entities) != 0 {
				t.Fatalf("a finished board mentions %+v", c.Entities)
			}
			return
		}
		side := eg.Position().Side()
		if len(c.Entities) != 1 || c.Entities[0].User == nil || c.Entities[0].User.ID != g.Players[side].UserID {
			t.Fatalf("entities %+v, want a mention of player %d", c.Entities, side)
		}
		e := c.Entities[0]
		units := utf16.Encode([]rune(c.Text))
		if e.Offset < 0 || e.Length <= 0 || e.Offset+e.Length > len(units) {
			t.Fatalf("mention %+v outside a text of %d units", e, len(units))
		}
		line, at := render.TurnLine("en", side, g.Players[side].Name)
		if got := string(utf16.Decode(units[e.Offset : e.Offset+e.Length])); got != line[at:] {
			t.Fatalf("the mention covers %q, want %q", got, line[at:])
		}
		if m := present.TurnMention(g, eg, "en", "no such line"); m != nil {
			t.Fatalf("a text without the turn line mentions %+v", m)
		}
	})
}

// playMoves is play for a fuzz target: n moves (fewer when the game ends).
func playMoves(t *testing.T, size, n int) []byte {
	if n < 0 {
		n = -n
	}
	return play(t, size, n)
}

// TestWithGrid: the grid goes above the text and the entities move along with the text, so
// a mention still covers the name it mentions.
func TestWithGrid(t *testing.T) {
	c := present.Content{Text: "To move: ⚫ Alice", Grid: "⚫⚪\n🟩🟩",
		Entities: []models.MessageEntity{{Type: models.MessageEntityTypeTextMention, Offset: 11, Length: 5}}}
	got := c.WithGrid()
	if got.Text != "⚫⚪\n🟩🟩\nTo move: ⚫ Alice" || got.Grid != "" {
		t.Fatalf("WithGrid text %q, grid %q", got.Text, got.Grid)
	}
	units := utf16.Encode([]rune(got.Text))
	e := got.Entities[0]
	if name := string(utf16.Decode(units[e.Offset : e.Offset+e.Length])); name != "Alice" {
		t.Errorf("the mention covers %q, want Alice", name)
	}
	if c.Entities[0].Offset != 11 {
		t.Error("WithGrid changed the entities of the original")
	}
	if plain := (present.Content{Text: "x"}).WithGrid(); plain.Text != "x" {
		t.Errorf("WithGrid of no grid: %q", plain.Text)
	}
}
