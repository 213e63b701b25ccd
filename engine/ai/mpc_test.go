package ai

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/reversibot/reversi/engine"
)

// TestMPCTableSane checks the embedded Multi-ProbCut tables: every cell the search may use
// was fitted from enough pairs, has a positive spread and a slope near 1 (a shallow search
// predicts a deep one of the same scale), and the midgame buckets that level 6 searches all
// have cells.
func TestMPCTableSane(t *testing.T) {
	for _, n := range []int{8, 10, 12} {
		tab := mpcTableFor(n)
		if tab == nil {
			t.Errorf("%d×%d: no table", n, n)
			continue
		}
		scale := float32(n*n) / 64 // scores grow with the board
		// On the large boards' early buckets a shallow search overstates the deep one more.
		minB, maxB := float32(0.7), float32(1.4)
		if n > 8 {
			minB, maxB = 0.5, 1.5
		}
		used := 0
		for bk := range tab.Cells {
			for d, c := range tab.Cells[bk] {
				if c.N == 0 {
					continue
				}
				if d < mpcMinDepth {
					t.Errorf("%d×%d bucket %d depth %d: a cell below the cut's minimum depth", n, n, bk, d)
				}
				if _, ok := tab.cell(bk, d); !ok {
					continue
				}
				used++
				if !(c.Sigma > 0 && c.Sigma < 1500*scale) || !(c.B > minB && c.B < maxB) || c.A < -500*scale || c.A > 500*scale {
					t.Errorf("%d×%d bucket %d depth %d: implausible cell %+v", n, n, bk, d, c)
				}
			}
		}
		for _, f := range []float64{0.3, 0.45, 0.6, 0.75} {
			e := int(f * float64(n*n))
			for d := mpcMinDepth; d <= 16; d++ {
				if _, ok := tab.cell(mpcBucket(n, e), d); !ok {
					t.Errorf("%d×%d: no usable cell for %d empties at depth %d", n, n, e, d)
				}
			}
		}
		if used == 0 {
			t.Errorf("%d×%d: no usable cell", n, n)
		}
	}
}

// TestMPCCellLookup checks the mapping of deep nodes onto the deepest fitted row of the same
// parity and that shallow nodes are never cut.
func TestMPCCellLookup(t *testing.T) {
	var tab MPCTable
	for d := range tab.Cells[3] {
		tab.Cells[3][d] = MPCCell{A: float32(d), B: 1, Sigma: 100, N: 100}
	}
	tests := []struct {
		d, want int
		ok      bool
	}{{2, 0, false}, {3, 3, true}, {12, 12, true}, {13, 11, true}, {14, 12, true}, {21, 11, true}}
	for _, tc := range tests {
		c, ok := tab.cell(3, tc.d)
		if ok != tc.ok || ok && int(c.A) != tc.want {
			t.Errorf("cell(depth %d) = %+v, %v; want row %d, %v", tc.d, c, ok, tc.want, tc.ok)
		}
	}
	if _, ok := tab.cell(2, 6); ok {
		t.Error("a cell without data is usable")
	}
	// A table fitted to depth 6 only lends its deepest rows of each parity to deeper nodes.
	for d := mpcMinDepth; d <= 6; d++ {
		tab.Cells[5][d] = MPCCell{A: float32(d), B: 1, Sigma: 100, N: 100}
	}
	for d, want := range map[int]int{5: 5, 6: 6, 7: 5, 8: 6, 11: 5, 12: 6, 13: 5, 20: 6} {
		if c, ok := tab.cell(5, d); !ok || int(c.A) != want {
			t.Errorf("table to depth 6: cell(depth %d) = %+v, %v; want row %d", d, c, ok, want)
		}
	}
	for e, want := range map[[2]int]int{{8, 0}: 0, {8, 7}: 0, {8, 8}: 1, {8, 60}: 7, {8, 64}: 7, {16, 31}: 0, {16, 32}: 1, {16, 252}: 7, {10, 12}: 0, {10, 13}: 1} {
		if got := mpcBucket(e[0], e[1]); got != want {
			t.Errorf("mpcBucket(%d, %d) = %d, want %d", e[0], e[1], got, want)
		}
	}
	for _, n := range []int{8, 10, 12, 16} {
		next := 0
		for bk := 0; bk < mpcBuckets; bk++ {
			lo, hi := mpcBucketRange(n, bk)
			if lo != next || mpcBucket(n, lo) != bk || mpcBucket(n, hi) != bk {
				t.Errorf("%d×%d bucket %d: range %d–%d", n, n, bk, lo, hi)
			}
			next = hi + 1
		}
		if next != n*n {
			t.Errorf("%d×%d: the buckets end at %d", n, n, next)
		}
	}
	for d := 0; d < 24; d++ {
		if s := mpcShallow(d); d >= mpcMinDepth && (s < 1 || s >= d || s%2 != d%2) {
			t.Errorf("mpcShallow(%d) = %d", d, s)
		}
	}
}

// mpcPositions returns midgame positions of random games on an n×n board: on 8×8 with
// 14–50 empties, on the large boards from the first tenth to the last third of the game.
func mpcPositions(t testing.TB, n, count int) []engine.Position {
	rng := rand.New(rand.NewPCG(5, 41))
	var pos []engine.Position
	for i := 0; i < count; i++ {
		plies := 10 + (i*7)%37
		if n > 8 {
			sq := n*n - 4
			plies = sq/10 + (i*37)%(sq*2/3-sq/10)
		}
		pos = append(pos, midgame(t, rng, n, plies))
	}
	return pos
}

// searchFixed searches p to depth d with level 6's evaluation and the given table (nil: no
// cut) and threshold.
func searchFixed(t testing.TB, p engine.Position, d int, tab *MPCTable, th float64) Result {
	t.Helper()
	cfg := &config{depth: d, jump: 10, tableBits: 18, mustScore: true, eval: levelEval(EvalDefault, LevelMaster, p.Size()), mpc: tab, mpcT: th}
	r, err := run(cfg, p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestMPCNoCutIsFullWidth checks that a table whose bounds can never be reached (a threshold
// of a million standard deviations) gives exactly the full-width search: same move, score and
// node count, so the cut's plumbing does not disturb the search.
func TestMPCNoCutIsFullWidth(t *testing.T) {
	for _, tc := range []struct{ n, count, depth int }{{8, 12, 7}, {10, 4, 5}, {12, 3, 4}} {
		tab := mpcTableFor(tc.n)
		for i, p := range mpcPositions(t, tc.n, tc.count) {
			off := searchFixed(t, p, tc.depth, nil, 0)
			on := searchFixed(t, p, tc.depth, tab, 1e6)
			if off.Move != on.Move || off.Score != on.Score || off.Nodes != on.Nodes {
				t.Errorf("%d×%d position %d %v: off %v %d (%d nodes), unreachable cut %v %d (%d nodes)", tc.n, tc.n, i, p, off.Move, off.Score, off.Nodes, on.Move, on.Score, on.Nodes)
			}
		}
	}
}

// TestMPCAgreesWithFullWidth searches positions to the same depth with and without the cut:
// the selective search must find the same move on most of them, with fewer nodes in all.
func TestMPCAgreesWithFullWidth(t *testing.T) {
	if testing.Short() {
		t.Skip("searches 40 positions to depth 10 twice, and large boards to depth 6")
	}
	for _, tc := range []struct{ n, count, depth int }{{8, 40, 10}, {10, 12, 7}, {12, 10, 7}} {
		t.Run(fmt.Sprintf("%dx%d", tc.n, tc.n), func(t *testing.T) {
			mpcAgrees(t, tc.n, tc.count, tc.depth)
		})
	}
}

func mpcAgrees(t *testing.T, n, count, depth int) {
	tab := mpcTableFor(n)
	var same, close, total int
	var nodesOff, nodesOn uint64
	var absDiff int
	for _, p := range mpcPositions(t, n, count) {
		if p.Empties() <= depth+10 {
			continue // solved exactly by both
		}
		off := searchFixed(t, p, depth, nil, 0)
		on := searchFixed(t, p, depth, tab, DefaultMPCT)
		total++
		if off.Move == on.Move {
			same++
		}
		d := off.Score - on.Score
		if d < 0 {
			d = -d
		}
		absDiff += d
		if d <= 200*n*n/64 {
			close++
		}
		nodesOff += off.Nodes
		nodesOn += on.Nodes
	}
	t.Logf("%d×%d depth %d, %d positions: same move %d (%.0f%%), score within %d discs %d (%.0f%%), mean |score difference| %.2f discs; nodes %d off, %d on (%.0f%%)",
		n, n, depth, total, same, 100*float64(same)/float64(total), 2*n*n/64, close, 100*float64(close)/float64(total),
		float64(absDiff)/100/float64(total), nodesOff, nodesOn, 100*float64(nodesOn)/float64(nodesOff))
	if same*10 < total*6 {
		t.Errorf("the same move on only %d of %d positions", same, total)
	}
	if nodesOn >= nodesOff {
		t.Errorf("the cut saved no nodes: %d on, %d off", nodesOn, nodesOff)
	}
}

// TestMPCSamplesReproduce checks that MPC data is a function of the configuration and the
// game's number, and that a fit of pairs made by a known linear relation recovers it.
func TestMPCSamplesReproduce(t *testing.T) {
	cfg := MPCGenConfig{Seed: 3, Every: 4, MinEmpties: 20, MaxEmpties: 50, Depth: 4, LabelDepth: 1}
	a, err := MPCGame(context.Background(), cfg, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := MPCGame(context.Background(), cfg, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) == 0 || len(a) != len(b) {
		t.Fatalf("%d and %d samples", len(a), len(b))
	}
	for i := range a {
		if a[i].Empties != b[i].Empties || len(a[i].Scores) != cfg.Depth+1 {
			t.Fatalf("sample %d: %+v vs %+v", i, a[i], b[i])
		}
		for d := range a[i].Scores {
			if a[i].Scores[d] != b[i].Scores[d] {
				t.Fatalf("sample %d differs at depth %d", i, d)
			}
		}
	}

	rng := rand.New(rand.NewPCG(1, 2))
	var smp []MPCSample
	for i := 0; i < 2000; i++ {
		s := MPCSample{Empties: 30, Scores: make([]int16, MPCMaxDepth+1)}
		for d := range s.Scores {
			s.Scores[d] = int16(rng.IntN(4000) - 2000)
		}
		// deep = 50 + 0.9·shallow + noise of σ = 300 at depth 8.
		s.Scores[8] = int16(50 + 0.9*float64(s.Scores[mpcShallow(8)]) + 300*rng.NormFloat64())
		smp = append(smp, s)
	}
	c := FitMPC(8, smp).Cells[mpcBucket(8, 30)][8]
	if c.N != 2000 || c.A < 20 || c.A > 80 || c.B < 0.87 || c.B > 0.93 || c.Sigma < 280 || c.Sigma > 320 {
		t.Errorf("fit of a known relation: %+v, want A ≈ 50, B ≈ 0.9, Sigma ≈ 300", c)
	}
}

// BenchmarkSearch8MPC searches midgame positions to depth 10 with and without the cut.
func BenchmarkSearch8MPC(b *testing.B) {
	pos := mpcPositions(b, 8, 8)
	tab := DefaultMPCTable()
	for _, on := range []bool{false, true} {
		name := "off"
		if on {
			name = "on"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var nodes uint64
			for i := 0; i < b.N; i++ {
				var tp *MPCTable
				if on {
					tp = &tab
				}
				r := searchFixed(b, pos[i%len(pos)], 10, tp, DefaultMPCT)
				nodes += r.Nodes
			}
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
		})
	}
}
