package bot

import (
	"testing"
	"time"

	"github.com/reversibot/reversi/bot/callback"
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

// TestInvitationColour: the colour an inline query asked for travels in the signed Join data
// and in the result id, and an invitation written before colours (Arg the bare size, an id
// without a letter) reads as random colours.
func TestInvitationColour(t *testing.T) {
	s := callback.NewSigner(callbackKey("123:token"))
	made := invitationEpoch.Add(1000 * time.Second)
	for _, color := range []game.Choice{game.ChooseRandom, game.ChooseBlack, game.ChooseWhite} {
		inv := invitation{creator: 42, size: 12, color: color, nonce: 7, made: made}
		c, err := callback.Parse(inv.callback(s))
		if err != nil {
			t.Fatal(err)
		}
		got, ok := readInvitation(s, c)
		if !ok || got != inv {
			t.Errorf("colour %v: read back %+v, %v; want %+v", color, got, ok, inv)
		}
		size, gc, nonce, ok := parseInlineResultID(inlineResultID(12, color, 7))
		if !ok || size != 12 || gc != color || nonce != 7 {
			t.Errorf("result id of colour %v reads %d, %v, %d, %v", color, size, gc, nonce, ok)
		}
	}
	old := s.Sign(callback.Data{Action: callback.ActionJoin, Game: creatorTag(42), Ply: 7, Page: 1000, Arg: 10})
	if got, ok := readInvitation(s, old); !ok || got.size != 10 || got.color != game.ChooseRandom {
		t.Errorf("an invitation without a colour reads %+v, %v", got, ok)
	}
	bad := s.Sign(callback.Data{Action: callback.ActionJoin, Game: creatorTag(42), Ply: 7, Page: 1000, Arg: 3*colorArg + 8})
	if got, ok := readInvitation(s, bad); ok {
		t.Errorf("an unknown colour reads %+v", got)
	}
	for id, want := range map[string]bool{"g8": true, "g10.1z": true, "g16w.a": true, "g8b": true,
		"gw.1": false, "g8x.1": false, "g8.0": false, "g8.-1": false, "x8.1": false, "": false} {
		if _, _, _, ok := parseInlineResultID(id); ok != want {
			t.Errorf("parseInlineResultID(%q) ok = %v, want %v", id, ok, want)
		}
	}
}
