package ai

import (
	"errors"
	"math/rand/v2"
	"testing"
)

// sq8 is the bit of (row, col) on 8×8.
func sq8(r, c int) uint64 { return 1 << uint(r*8+c) }

// naiveTransform applies symmetry s of the pattern code to a square: 0 identity, 1 rows
// flipped, 2 columns flipped, 3 both, and 4…7 the same after a mirror in the a1–h8 diagonal.
func naiveTransform(s, r, c int) (int, int) {
	if s&1 != 0 {
		r = 7 - r
	}
	if s&2 != 0 {
		c = 7 - c
	}
	if s >= 4 {
		r, c = c, r
	}
	return r, c
}

// naiveSquares lists the squares of each pattern kind seen from a1, digit by digit.
func naiveSquares(kind int) [][2]int {
	var sq [][2]int
	switch kind {
	case patCorner33:
		for r := 0; r < 3; r++ {
			for c := 0; c < 3; c++ {
				sq = append(sq, [2]int{r, c})
			}
		}
	case patCorner25:
		for r := 0; r < 2; r++ {
			for c := 0; c < 5; c++ {
				sq = append(sq, [2]int{r, c})
			}
		}
	case patEdge2X:
		for c := 0; c < 8; c++ {
			sq = append(sq, [2]int{0, c})
		}
		sq = append(sq, [2]int{1, 1}, [2]int{1, 6})
	case patRow2, patRow3, patRow4:
		for c := 0; c < 8; c++ {
			sq = append(sq, [2]int{kind - patRow2 + 1, c})
		}
	default: // diagonals: diag8 starts at a1, diag7 at b1, …
		start := kind - patDiag8
		for c := start; c < 8; c++ {
			sq = append(sq, [2]int{c - start, c})
		}
	}
	return sq
}

// naiveIndex reads pattern kind under symmetry s of (p, o) square by square.
func naiveIndex(p, o uint64, kind, s int) int32 {
	idx, d := 0, 1
	for _, q := range naiveSquares(kind) {
		r, c := naiveTransform(s, q[0], q[1])
		switch b := sq8(r, c); {
		case p&b != 0:
			idx += d
		case o&b != 0:
			idx += 2 * d
		}
		d *= 3
	}
	return int32(patternOffset[kind] + idx)
}

// naiveIndexes lists every instance in the order patternIndexes8 promises.
func naiveIndexes(p, o uint64) []int32 {
	var out []int32
	for s := 0; s < 4; s++ {
		out = append(out, naiveIndex(p, o, patCorner33, s))
	}
	for s := 0; s < 8; s++ {
		out = append(out, naiveIndex(p, o, patCorner25, s))
	}
	// Edges: rank 1, rank 8, file a, file h.
	for _, s := range []int{0, 1, 4, 5} {
		for k := patEdge2X; k <= patRow4; k++ {
			out = append(out, naiveIndex(p, o, k, s))
		}
	}
	out = append(out, naiveIndex(p, o, patDiag8, 0), naiveIndex(p, o, patDiag8, 2))
	for s := 0; s < 4; s++ {
		for k := patDiag7; k <= patDiag4; k++ {
			out = append(out, naiveIndex(p, o, k, s))
		}
	}
	return out
}

// randomBoard returns two disjoint random bitboards.
func randomBoard(rng *rand.Rand) (uint64, uint64) {
	occ := rng.Uint64() | rng.Uint64()
	p := occ & rng.Uint64()
	return p, occ &^ p
}

func TestFlips(t *testing.T) {
	naive := func(x uint64, f func(r, c int) (int, int)) uint64 {
		var y uint64
		for r := 0; r < 8; r++ {
			for c := 0; c < 8; c++ {
				if x&sq8(r, c) != 0 {
					y |= sq8(f(r, c))
				}
			}
		}
		return y
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 1000; i++ {
		x := rng.Uint64()
		if got, want := flipDiag8(x), naive(x, func(r, c int) (int, int) { return c, r }); got != want {
			t.Fatalf("flipDiag8(%#x) = %#x, want %#x", x, got, want)
		}
		if got, want := flipRows8(x), naive(x, func(r, c int) (int, int) { return 7 - r, c }); got != want {
			t.Fatalf("flipRows8(%#x) = %#x, want %#x", x, got, want)
		}
		if got, want := flipCols8(x), naive(x, func(r, c int) (int, int) { return r, 7 - c }); got != want {
			t.Fatalf("flipCols8(%#x) = %#x, want %#x", x, got, want)
		}
	}
}

// TestPatternIndexes compares the bit-parallel index computation with a square-by-square
// reading of every instance.
func TestPatternIndexes(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var idx [48]int32
	for i := 0; i < 2000; i++ {
		p, o := randomBoard(rng)
		got, want := patternIndexes8(p, o, &idx), naiveIndexes(p, o)
		if len(got) != len(want) || len(got) != instancesPerPosition {
			t.Fatalf("%d instances, want %d (instancesPerPosition %d)", len(got), len(want), instancesPerPosition)
		}
		for j := range got {
			if got[j] != want[j] {
				t.Fatalf("p=%#x o=%#x: instance %d index %d, want %d", p, o, j, got[j], want[j])
			}
		}
	}
}

// randomPatternWeights returns weights with every entry random in ±r, mirrored indexes
// alike (as the fit makes them).
func randomPatternWeights(rng *rand.Rand, r int) *PatternWeights8 {
	w := NewPatternWeights8()
	for k := range w.Phase {
		for i := range w.Phase[k] {
			if c := patternCanon[i]; int(c) < i {
				w.Phase[k][i] = w.Phase[k][c]
				continue
			}
			w.Phase[k][i] = int16(rng.IntN(2*r+1) - r)
		}
	}
	return w
}

// TestPatternEvalSymmetric checks that the evaluation does not change under the eight
// symmetries of the board for any weights that give mirrored indexes the same value: every
// instance of a pattern shares its table, and patternMirror names the right digit orders.
func TestPatternEvalSymmetric(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	w := randomPatternWeights(rng, 30)
	syms := []func(uint64) uint64{
		flipRows8, flipCols8, flipDiag8,
		func(x uint64) uint64 { return flipRows8(flipDiag8(x)) },
		func(x uint64) uint64 { return flipCols8(flipDiag8(x)) },
		func(x uint64) uint64 { return flipRows8(flipCols8(x)) },
		func(x uint64) uint64 { return flipRows8(flipCols8(flipDiag8(x))) },
	}
	for i := 0; i < 500; i++ {
		p, o := randomBoard(rng)
		want := w.eval(p, o, moves8(p, o))
		for j, f := range syms {
			q, r := f(p), f(o)
			if got := w.eval(q, r, moves8(q, r)); got != want {
				t.Fatalf("symmetry %d of p=%#x o=%#x: eval %d, want %d", j, p, o, got, want)
			}
		}
	}
}

func TestPatternWeightsRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	w := randomPatternWeights(rng, 1000)
	data, err := w.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var got PatternWeights8
	if err := got.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	for k := range w.Phase {
		for i := range w.Phase[k] {
			if got.Phase[k][i] != w.Phase[k][i] {
				t.Fatalf("phase %d weight %d = %d, want %d", k, i, got.Phase[k][i], w.Phase[k][i])
			}
		}
	}
	for _, bad := range [][]byte{nil, []byte("RVP8"), data[:len(data)/2], append([]byte("XVP8"), data[4:]...)} {
		if err := got.UnmarshalBinary(bad); !errors.Is(err, ErrPatternFile) {
			t.Errorf("UnmarshalBinary(%d bytes) = %v, want ErrPatternFile", len(bad), err)
		}
	}
}
