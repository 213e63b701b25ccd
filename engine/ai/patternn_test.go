package ai

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/reversibot/reversi/engine"
)

// largeSizes are the sizes the large-board patterns read.
var largeSizes = []int{10, 12, 14, 16}

// randomBoardN returns two disjoint random sets inside an n×n board.
func randomBoardN(rng *rand.Rand, n int) (setN, setN) {
	var p, o setN
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			switch rng.IntN(3) {
			case 1:
				p = p.with(idx(c, r))
			case 2:
				o = o.with(idx(c, r))
			}
		}
	}
	return p, o
}

// naiveInstanceSquares lists, square by square, where instance number s of a pattern lies on
// an n×n board: from the corner in the last row if s&1, in the last column if s&2, the
// pattern's rows running along the corner's edge row (s < 4) or its edge column (s ≥ 4).
func naiveInstanceSquares(n, kind, s int) []int {
	r0, dr := 0, 1
	if s&1 != 0 {
		r0, dr = n-1, -1
	}
	c0, dc := 0, 1
	if s&2 != 0 {
		c0, dc = n-1, -1
	}
	var out []int
	for _, q := range patternNShape[kind] {
		a, b := q[0], q[1] // a lines away from the edge, b squares along it
		if s >= 4 {
			out = append(out, idx(c0+dc*a, r0+dr*b))
		} else {
			out = append(out, idx(c0+dc*b, r0+dr*a))
		}
	}
	return out
}

// naiveIndexesN reads every instance of (p, o) square by square, in the order the layout
// promises: kinds in table order, instances by symmetry.
func naiveIndexesN(n int, p, o setN) []int32 {
	var out []int32
	for k := 0; k < numPatternsN; k++ {
		for s := 0; s < patternNSyms[k]; s++ {
			x, d := 0, 1
			for _, sq := range naiveInstanceSquares(n, k, s) {
				switch {
				case p.has(sq):
					x += d
				case o.has(sq):
					x += 2 * d
				}
				d *= 3
			}
			out = append(out, int32(patternNOffset[k]+x))
		}
	}
	return out
}

// TestPatternNIndexes compares the layout's index computation with a square-by-square reading
// of every instance, on every large size.
func TestPatternNIndexes(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	var buf [64]int32
	for _, n := range largeSizes {
		for i := 0; i < 300; i++ {
			p, o := randomBoardN(rng, n)
			got, want := patternNGeoms[n].indexes(p, o, &buf), naiveIndexesN(n, p, o)
			if len(got) != len(want) || len(got) != instancesN {
				t.Fatalf("%d×%d: %d instances, want %d (instancesN %d)", n, n, len(got), len(want), instancesN)
			}
			for j := range got {
				if got[j] != want[j] {
					t.Fatalf("%d×%d p=%x o=%x: instance %d index %d, want %d", n, n, p, o, j, got[j], want[j])
				}
			}
		}
	}
}

// randomPatternWeightsN returns weights of size n with every entry random in ±r, mirrored
// indexes alike (as the fit makes them).
func randomPatternWeightsN(t testing.TB, rng *rand.Rand, n, r int) *PatternWeightsN {
	w, err := NewPatternWeightsN(n)
	if err != nil {
		t.Fatal(err)
	}
	for k := range w.Phase {
		for i := range w.Phase[k] {
			if c := patternNCanon[i]; int(c) < i {
				w.Phase[k][i] = w.Phase[k][c]
				continue
			}
			w.Phase[k][i] = int16(rng.IntN(2*r+1) - r)
		}
	}
	return w
}

// transformN applies symmetry s (bit 0 rows, bit 1 columns, s ≥ 4 the diagonal first) to a
// set of an n×n board, square by square.
func transformN(n, s int, x setN) setN {
	var y setN
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			if !x.has(idx(c, r)) {
				continue
			}
			rr, cc := r, c
			if s >= 4 {
				rr, cc = cc, rr
			}
			if s&1 != 0 {
				rr = n - 1 - rr
			}
			if s&2 != 0 {
				cc = n - 1 - cc
			}
			y = y.with(idx(cc, rr))
		}
	}
	return y
}

// TestPatternNEvalSymmetric checks that the evaluation does not change under the eight
// symmetries of the board for any weights that give mirrored indexes the same value.
func TestPatternNEvalSymmetric(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, n := range largeSizes {
		w := randomPatternWeightsN(t, rng, n, 30)
		geo := geoms[n]
		for i := 0; i < 100; i++ {
			p, o := randomBoardN(rng, n)
			want := w.eval(geo, p, o, geo.moves(p, o))
			for s := 1; s < 8; s++ {
				q, r := transformN(n, s, p), transformN(n, s, o)
				if got := w.eval(geo, q, r, geo.moves(q, r)); got != want {
					t.Fatalf("%d×%d symmetry %d of p=%x o=%x: eval %d, want %d", n, n, s, p, o, got, want)
				}
			}
		}
	}
}

func TestPatternWeightsNRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	w := randomPatternWeightsN(t, rng, 12, 1000)
	data, err := w.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var got PatternWeightsN
	if err := got.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if got.Size != 12 {
		t.Errorf("Size = %d, want 12", got.Size)
	}
	for k := range w.Phase {
		for i := range w.Phase[k] {
			if got.Phase[k][i] != w.Phase[k][i] {
				t.Fatalf("phase %d weight %d = %d, want %d", k, i, got.Phase[k][i], w.Phase[k][i])
			}
		}
	}
	badSize := append([]byte(nil), data...)
	badSize[len(patternNMagic)] = 9
	for _, bad := range [][]byte{nil, []byte("RVPN"), data[:len(data)/2], append([]byte("XVPN"), data[4:]...), badSize} {
		if err := got.UnmarshalBinary(bad); !errors.Is(err, ErrPatternFile) {
			t.Errorf("UnmarshalBinary(%d bytes) = %v, want ErrPatternFile", len(bad), err)
		}
	}
	if _, err := NewPatternWeightsN(8); err == nil {
		t.Errorf("NewPatternWeightsN(8) succeeded")
	}
}

// TestFitPatternsNReproducesTarget labels positions of random 16×16 games with known pattern
// weights and checks that the fit finds weights that score them the same.
func TestFitPatternsNReproducesTarget(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	const n = 16
	want := randomPatternWeightsN(t, rng, n, 300)
	geo := geoms[n]
	var samples []PatternSampleN
	for len(samples) < 1200 {
		p := midgame(t, rng, n, 4+rng.IntN(240))
		pl, op := toSetN(p.Discs(p.Side())), toSetN(p.Discs(p.Side().Opponent()))
		samples = append(samples, PatternSampleN{P: pl.words(), O: op.words(), Score: int16(want.eval(geo, pl, op, geo.moves(pl, op)))})
	}
	zero, _ := NewPatternWeightsN(n)
	if rms := PatternRMSN(zero, samples); rms < 5 {
		t.Fatalf("targets too flat for the test to mean anything: rms %.2f discs from zero", rms)
	}
	got, rms, err := FitPatternsN(context.Background(), n, samples, PatternFitConfig{Iterations: 100, Lambda: 1e-3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The stored weights are whole hundredths of a disc, and the disc and edge counts they
	// multiply reach a hundred on 16×16: rounding alone costs a few hundredths.
	if rms > 0.25 {
		t.Errorf("fit rms = %.3f discs, want ≤ 0.25", rms)
	}
	if r := PatternRMSN(got, samples); r > 0.25 {
		t.Errorf("PatternRMSN of the fit = %.3f discs, want ≤ 0.25", r)
	}
}

// TestPatternGameN checks that a large-board game is a function of its seed and number, and
// that the positions near the end carry their exact scores.
func TestPatternGameN(t *testing.T) {
	cfg := DefaultPatternGenConfigN(10)
	cfg.LabelDepth, cfg.ExactEmpties = 1, 8
	a, err := PatternGameN(context.Background(), cfg, 3)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := PatternGameN(context.Background(), cfg, 3)
	c, _ := PatternGameN(context.Background(), cfg, 4)
	if len(a) < 40 || len(a) != len(b) {
		t.Fatalf("game 3 gave %d then %d samples", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("sample %d: %+v, then %+v", i, a[i], b[i])
		}
	}
	if len(c) == len(a) && c[len(c)-1] == a[len(a)-1] && c[10] == a[10] {
		t.Errorf("games 3 and 4 look the same")
	}
	exact := 0
	for _, s := range a {
		p, o := toSetN(s.P), toSetN(s.O)
		if e := 100 - p.count() - o.count(); e > cfg.ExactEmpties || e < 5 {
			continue
		}
		r, err := run(&config{jump: 100, tableBits: 12, mustScore: true, eval: EvalLinear}, positionN(t, 10, p, o))
		if err != nil {
			t.Fatal(err)
		}
		if int(s.Score) != r.Score || !r.Exact {
			t.Errorf("label %d, exact score %d (exact %v)", s.Score, r.Score, r.Exact)
		}
		exact++
	}
	if exact == 0 {
		t.Errorf("no position labelled by an exact solve")
	}
	if _, err := PatternGameN(context.Background(), DefaultPatternGenConfigN(8), 0); err == nil {
		t.Errorf("PatternGameN on 8×8 succeeded")
	}
}

// positionN builds the n×n position with black p to move against white o.
func positionN(t testing.TB, n int, p, o setN) engine.Position {
	t.Helper()
	b := make([]byte, n*n)
	for i := range b {
		sq := idx(i%n, i/n)
		switch {
		case p.has(sq):
			b[i] = 'X'
		case o.has(sq):
			b[i] = 'O'
		default:
			b[i] = '-'
		}
	}
	pos, err := engine.ParseBoard(string(b), engine.Black)
	if err != nil {
		t.Fatal(err)
	}
	return pos
}

// naiveAnchoredN returns, square by square, the discs of p that the edges and corners alone
// hold: a disc stays when, along each of its four lines, it is on the board's border or next
// to a disc that stays, repeated until nothing changes.
func naiveAnchoredN(n int, p setN) setN {
	on := func(c, r int) bool { return c >= 0 && r >= 0 && c < n && r < n }
	var s setN
	for changed := true; changed; {
		changed = false
		for r := 0; r < n; r++ {
			for c := 0; c < n; c++ {
				if !p.has(idx(c, r)) || s.has(idx(c, r)) {
					continue
				}
				held := true
				for _, d := range [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
					a, b := [2]int{c + d[0], r + d[1]}, [2]int{c - d[0], r - d[1]}
					if on(a[0], a[1]) && on(b[0], b[1]) && !s.has(idx(a[0], a[1])) && !s.has(idx(b[0], b[1])) {
						held = false
						break
					}
				}
				if held {
					s, changed = s.with(idx(c, r)), true
				}
			}
		}
	}
	return s
}

// TestPatternNScalars compares the scalar terms with a square-by-square count on every large
// size, on random boards and on positions of random games (where corners are taken and
// anchored discs grow along the edges).
func TestPatternNScalars(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	anchored := 0
	for _, n := range largeSizes {
		geo := geoms[n]
		// nextTo reports whether a square of x touches (c, r).
		nextTo := func(x setN, c, r int) bool {
			for dr := -1; dr <= 1; dr++ {
				for dc := -1; dc <= 1; dc++ {
					cc, rr := c+dc, r+dr
					if (dc != 0 || dr != 0) && cc >= 0 && rr >= 0 && cc < n && rr < n && x.has(idx(cc, rr)) {
						return true
					}
				}
			}
			return false
		}
		for i := 0; i < 200; i++ {
			var p, o setN
			if i%2 == 0 {
				p, o = randomBoardN(rng, n)
			} else {
				pos := midgame(t, rng, n, n*n/2+rng.IntN(n*n/2-4))
				p, o = toSetN(pos.Discs(pos.Side())), toSetN(pos.Discs(pos.Side().Opponent()))
			}
			pm, om := geo.moves(p, o), geo.moves(o, p)
			var want [numScalarsN]int32
			want[scalarNBias] = 1
			empties := 0
			for r := 0; r < n; r++ {
				for c := 0; c < n; c++ {
					sq := idx(c, r)
					sign := int32(0)
					switch {
					case p.has(sq):
						sign = 1
					case o.has(sq):
						sign = -1
					default:
						empties++
						if nextTo(o, c, r) {
							want[scalarNPotMob]++
						}
						if nextTo(p, c, r) {
							want[scalarNPotMob]--
						}
					}
					want[scalarNDiscs] += sign
					if border, corner := c == 0 || r == 0 || c == n-1 || r == n-1, (c == 0 || c == n-1) && (r == 0 || r == n-1); border && !corner {
						want[scalarNEdge] += sign
					}
				}
			}
			want[scalarNMobility] = int32(pm.count() - om.count())
			sp, so := naiveAnchoredN(n, p), naiveAnchoredN(n, o)
			want[scalarNStable] = int32(sp.count() - so.count())
			anchored += sp.count() + so.count()
			want[scalarNParity] = int32(empties%2*2 - 1)
			if got := patternNGeoms[n].scalars(geo, p, o, pm, om); got != want {
				t.Fatalf("%d×%d p=%x o=%x: scalars %v, want %v", n, n, p, o, got, want)
			}
			// The anchored discs are a subset of the stable ones.
			if full := geo.stable(p, o); !sp.andNot(full).empty() {
				t.Fatalf("%d×%d p=%x o=%x: anchored %x outside stable %x", n, n, p, o, sp, full)
			}
		}
	}
	if anchored < 100 {
		t.Errorf("only %d anchored discs in all the boards: the test does not reach the stable term", anchored)
	}
}
