package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/reversibot/reversi/engine"
)

// TestNBoardSession drives a scripted NBoard session: handshake, set game, ping, go, move,
// hint, and checks every answer.
func TestNBoardSession(t *testing.T) {
	script := strings.Join([]string{
		"nboard 2",
		"set depth 4",
		"set game (;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]" +
			"BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)",
		"ping 1",
		"go",
		"move D6/0.60/0.1",
		"set contempt 0",
		"some unknown command",
		"hint 1",
		"ping 2",
		"learn",
		"quit",
		"ping 3", // after quit: never answered
	}, "\n") + "\n"
	var out, errs bytes.Buffer
	if code := run([]string{"nboard", "-level", "4", "-seed", "1"}, strings.NewReader(script), &out, &errs); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	want := []string{"set myname reversibot", "pong 1", "status thinking"}
	if len(lines) < len(want) {
		t.Fatalf("output %q", out.String())
	}
	for i, w := range want {
		if lines[i] != w {
			t.Errorf("line %d = %q, want %q", i+1, lines[i], w)
		}
	}
	// The answer to "go": "=== MOVE EVAL TIME", a legal move for black after the record.
	g, err := ParseGGF("(;BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)")
	if err != nil {
		t.Fatal(err)
	}
	var move string
	var rest []string
	for i, l := range lines {
		if strings.HasPrefix(l, "=== ") {
			f := strings.Fields(l)
			if len(f) != 4 {
				t.Fatalf("go answer %q, want \"=== MOVE EVAL TIME\"", l)
			}
			move = f[1]
			rest = lines[i+1:]
			break
		}
	}
	if move == "" {
		t.Fatalf("no \"===\" answer in %q", out.String())
	}
	sq, err := engine.ParseSquare(move)
	if err != nil || !g.Position().IsLegal(sq) {
		t.Fatalf("go answered %q, not a legal move of %v", move, g.Position())
	}
	// After "move D6" it is white's turn: the hint must be a legal white move.
	if _, err := g.Play(engine.SquareAt(3, 5)); err != nil {
		t.Fatal(err)
	}
	wantRest := []string{"status", "status thinking", "search", "status", "pong 2", "learned"}
	if len(rest) != len(wantRest) {
		t.Fatalf("after go: %q, want %d lines", rest, len(wantRest))
	}
	for i, w := range wantRest {
		if !strings.HasPrefix(rest[i], w) {
			t.Errorf("after go, line %d = %q, want %q…", i+1, rest[i], w)
		}
	}
	f := strings.Fields(rest[2])
	hint, err := engine.ParseSquare(f[1])
	if err != nil || !g.Position().IsLegal(hint) {
		t.Errorf("hint %q is not a legal move of %v", rest[2], g.Position())
	}
	if strings.Contains(out.String(), "pong 3") {
		t.Error("answered after quit")
	}
}

func TestParseGGF(t *testing.T) {
	tests := []struct {
		in    string
		moves int
		side  engine.Color
		err   bool
	}{
		{in: "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *];)", side: engine.Black},
		{in: "(;GM[Othello]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[f5//1.0]W[F6/-0.5];)", moves: 2, side: engine.Black},
		{in: "(;BO[6 ------ ------ --O*-- --*O-- ------ ------ O];)", side: engine.White},
		{in: "(;BO[8 ---------------------------O*------*O--------------------------- *]B[A1];)", err: true},
		{in: "(;BO[9 ---];)", err: true},
		{in: "(;B[F5];)", err: true},
		{in: "no game", err: true},
		{in: "(;BO[8 ---------------------------O*------*O--------------------------- *", err: true},
	}
	for _, tc := range tests {
		g, err := ParseGGF(tc.in)
		if tc.err {
			if err == nil {
				t.Errorf("ParseGGF(%q) = nil error, want one", tc.in)
			} else if !errors.Is(err, ErrGGF) {
				t.Errorf("ParseGGF(%q) = %v, want ErrGGF", tc.in, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseGGF(%q): %v", tc.in, err)
			continue
		}
		if g.Len() != tc.moves || g.Position().Side() != tc.side {
			t.Errorf("ParseGGF(%q): %d moves, %v to move; want %d, %v", tc.in, g.Len(), g.Position().Side(), tc.moves, tc.side)
		}
	}
}

// FuzzParseGGF checks that no record makes the parser panic, and that a game it accepts is
// consistent: its moves replay from its start.
func FuzzParseGGF(f *testing.F) {
	f.Add("(;GM[Othello]PC[NBoard]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3/1.0/2];)")
	f.Add("(;BO[4 -----O*--*O----- *]B[b1]W[PA];)")
	f.Add("(;BO[8 -------- *]")
	f.Fuzz(func(t *testing.T, s string) {
		g, err := ParseGGF(s)
		if err != nil {
			return
		}
		h := engine.NewGameFrom(g.Start())
		for _, m := range g.Moves() {
			if _, err := h.Play(m); err != nil {
				t.Fatalf("accepted game does not replay: %v", err)
			}
		}
	})
}

// TestNBoardFuzzedCommands feeds odd lines to the session: none may crash it.
func TestNBoardOddInput(t *testing.T) {
	script := "nboard 2\nset game (;BO[8 ---];)\nset depth x\nmove z9\nmove\nset\ngo\nping\nset game (;BO[4 -----O*--*O----- *];)\ngo\n"
	var out, errs bytes.Buffer
	if code := run([]string{"nboard", "-movetime", "50ms"}, strings.NewReader(script), &out, &errs); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(out.String(), "=== ") {
		t.Errorf("no move in %q", out.String())
	}
}
