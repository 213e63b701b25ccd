package engine

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// refReplay is a plain step-by-step replay of moves on the reference board: before each disc,
// and after the last move, the side to move passes when it has no legal move but the opponent
// has; a written pass must be such a pass. It returns the moves with the passes put in and the
// final board, or the number (from 1) of the first move it cannot play.
func refReplay(size int, moves []Square) (played []Square, b refBoard, bad int) {
	b = refStart(size)
	mustPass := func() bool { return len(b.moves(b.turn)) == 0 && len(b.moves(refOther(b.turn))) > 0 }
	pass := func() {
		b.turn = refOther(b.turn)
		played = append(played, Pass)
	}
	for i, m := range moves {
		if m == Pass {
			if !mustPass() {
				return nil, b, i + 1
			}
			pass()
			continue
		}
		if mustPass() {
			pass()
		}
		if m.Col() >= size || m.Row() >= size || m < 0 || !b.legal(b.turn, m.Col(), m.Row()) {
			return nil, b, i + 1
		}
		b.play(m)
		played = append(played, m)
	}
	if mustPass() {
		pass()
	}
	return played, b, 0
}

// checkReplay holds Replay of moves to refReplay: the same moves with the same passes, the
// same board and side to move, or a failure at the same move. It returns the replay (nil when
// it failed).
func checkReplay(t *testing.T, size int, moves []Square) *Game {
	t.Helper()
	want, ref, bad := refReplay(size, moves)
	g, err := Replay(size, moves)
	if bad > 0 {
		if err == nil {
			t.Fatalf("Replay(%d, %v) succeeded; the plain replay fails at move %d", size, moves, bad)
		}
		if !errors.Is(err, ErrIllegal) && !errors.Is(err, ErrOffBoard) && !errors.Is(err, ErrOccupied) &&
			!errors.Is(err, ErrCannotPass) && !errors.Is(err, ErrGameOver) && !errors.Is(err, ErrMustPass) {
			t.Fatalf("Replay(%d, %v) = %v, not one of the engine's move errors", size, moves, err)
		}
		if _, err := Replay(size, moves[:bad-1]); err != nil {
			t.Fatalf("Replay(%d, %v) fails (%v), but the plain replay fails only at move %d", size, moves[:bad-1], err, bad)
		}
		return nil
	}
	if err != nil {
		t.Fatalf("Replay(%d, %v): %v; the plain replay succeeds", size, moves, err)
	}
	if !slices.Equal(g.Moves(), want) {
		t.Fatalf("Replay(%d, %v).Moves() = %v, the plain replay %v", size, moves, g.Moves(), want)
	}
	if p := g.Position(); p.BoardText() != ref.text() || p.Side() != ref.side() {
		t.Fatalf("Replay(%d, %v) ends in %v, the plain replay in %s %v", size, moves, p, ref.text(), ref.side())
	}
	if g.Position().MustPass() {
		t.Fatalf("Replay(%d, %v) leaves the side to move a pass to play", size, moves)
	}
	placed := slices.DeleteFunc(slices.Clone(moves), func(m Square) bool { return m == Pass })
	if g.Ply() != len(placed) {
		t.Fatalf("Replay(%d, %v).Ply() = %d, want the %d discs placed", size, moves, g.Ply(), len(placed))
	}
	// The discs alone replay the same, and so do their bytes.
	bytes := make([]byte, len(placed))
	for i, m := range placed {
		bytes[i] = byte(m)
	}
	for _, h := range []func() (*Game, error){
		func() (*Game, error) { return Replay(size, placed) },
		func() (*Game, error) { return ReplayBytes(size, bytes) },
		func() (*Game, error) { return ReplayRecord(size, g.Record()) },
	} {
		h, err := h()
		if err != nil || !slices.Equal(h.Moves(), g.Moves()) || h.Position() != g.Position() || h.Ply() != g.Ply() {
			t.Fatalf("the discs of Replay(%d, %v) do not replay the same: %v", size, moves, err)
		}
	}
	return g
}

// randomMoves plays a random game of up to n moves and returns its discs, with or without
// the passes written.
func randomMoves(size, n int, rng *rand.Rand, passes bool) []Square {
	p := MustStart(size)
	var out []Square
	for i := 0; i < n && !p.GameOver(); i++ {
		m := Pass
		if ms := p.LegalMoves(); len(ms) > 0 {
			m = ms[rng.IntN(len(ms))]
		}
		p, _, _ = p.Play(m)
		if m != Pass || passes {
			out = append(out, m)
		}
	}
	return out
}

func TestReplayAgainstPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 17))
	for size := MinSize; size <= MaxSize; size += 2 {
		games := 60
		if size > 8 {
			games = 8
		}
		for i := 0; i < games; i++ {
			full := randomMoves(size, size*size, rng, rng.IntN(2) == 0)
			checkReplay(t, size, full)
			// Every prefix too: a game cut anywhere, also just before a pass.
			for k := range len(full) {
				if size <= 8 || k%7 == 0 {
					checkReplay(t, size, full[:k])
				}
			}
			// A broken copy: a move changed to another square (or to a pass) or dropped.
			if len(full) > 0 {
				bad := slices.Clone(full)
				k := rng.IntN(len(bad))
				switch rng.IntN(3) {
				case 0:
					bad[k] = Square(rng.IntN(256))
				case 1:
					bad[k] = Pass
				default:
					bad = slices.Delete(bad, k, k+1)
				}
				checkReplay(t, size, bad)
			}
		}
	}
}

// TestReplayTrailingPass finds games whose last disc leaves the opponent without a move and
// checks that Replay plays that pass too.
func TestReplayTrailingPass(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	found := 0
	for i := 0; i < 2000 && found < 20; i++ {
		g := randomGame(t, 6, rng)
		for k, m := range g.Moves() {
			if m != Pass || k == 0 {
				continue
			}
			found++
			var discs []Square
			for _, d := range g.Moves()[:k] {
				if d != Pass {
					discs = append(discs, d)
				}
			}
			h, err := Replay(6, discs)
			if err != nil {
				t.Fatal(err)
			}
			if h.Len() != k+1 || h.Moves()[k] != Pass || h.Position() != g.positions[k+1] {
				t.Fatalf("Replay(%v) = %v, want the pass after the last disc: %v", discs, h.Moves(), g.Moves()[:k+1])
			}
			if last, _, _ := h.LastMove(); last != Pass {
				t.Fatalf("LastMove() = %v after a trailing pass", last)
			}
		}
	}
	if found == 0 {
		t.Fatal("no 6×6 random game with a pass")
	}
}

func TestReplaySize(t *testing.T) {
	for _, n := range []int{0, 3, 7, 18} {
		if _, err := Replay(n, nil); !errors.Is(err, ErrSize) {
			t.Errorf("Replay(%d, nil) = %v, want ErrSize", n, err)
		}
		if _, err := ReplayBytes(n, []byte{0x23}); !errors.Is(err, ErrSize) {
			t.Errorf("ReplayBytes(%d) = %v, want ErrSize", n, err)
		}
	}
}

func TestPly(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 300; i++ {
		g := randomGame(t, 6, rng)
		var placers []Color
		for j, m := range g.Moves() {
			side := g.positions[j].Side()
			if g.MoverOf(j) != side {
				t.Fatalf("MoverOf(%d) = %v, but %v was to move", j, g.MoverOf(j), side)
			}
			if m != Pass {
				placers = append(placers, side)
			}
		}
		// Take the game back move by move: Ply and PlacedBy follow.
		for {
			if g.Ply() != len(placers) {
				t.Fatalf("Ply() = %d after %v, want %d", g.Ply(), g.Moves(), len(placers))
			}
			for k, c := range placers {
				if g.PlacedBy(k) != c {
					t.Fatalf("PlacedBy(%d) = %v, want %v (moves %v)", k, g.PlacedBy(k), c, g.Moves())
				}
			}
			if g.Len() == 0 {
				break
			}
			if m, _, _ := g.LastMove(); m != Pass {
				placers = placers[:len(placers)-1]
			}
			if err := g.Undo(); err != nil {
				t.Fatal(err)
			}
		}
	}
	// From a position with white to move, the start's side counts.
	p, err := ParsePosition("------OX--XO----" + " O")
	if err != nil {
		t.Fatal(err)
	}
	g := NewGameFrom(p)
	if _, err := g.Play(p.LegalMoves()[0]); err != nil {
		t.Fatal(err)
	}
	if g.Ply() != 1 || g.PlacedBy(0) != White || g.MoverOf(1) != Black {
		t.Errorf("game from white to move: Ply %d, PlacedBy(0) %v, MoverOf(1) %v", g.Ply(), g.PlacedBy(0), g.MoverOf(1))
	}
}

func FuzzReplay(f *testing.F) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, size := range []int{4, 6, 8} {
		var b []byte
		for _, m := range randomMoves(size, size*size, rng, false) {
			b = append(b, byte(m))
		}
		f.Add(uint8(size/2-2), b)
		f.Add(uint8(size/2-2), b[:len(b)/2])
	}
	f.Add(uint8(2), []byte{0x23, 0x24, 0xff})
	f.Add(uint8(9), []byte{})
	f.Fuzz(func(t *testing.T, sizeIndex uint8, moves []byte) {
		size := MinSize + 2*int(sizeIndex%7)
		if len(moves) > size*size {
			moves = moves[:size*size]
		}
		squares := make([]Square, len(moves))
		for i, b := range moves {
			squares[i] = Square(b)
		}
		g := checkReplay(t, size, squares)
		h, err := ReplayBytes(size, moves)
		if (g == nil) != (err != nil) || g != nil && (!slices.Equal(h.Moves(), g.Moves()) || h.Position() != g.Position()) {
			t.Fatalf("ReplayBytes(%d, %x) = %v, %v; Replay gives %v", size, moves, h, err, g)
		}
	})
}
