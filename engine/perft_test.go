package engine

import (
	"slices"
	"testing"
)

// perftStart8 holds the leaf counts of perft from the 8×8 start position, as published by Aart
// Bik, "Perft for Reversi" (2009), https://aartbik.blogspot.com/2009/02/perft-for-reversi.html
// (a pass is a ply; a finished game is one leaf at every deeper depth). perftStart8[d-1] is depth d.
var perftStart8 = []uint64{
	4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, // depths 1–9: tested here
	24571284, 212258800, 1939886636, // depths 10–12: checked with "reversi perft"
}

// testedDepth is the deepest published count the tests check (9), 7 in -short mode.
func testedDepth() int {
	if testing.Short() {
		return 7
	}
	return 9
}

func TestPerftStart8(t *testing.T) {
	p := MustStart(8)
	for d := 1; d <= testedDepth(); d++ {
		if got, want := Perft(p, d), perftStart8[d-1]; got != want {
			t.Errorf("Perft(start 8×8, %d) = %d, want %d", d, got, want)
		}
	}
	if got, want := PerftCounts(p, testedDepth()), perftStart8[:testedDepth()]; !slices.Equal(got, want) {
		t.Errorf("PerftCounts(start 8×8, %d) = %v, want %v", testedDepth(), got, want)
	}
}

// TestPerftGeneric8 runs the multi-word code of the other sizes on the 8×8 start position: the
// published counts prove it, and the differential tests tie it to the other sizes.
func TestPerftGeneric8(t *testing.T) {
	p := MustStart(8)
	me, you := p.Discs(Black), p.Discs(White)
	for d := 1; d <= testedDepth(); d++ {
		if got, want := perftN(8, me, you, movesN(8, me, you), d), perftStart8[d-1]; got != want {
			t.Errorf("perftN(8, start, %d) = %d, want %d", d, got, want)
		}
	}
}

// TestPerftAgainstReference compares Perft with the plain reference on every size, including
// the 4×4 tree down to its end (so finished games and passes are counted as the rules say).
func TestPerftAgainstReference(t *testing.T) {
	depths := map[int]int{4: 14, 6: 6, 8: 5, 10: 5, 12: 4, 14: 4, 16: 4}
	for size := MinSize; size <= MaxSize; size += 2 {
		d := depths[size]
		want := make([]uint64, d)
		for i := range want {
			want[i] = refPerft(refStart(size), i+1)
		}
		p := MustStart(size)
		got := make([]uint64, d)
		for i := range got {
			got[i] = Perft(p, i+1)
		}
		if !slices.Equal(got, want) {
			t.Errorf("Perft(start %d×%d, 1…%d) = %v, reference %v", size, size, d, got, want)
		}
		if c := PerftCounts(p, d); !slices.Equal(c, want) {
			t.Errorf("PerftCounts(start %d×%d, %d) = %v, reference %v", size, size, d, c, want)
		}
	}
}

// TestPerftEdges covers the depths and positions at the edge of the definition.
func TestPerftEdges(t *testing.T) {
	p := MustStart(8)
	if got := Perft(p, 0); got != 1 {
		t.Errorf("Perft(start, 0) = %d, want 1", got)
	}
	if got := Perft(p, -3); got != 1 {
		t.Errorf("Perft(start, -3) = %d, want 1", got)
	}
	if got := PerftCounts(p, 0); got != nil {
		t.Errorf("PerftCounts(start, 0) = %v, want nil", got)
	}
	if got := Perft(Position{}, 3); got != 1 {
		t.Errorf("Perft(Position{}, 3) = %d, want 1", got)
	}
	// A finished game counts one leaf at every depth; so does a full board of another size.
	for _, text := range []string{
		"XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
		"XXXXXXXXXXXXXXXXXXOOOOOOOOOOOOOOOOOO",
		"XXXX-XXXXXXX-XXX",
	} {
		p, err := ParseBoard(text, White)
		if err != nil {
			t.Fatal(err)
		}
		if !p.GameOver() {
			t.Fatalf("%v is not over", p)
		}
		for d := 1; d <= 4; d++ {
			if got := Perft(p, d); got != 1 {
				t.Errorf("Perft(%v, %d) = %d, want 1", p, d, got)
			}
		}
		if got := PerftCounts(p, 4); !slices.Equal(got, []uint64{1, 1, 1, 1}) {
			t.Errorf("PerftCounts(%v, 4) = %v, want [1 1 1 1]", p, got)
		}
	}
	// A side that must pass: the pass is the only move, one leaf at depth 1.
	p, err := ParsePosition("XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXO- O")
	if err != nil {
		t.Fatal(err)
	}
	if !p.MustPass() {
		t.Fatalf("%v: white should have to pass", p)
	}
	if got := PerftCounts(p, 3); !slices.Equal(got, []uint64{1, 1, 1}) {
		t.Errorf("PerftCounts(%v, 3) = %v, want [1 1 1] (pass, h8, end)", p, got)
	}
	if got := Perft(p, 3); got != 1 {
		t.Errorf("Perft(%v, 3) = %d, want 1", p, got)
	}
}
