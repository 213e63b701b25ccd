package ai

import (
	"bytes"
	"context"
	"fmt"
	"go/format"
	"math"
	"math/rand/v2"
)

// Multi-ProbCut (Buro) in level 6's midgame search: at a node searched to depth d, a shallow
// search to depth d' = mpcShallow(d) predicts the deep value as a + b·v' with an error of
// standard deviation σ, fitted per (empties bucket, d) from the project's own games, one
// table per board size (mpcTable8, mpcTable10, …, made by `tune mpc`; SELECTIVE.md). When the shallow search proves
// v' ≥ (β + t·σ − a)/b the node is taken to fail high (it returns β), when it proves
// v' ≤ (α − t·σ − a)/b to fail low (α). t sets how often the cut is wrong: a one-sided normal
// tail, about 7% for t = 1.5. The exact solver never cuts this way.

// Bounds of the table: depths mpcMinDepth…MPCMaxDepth may be fitted; deeper nodes, and nodes
// deeper than their table's fitted rows, use the deepest fitted row of the same parity. A
// node's bucket is its fraction of empty squares in eighths (mpcBucket).
const (
	mpcMinDepth = 3
	MPCMaxDepth = 12
	mpcBuckets  = 8
)

// mpcBucket returns the table row of a node with e empty squares on an n×n board: on 8×8 the
// empties divided by 8 (0–7, 8–15, …), on the large boards the same fraction of the board.
func mpcBucket(n, e int) int { return min(max(e, 0)*mpcBuckets/(n*n), mpcBuckets-1) }

// mpcShallow is the depth of the shallow search that predicts a search to depth d: about
// half of it, of the same parity (odd and even depths differ systematically in Othello).
func mpcShallow(d int) int { return d/4*2 + d&1 }

// MPCCell is one fitted relation deep ≈ A + B·shallow (scores in hundredths of a disc) with
// residual standard deviation Sigma, from N pairs; N = 0 marks a cell without data (no cut).
type MPCCell struct {
	A, B, Sigma float32
	N           int32
}

// MPCTable holds the fitted cells by empties bucket and deep depth.
type MPCTable struct {
	Cells [mpcBuckets][MPCMaxDepth + 1]MPCCell
}

// mpcMinPairs is the fewest pairs a cell must be fitted from to be used.
const mpcMinPairs = 30

// cell returns the cell for a node in bucket bk searched to depth d, and whether the node may
// be cut.
func (t *MPCTable) cell(bk, d int) (MPCCell, bool) {
	if d < mpcMinDepth {
		return MPCCell{}, false
	}
	if d > MPCMaxDepth {
		d = MPCMaxDepth - (MPCMaxDepth-d)&1
	}
	row := &t.Cells[bk]
	for d > mpcMinDepth+1 && row[d].N == 0 {
		d -= 2
	}
	c := row[d]
	return c, c.N >= mpcMinPairs && c.B > 0 && c.Sigma > 0
}

// bounds returns the null windows of the shallow searches that cut a node searched with
// window (alpha, beta) on a board of sq squares: the shallow value at or above hi predicts a
// fail high, at or below lo a fail low; okHi and okLo say whether each test is worth making
// (its bound is a reachable score). t is the threshold in standard deviations.
func (c MPCCell) bounds(alpha, beta int, t float64, sq int) (hi int, okHi bool, lo int, okLo bool) {
	a, b, sig := float64(c.A), float64(c.B), float64(c.Sigma)*t
	lim := sq * 100
	if beta < lim {
		hi = int(math.Ceil((float64(beta) + sig - a) / b))
		okHi = hi < lim
	}
	if alpha > -lim {
		lo = int(math.Floor((float64(alpha) - sig - a) / b))
		okLo = lo > -lim
	}
	return hi, okHi, lo, okLo
}

// DefaultMPCT is the level-6 cut threshold in standard deviations.
const DefaultMPCT = 1.5

// mpcCut tries the Multi-ProbCut at a node (p, o) with n empties searched to depth with
// window (alpha, beta); it returns the value to return and whether the node was cut.
func (s *searcher8) mpcCut(p, o uint64, n, depth, alpha, beta int) (int, bool) {
	return s.mpc.cut(mpcBucket(8, n), depth, alpha, beta, s.mpcT, 64, func(d, a, b int) (int, bool) {
		v := s.pvs(p, o, d, a, b)
		return v, s.abort
	})
}

// mpcCut is searcher8.mpcCut on a large board.
func (s *searcherN) mpcCut(p, o setN, n, depth, alpha, beta int) (int, bool) {
	return s.mpc.cut(mpcBucket(s.g.n, n), depth, alpha, beta, s.mpcT, s.g.n*s.g.n, func(d, a, b int) (int, bool) {
		v := s.pvs(p, o, d, a, b)
		return v, s.abort
	})
}

// cut is the Multi-ProbCut test of a node in bucket bk searched to depth with window
// (alpha, beta) on a board of sq squares, threshold th standard deviations: shallow(d, a, b)
// searches the node to depth d with window (a, b) and reports whether the search was
// aborted. It returns the node's value and whether it was cut (an aborted search counts as
// cut; its value is meaningless).
func (t *MPCTable) cut(bk, depth, alpha, beta int, th float64, sq int, shallow func(d, a, b int) (int, bool)) (int, bool) {
	c, ok := t.cell(bk, depth)
	if !ok {
		return 0, false
	}
	ds := mpcShallow(depth)
	hi, okHi, lo, okLo := c.bounds(alpha, beta, th, sq)
	if okHi {
		v, aborted := shallow(ds, hi-1, hi)
		if aborted {
			return 0, true
		}
		if v >= hi {
			return beta, true
		}
	}
	if okLo {
		v, aborted := shallow(ds, lo, lo+1)
		if aborted {
			return 0, true
		}
		if v <= lo {
			return alpha, true
		}
	}
	return 0, false
}

// MPCSample is one position's midgame search values at every depth 0…len(Scores)−1 (full
// window, no selectivity), in hundredths of a disc for the side to move.
type MPCSample struct {
	Empties int
	Scores  []int16
}

// MPCGenConfig describes the data of an MPC fit: positions of self-play games (PatternGame
// on 8×8 with the pattern evaluation, PatternGameN on the large boards with the linear one,
// labelled and played at LabelDepth), one in Every taken, with MinEmpties…MaxEmpties empty
// squares, each searched to depths 0…Depth with the evaluation level 6 plays on that size.
type MPCGenConfig struct {
	Seed                   uint64
	Games                  int
	Every                  int
	MinEmpties, MaxEmpties int
	Depth                  int
	LabelDepth             int
	// Size is the board's; 0 stands for 8.
	Size int
}

// DefaultMPCGenConfig is the configuration behind the embedded 8×8 table (SELECTIVE.md).
var DefaultMPCGenConfig = MPCGenConfig{Seed: 41, Games: 30, Every: 3, MinEmpties: 14, MaxEmpties: 54, Depth: MPCMaxDepth, LabelDepth: 4}

// DefaultMPCGenConfigN returns the configuration behind the embedded table of an n×n board
// (n > 8): shallower searches, since level 6 reaches about 5–9 plies there, and games
// played at depth 2, which only supply positions.
func DefaultMPCGenConfigN(n int) MPCGenConfig {
	return MPCGenConfig{Seed: 43, Games: 12, Every: 8, MinEmpties: 14, MaxEmpties: n*n - 12, Depth: 6, LabelDepth: 2, Size: n}
}

// size returns the board size of cfg.
func (cfg MPCGenConfig) size() int {
	if cfg.Size == 0 {
		return 8
	}
	return cfg.Size
}

// MPCGame returns the samples of game number g of cfg; the result is a function of cfg and g
// alone (every search is bounded by depth).
func MPCGame(ctx context.Context, cfg MPCGenConfig, g int) ([]MPCSample, error) {
	n := cfg.size()
	if n != 8 {
		return mpcGameN(ctx, cfg, g)
	}
	pg := PatternGenConfig{Seed: cfg.Seed, Eval: EvalPattern, LabelDepth: cfg.LabelDepth, ExactEmpties: 12}
	ps, err := PatternGame(ctx, pg, g)
	if err != nil {
		return nil, err
	}
	tables, err := tablesForEval(EvalPattern)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(cfg.Seed^0x6d7063, uint64(g)))
	every := max(cfg.Every, 1)
	var out []MPCSample
	for _, s := range ps {
		e := popcnt(^(s.P | s.O))
		if !cfg.takes(e) || moves8(s.P, s.O) == 0 || rng.IntN(every) != 0 {
			continue
		}
		sr := newSearcher8(&config{ctx: ctx, tableBits: 18}, tables[8])
		smp, ok := cfg.sample(e, func(d int) (int, bool) {
			v := sr.pvs(s.P, s.O, d, -infScore, infScore)
			return v, !sr.abort
		})
		if !ok {
			return nil, ctx.Err()
		}
		out = append(out, smp)
	}
	return out, nil
}

// sample returns the sample of a position with e empty squares, searched by search (full
// window, the value at depth d and whether the search finished) at every depth 0…cfg.Depth;
// false if a search was stopped.
func (cfg MPCGenConfig) sample(e int, search func(d int) (int, bool)) (MPCSample, bool) {
	smp := MPCSample{Empties: e}
	for d := 0; d <= cfg.Depth; d++ {
		v, ok := search(d)
		if !ok {
			return MPCSample{}, false
		}
		smp.Scores = append(smp.Scores, int16(v))
	}
	return smp, true
}

// takes reports whether a position with e empty squares is in the range cfg samples.
func (cfg MPCGenConfig) takes(e int) bool {
	return e >= cfg.MinEmpties && e <= cfg.MaxEmpties && e > cfg.Depth
}

// mpcGameN is MPCGame on a large board.
func mpcGameN(ctx context.Context, cfg MPCGenConfig, g int) ([]MPCSample, error) {
	n := cfg.size()
	pg := PatternGenConfigN{Size: n, Seed: cfg.Seed, Eval: EvalLinear, LabelDepth: cfg.LabelDepth, ExactEmpties: 12}
	ps, err := PatternGameN(ctx, pg, g)
	if err != nil {
		return nil, err
	}
	tables, err := tablesForEval(levelEval(EvalDefault, LevelMaster, n))
	if err != nil {
		return nil, err
	}
	geo := geoms[n]
	rng := rand.New(rand.NewPCG(cfg.Seed^0x6d7063, uint64(n)<<32|uint64(g)))
	every := max(cfg.Every, 1)
	var out []MPCSample
	for _, s := range ps {
		p, o := toSetN(s.P), toSetN(s.O)
		e := n*n - p.count() - o.count()
		if !cfg.takes(e) || geo.moves(p, o).empty() || rng.IntN(every) != 0 {
			continue
		}
		sr := newSearcherN(&config{ctx: ctx, tableBits: 18}, geo, tables[n])
		smp, ok := cfg.sample(e, func(d int) (int, bool) {
			v := sr.pvs(p, o, d, -infScore, infScore)
			return v, !sr.abort
		})
		if !ok {
			return nil, ctx.Err()
		}
		out = append(out, smp)
	}
	return out, nil
}

// FitMPC fits every cell of the table of an n×n board by least squares: for each empties
// bucket and depth d from the pairs (Scores[mpcShallow(d)], Scores[d]).
func FitMPC(n int, samples []MPCSample) MPCTable {
	type acc struct{ n, sx, sy, sxx, sxy, syy float64 }
	var accs [mpcBuckets][MPCMaxDepth + 1]acc
	for _, s := range samples {
		bk := mpcBucket(n, s.Empties)
		for d := mpcMinDepth; d <= MPCMaxDepth && d < len(s.Scores); d++ {
			x, y := float64(s.Scores[mpcShallow(d)]), float64(s.Scores[d])
			a := &accs[bk][d]
			a.n++
			a.sx += x
			a.sy += y
			a.sxx += x * x
			a.sxy += x * y
			a.syy += y * y
		}
	}
	var t MPCTable
	for bk := range accs {
		for d := range accs[bk] {
			a := accs[bk][d]
			if a.n < 3 {
				continue
			}
			vx := a.sxx - a.sx*a.sx/a.n
			if vx <= 0 {
				continue
			}
			b := (a.sxy - a.sx*a.sy/a.n) / vx
			c := (a.sy - b*a.sx) / a.n
			// Residual sum of squares of y − (c + b·x).
			rss := a.syy - c*a.sy - b*a.sxy
			sig := math.Sqrt(max(rss, 0) / (a.n - 2))
			t.Cells[bk][d] = MPCCell{A: float32(c), B: float32(b), Sigma: float32(sig), N: int32(a.n)}
		}
	}
	return t
}

// GoSource returns t, the table of an n×n board, as the Go source of the package's embedded
// table (mpc_table.go for 8×8, mpc_tableN.go for the others).
func (t *MPCTable) GoSource(n int, note string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by \"tune mpc\"; DO NOT EDIT.\n// %s\n\npackage ai\n\n", note)
	fmt.Fprintf(&b, "// mpcTable%d is the fitted Multi-ProbCut table of the %d×%d midgame search (SELECTIVE.md).\n", n, n, n)
	fmt.Fprintf(&b, "var mpcTable%d = MPCTable{Cells: [mpcBuckets][MPCMaxDepth + 1]MPCCell{\n", n)
	for bk := range t.Cells {
		lo, hi := mpcBucketRange(n, bk)
		fmt.Fprintf(&b, "\t{ // %d–%d empties\n", lo, hi)
		for d, c := range t.Cells[bk] {
			if c.N == 0 {
				continue
			}
			fmt.Fprintf(&b, "\t\t%d: {A: %.2f, B: %.4f, Sigma: %.2f, N: %d},\n", d, c.A, c.B, c.Sigma, c.N)
		}
		b.WriteString("\t},\n")
	}
	b.WriteString("}}\n")
	if src, err := format.Source(b.Bytes()); err == nil {
		return src
	}
	return b.Bytes()
}

// mpcBucketRange returns the fewest and most empty squares of bucket bk on an n×n board
// (the last bucket's most is the board's squares less one, as on 8×8 before).
func mpcBucketRange(n, bk int) (lo, hi int) {
	sq := n * n
	lo = (bk*sq + mpcBuckets - 1) / mpcBuckets
	hi = ((bk+1)*sq+mpcBuckets-1)/mpcBuckets - 1
	return lo, hi
}

// mpcTableFor returns the embedded table of level 6 on an n×n board, nil for a size without
// one (the search is then full width). 16×16 has none: at the depths level 6 reaches there
// in its time (6–7), a fitted table saved only 15% of the nodes (SELECTIVE.md).
func mpcTableFor(n int) *MPCTable {
	switch n {
	case 8:
		return &mpcTable8
	case 10:
		return &mpcTable10
	case 12:
		return &mpcTable12
	}
	return nil
}

// DefaultMPCTable returns a copy of the embedded 8×8 table.
func DefaultMPCTable() MPCTable { return mpcTable8 }
