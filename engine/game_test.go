package engine

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// randomGame plays a seeded random game to its end on a board of the given size.
func randomGame(t *testing.T, size int, rng *rand.Rand) *Game {
	t.Helper()
	g, err := NewGame(size)
	if err != nil {
		t.Fatal(err)
	}
	for !g.Over() {
		m := Pass
		if ms := g.Position().LegalMoves(); len(ms) > 0 {
			m = ms[rng.IntN(len(ms))]
		}
		if _, err := g.Play(m); err != nil {
			t.Fatalf("Play(%v) in %v: %v", m, g.Position(), err)
		}
	}
	return g
}

func TestGameRecordRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for size := MinSize; size <= MaxSize; size += 2 {
		for i := 0; i < 20; i++ {
			g := randomGame(t, size, rng)
			rec := g.Record()
			if strings.Contains(rec, "pass") {
				t.Fatalf("Record() = %q has a pass", rec)
			}
			h, err := ReplayRecord(size, rec)
			if err != nil {
				t.Fatalf("ReplayRecord(%d, %q): %v", size, rec, err)
			}
			if !slices.Equal(h.Moves(), g.Moves()) {
				t.Fatalf("ReplayRecord(%d, %q).Moves() = %v, want %v (passes restored)", size, rec, h.Moves(), g.Moves())
			}
			if h.Position() != g.Position() || h.Outcome() != g.Outcome() || !h.Over() {
				t.Fatalf("replayed game ends in %v (%v), want %v (%v)", h.Position(), h.Outcome(), g.Position(), g.Outcome())
			}
			// The same record with passes written, upper case and separators replays the same.
			var parts []string
			for _, m := range g.Moves() {
				parts = append(parts, strings.ToUpper(m.String()))
			}
			h2, err := ReplayRecord(size, strings.Join(parts, ", "))
			if err != nil || h2.Position() != g.Position() {
				t.Fatalf("ReplayRecord with passes and separators: %v, %v", h2, err)
			}
			g2, err := Replay(size, g.Moves())
			if err != nil || g2.Position() != g.Position() {
				t.Fatalf("Replay(%d, moves): %v", size, err)
			}
		}
	}
}

// TestGameAutoPass finds a random 6×6 game with a pass and checks that the record leaves it out
// and that replaying puts it back in the same place.
func TestGameAutoPass(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 1000; i++ {
		g := randomGame(t, 6, rng)
		at := slices.Index(g.Moves(), Pass)
		if at < 0 || at == g.Len()-1 {
			continue
		}
		moves := slices.Delete(slices.Clone(g.Moves()), at, at+1)
		h, err := Replay(6, moves)
		if err != nil {
			t.Fatalf("Replay without the pass: %v", err)
		}
		if h.Moves()[at] != Pass || !slices.Equal(h.Moves(), g.Moves()) {
			t.Fatalf("Replay(%v) = %v, want the pass back at %d: %v", moves, h.Moves(), at, g.Moves())
		}
		passes := 0
		for _, m := range g.Moves() {
			if m == Pass {
				passes++
			}
		}
		if rec := g.Record(); strings.Contains(rec, "pass") || len(rec) != 2*(g.Len()-passes) {
			t.Fatalf("Record() = %q for %d moves and %d passes", rec, g.Len(), passes)
		}
		return
	}
	t.Fatal("no 6×6 random game with a pass in 1000")
}

func TestGameUndo(t *testing.T) {
	g, err := NewGame(8)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, ok := g.LastMove(); ok {
		t.Error("LastMove at the start: ok")
	}
	if err := g.Undo(); !errors.Is(err, ErrNothingToUndo) {
		t.Errorf("Undo at the start = %v, want ErrNothingToUndo", err)
	}
	var seen []Position
	for _, name := range []string{"f5", "d6", "c3", "d3", "c4"} {
		seen = append(seen, g.Position())
		sq, _ := ParseSquare(name)
		flips, err := g.Play(sq)
		if err != nil {
			t.Fatalf("Play(%s): %v", name, err)
		}
		last, lf, ok := g.LastMove()
		if !ok || last != sq || lf != flips || flips.Empty() {
			t.Fatalf("LastMove() = %v %v %v after %s flipping %v", last, lf.Squares(), ok, name, flips.Squares())
		}
	}
	if g.Record() != "f5d6c3d3c4" || g.Len() != 5 {
		t.Fatalf("Record() = %q, Len() = %d", g.Record(), g.Len())
	}
	for i := len(seen) - 1; i >= 0; i-- {
		if err := g.Undo(); err != nil {
			t.Fatal(err)
		}
		if g.Position() != seen[i] || g.Len() != i {
			t.Fatalf("after undo to move %d: %v, want %v", i, g.Position(), seen[i])
		}
	}
	if g.Position() != g.Start() || g.Record() != "" {
		t.Errorf("undo to the start: %v %q", g.Position(), g.Record())
	}
	// An illegal move changes nothing.
	before := g.Position()
	if _, err := g.Play(SquareAt(0, 0)); !errors.Is(err, ErrIllegal) || g.Len() != 0 || g.Position() != before {
		t.Errorf("Play(a1) at the start: %v, Len %d", err, g.Len())
	}
}

func mustPos(t *testing.T, text string) Position {
	t.Helper()
	p, err := ParsePosition(text)
	if err != nil {
		t.Fatalf("ParsePosition(%q): %v", text, err)
	}
	return p
}

// TestErrors checks that every sentinel error comes back where the API promises it.
func TestErrors(t *testing.T) {
	start := MustStart(8)
	mustPass := mustPos(t, "-"+strings.Repeat("X", 61)+"O- O") // white has no move, black has h8
	over := mustPos(t, strings.Repeat("X", 16)+" O")
	play := func(p Position, sq Square) error { _, _, err := p.Play(sq); return err }
	sqr := func(s string) Square {
		q, err := ParseSquare(s)
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	_, errStart := Start(7)
	_, errGame := NewGame(18)
	_, errBoardLen := ParseBoard("XO-", Black)
	_, errBoardChar := ParseBoard(strings.Repeat("Z", 16), Black)
	_, errBoardSide := ParseBoard(strings.Repeat("-", 16), Color(3))
	_, errSquare := ParseSquare("q1")
	_, errRecord := ParseRecord("f5 zz")
	_, errSide := ParsePosition(strings.Repeat("-", 64) + " Y")
	var zero Position
	_, errMarshal := zero.MarshalText()
	_, errReplay := ReplayRecord(8, "f5f5")
	_, errReplaySize := ReplayRecord(9, "f5")
	g, _ := NewGame(8)
	for _, c := range []struct {
		name string
		err  error
		want error
	}{
		{"Start(7)", errStart, ErrSize},
		{"NewGame(18)", errGame, ErrSize},
		{"ParseBoard of 3 characters", errBoardLen, ErrSize},
		{"ParseBoard with Z", errBoardChar, ErrSyntax},
		{"ParseBoard side 3", errBoardSide, ErrSyntax},
		{"ParseSquare(q1)", errSquare, ErrSyntax},
		{"ParseRecord(f5 zz)", errRecord, ErrSyntax},
		{"ParsePosition side Y", errSide, ErrSyntax},
		{"zero Position MarshalText", errMarshal, ErrSize},
		{"ReplayRecord(f5f5)", errReplay, ErrOccupied},
		{"ReplayRecord size 9", errReplaySize, ErrSize},
		{"Play(j1) on 8×8", play(start, sqr("j1")), ErrOffBoard},
		{"Play(Square(300))", play(start, Square(300)), ErrOffBoard},
		{"Play(d4) at the start", play(start, sqr("d4")), ErrOccupied},
		{"Play(a1) at the start", play(start, sqr("a1")), ErrIllegal},
		{"Play(a1) when white must pass", play(mustPass, sqr("a1")), ErrMustPass},
		{"Play(Pass) at the start", play(start, Pass), ErrCannotPass},
		{"Play(Pass) when the game is over", play(over, Pass), ErrGameOver},
		{"Play(d4) when the game is over", play(mustPos(t, strings.Repeat("X", 15)+"- O"), sqr("d4")), ErrGameOver},
		{"Undo at the start", g.Undo(), ErrNothingToUndo},
	} {
		if !errors.Is(c.err, c.want) {
			t.Errorf("%s: error %v, want %v", c.name, c.err, c.want)
		}
	}
	if !strings.Contains(errReplay.Error(), "move 2") {
		t.Errorf("ReplayRecord(f5f5) = %q, want it to name move 2", errReplay)
	}
}

func TestOutcome(t *testing.T) {
	for _, c := range []struct {
		pos   string
		want  Outcome
		score int // FinalScore for the side to move
	}{
		{strings.Repeat("X", 10) + strings.Repeat("O", 6) + " X", BlackWins, 4},
		{strings.Repeat("X", 6) + strings.Repeat("O", 10) + " X", WhiteWins, -4},
		{strings.Repeat("X", 8) + strings.Repeat("O", 8) + " O", Draw, 0},
		{"-----OX--XO----- O", Ongoing, 0},
		{strings.Repeat("X", 5) + strings.Repeat("-", 11) + " O", BlackWins, -16},
	} {
		p := mustPos(t, c.pos)
		if got := p.Outcome(); got != c.want {
			t.Errorf("Outcome(%s) = %v, want %v", c.pos, got, c.want)
		}
		if c.want != Ongoing {
			if got := p.FinalScore(); got != c.score {
				t.Errorf("FinalScore(%s) = %d, want %d", c.pos, got, c.score)
			}
		}
	}
	for o, s := range map[Outcome]string{Ongoing: "ongoing", BlackWins: "black wins", WhiteWins: "white wins", Draw: "draw", 9: "Outcome(9)"} {
		if o.String() != s {
			t.Errorf("Outcome(%d).String() = %q, want %q", o, o.String(), s)
		}
	}
}
