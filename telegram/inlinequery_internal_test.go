package telegram

import (
	"testing"

	"github.com/reversibot/reversi/game"
)

func TestParseInlineQuery(t *testing.T) {
	for _, c := range []struct {
		q     string
		size  int
		color game.Choice
	}{
		{"", 0, game.ChooseRandom},
		{"10", 10, game.ChooseRandom},
		{" 12  white ", 12, game.ChooseWhite},
		{"16×16", 16, game.ChooseRandom},
		{"16x16", 16, game.ChooseRandom},
		{"16 x 16", 16, game.ChooseRandom},
		{"16Х16", 16, game.ChooseRandom}, // a Cyrillic Х
		{"8 black", 8, game.ChooseBlack},
		{"black 8", 8, game.ChooseBlack},
		{"белые", 0, game.ChooseWhite},
		{"10 чёрные", 10, game.ChooseBlack},
		{"черными 12", 12, game.ChooseBlack},
		{"Белыми, 16x16", 16, game.ChooseWhite},
		{"White", 0, game.ChooseWhite},
		{"random 10", 10, game.ChooseRandom},
		{"7", 0, game.ChooseRandom},     // no board has it
		{"100", 0, game.ChooseRandom},   // nor this
		{"10x12", 0, game.ChooseRandom}, // not square
		{"hello world", 0, game.ChooseRandom},
		{"10 12", 10, game.ChooseRandom},     // the first size counts
		{"white black", 0, game.ChooseBlack}, // the last colour counts
		{"-8", 0, game.ChooseRandom},
	} {
		size, color := parseInlineQuery(c.q)
		if size != c.size || color != c.color {
			t.Errorf("parseInlineQuery(%q) = %d, %v; want %d, %v", c.q, size, color, c.size, c.color)
		}
	}
}

func FuzzParseInlineQuery(f *testing.F) {
	for _, s := range []string{"", "10", "12 white", "16×16", "16x16", "8 black", "белые", "чёрные 10", "\xff\xfe", "1x1x1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		size, color := parseInlineQuery(q)
		if size != 0 && !validSize(size) {
			t.Fatalf("parseInlineQuery(%q) gave size %d", q, size)
		}
		if color != game.ChooseRandom && color != game.ChooseBlack && color != game.ChooseWhite {
			t.Fatalf("parseInlineQuery(%q) gave colour %v", q, color)
		}
	})
}
