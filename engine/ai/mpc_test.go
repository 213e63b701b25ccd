package ai

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/reversibot/reversi/engine"
)

// TestMPCTableSane checks the embedded Multi-ProbCut table: every cell the search may use was
// fitted from enough pairs, has a positive spread and a slope near 1 (a shallow search
// predicts a deep one of the same scale), and the midgame buckets that level 6 searches
// all have cells.
func TestMPCTableSane(t *testing.T) {
	tab := DefaultMPCTable()
	used := 0
	for bk := range tab.Cells {
		for d, c := range tab.Cells[bk] {
			if c.N == 0 {
				continue
			}
			if d < mpcMinDepth {
				t.Errorf("bucket %d depth %d: a cell below the cut's minimum depth", bk, d)
			}
			if _, ok := tab.cell(bk*mpcBucketWidth, d); !ok {
				continue
			}
			used++
			if !(c.Sigma > 0 && c.Sigma < 1500) || !(c.B > 0.7 && c.B < 1.4) || c.A < -500 || c.A > 500 {
				t.Errorf("bucket %d depth %d: implausible cell %+v", bk, d, c)
			}
		}
	}
	for _, n := range []int{20, 30, 40, 50} {
		for d := mpcMinDepth; d <= 16; d++ {
			if _, ok := tab.cell(n, d); !ok {
				t.Errorf("no usable cell for %d empties at depth %d", n, d)
			}
		}
	}
	if used == 0 {
		t.Fatal("no usable cell")
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
		c, ok := tab.cell(3*mpcBucketWidth+1, tc.d)
		if ok != tc.ok || ok && int(c.A) != tc.want {
			t.Errorf("cell(depth %d) = %+v, %v; want row %d, %v", tc.d, c, ok, tc.want, tc.ok)
		}
	}
	if _, ok := tab.cell(2*mpcBucketWidth, 6); ok {
		t.Error("a cell without data is usable")
	}
	for d := 0; d < 24; d++ {
		if s := mpcShallow(d); d >= mpcMinDepth && (s < 1 || s >= d || s%2 != d%2) {
			t.Errorf("mpcShallow(%d) = %d", d, s)
		}
	}
}

// mpcPositions returns midgame positions of random games, 14–50 empties.
func mpcPositions(t testing.TB, n int) []engine.Position {
	rng := rand.New(rand.NewPCG(5, 41))
	var pos []engine.Position
	for i := 0; i < n; i++ {
		pos = append(pos, midgame(t, rng, 8, 10+(i*7)%37))
	}
	return pos
}

// searchFixed searches p to depth d with the given table (nil: no cut) and threshold.
func searchFixed(t testing.TB, p engine.Position, d int, tab *MPCTable, th float64) Result {
	t.Helper()
	cfg := &config{depth: d, jump: 10, tableBits: 18, mustScore: true, eval: EvalPattern, mpc: tab, mpcT: th}
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
	tab := DefaultMPCTable()
	for i, p := range mpcPositions(t, 12) {
		off := searchFixed(t, p, 7, nil, 0)
		on := searchFixed(t, p, 7, &tab, 1e6)
		if off.Move != on.Move || off.Score != on.Score || off.Nodes != on.Nodes {
			t.Errorf("position %d %v: off %v %d (%d nodes), unreachable cut %v %d (%d nodes)", i, p, off.Move, off.Score, off.Nodes, on.Move, on.Score, on.Nodes)
		}
	}
}

// TestMPCAgreesWithFullWidth searches positions to the same depth with and without the cut:
// the selective search must find the same move on most of them, with fewer nodes in all.
func TestMPCAgreesWithFullWidth(t *testing.T) {
	if testing.Short() {
		t.Skip("searches 40 positions to depth 10 twice")
	}
	tab := DefaultMPCTable()
	const depth = 10
	var same, close, total int
	var nodesOff, nodesOn uint64
	var absDiff int
	for _, p := range mpcPositions(t, 40) {
		if p.Empties() <= depth+10 {
			continue // solved exactly by both
		}
		off := searchFixed(t, p, depth, nil, 0)
		on := searchFixed(t, p, depth, &tab, DefaultMPCT)
		total++
		if off.Move == on.Move {
			same++
		}
		d := off.Score - on.Score
		if d < 0 {
			d = -d
		}
		absDiff += d
		if d <= 200 {
			close++
		}
		nodesOff += off.Nodes
		nodesOn += on.Nodes
	}
	t.Logf("depth %d, %d positions: same move %d (%.0f%%), score within 2 discs %d (%.0f%%), mean |score difference| %.2f discs; nodes %d off, %d on (%.0f%%)",
		depth, total, same, 100*float64(same)/float64(total), close, 100*float64(close)/float64(total),
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
	c := FitMPC(smp).Cells[30/mpcBucketWidth][8]
	if c.N != 2000 || c.A < 20 || c.A > 80 || c.B < 0.87 || c.B > 0.93 || c.Sigma < 280 || c.Sigma > 320 {
		t.Errorf("fit of a known relation: %+v, want A ≈ 50, B ≈ 0.9, Sigma ≈ 300", c)
	}
}

// BenchmarkSearch8MPC searches midgame positions to depth 10 with and without the cut.
func BenchmarkSearch8MPC(b *testing.B) {
	pos := mpcPositions(b, 8)
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
