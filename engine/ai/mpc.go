package ai

import (
	"bytes"
	"context"
	"fmt"
	"go/format"
	"math"
	"math/rand/v2"
)

// Multi-ProbCut (Buro) in the 8×8 midgame search: at a node searched to depth d, a shallow
// search to depth d' = mpcShallow(d) predicts the deep value as a + b·v' with an error of
// standard deviation σ, fitted per (empties bucket, d) from the project's own games
// (mpcTable8, made by `tune mpc`; SELECTIVE.md). When the shallow search proves
// v' ≥ (β + t·σ − a)/b the node is taken to fail high (it returns β), when it proves
// v' ≤ (α − t·σ − a)/b to fail low (α). t sets how often the cut is wrong: a one-sided normal
// tail, about 7% for t = 1.5. The exact solver never cuts this way.

// Bounds of the table: depths mpcMinDepth…MPCMaxDepth are fitted; deeper nodes use the deepest
// fitted row of the same parity. Empty squares are bucketed by mpcBucketWidth.
const (
	mpcMinDepth    = 3
	MPCMaxDepth    = 12
	mpcBucketWidth = 8
	mpcBuckets     = 64 / mpcBucketWidth
)

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

// cell returns the cell for a node with n empty squares searched to depth d, and whether the
// node may be cut.
func (t *MPCTable) cell(n, d int) (MPCCell, bool) {
	if d < mpcMinDepth {
		return MPCCell{}, false
	}
	if d > MPCMaxDepth {
		d = MPCMaxDepth - (MPCMaxDepth-d)&1
	}
	c := t.Cells[min(n/mpcBucketWidth, mpcBuckets-1)][d]
	return c, c.N >= mpcMinPairs && c.B > 0 && c.Sigma > 0
}

// DefaultMPCT is the level-6 cut threshold in standard deviations.
const DefaultMPCT = 1.5

// mpcCut tries the Multi-ProbCut at a node (p, o) with n empties searched to depth with
// window (alpha, beta); it returns the value to return and whether the node was cut.
func (s *searcher8) mpcCut(p, o uint64, n, depth, alpha, beta int) (int, bool) {
	c, ok := s.mpc.cell(n, depth)
	if !ok {
		return 0, false
	}
	ds := mpcShallow(depth)
	a, b, sig := float64(c.A), float64(c.B), float64(c.Sigma)*s.mpcT
	if beta < 64*100 {
		bound := int(math.Ceil((float64(beta) + sig - a) / b))
		if bound < 64*100 {
			v := s.pvs(p, o, ds, bound-1, bound)
			if s.abort {
				return 0, true
			}
			if v >= bound {
				return beta, true
			}
		}
	}
	if alpha > -64*100 {
		bound := int(math.Floor((float64(alpha) - sig - a) / b))
		if bound > -64*100 {
			v := s.pvs(p, o, ds, bound, bound+1)
			if s.abort {
				return 0, true
			}
			if v <= bound {
				return alpha, true
			}
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

// MPCGenConfig describes the data of an MPC fit: positions of self-play games
// (PatternGame, pattern evaluation, labelled at LabelDepth), one in Every taken, with
// MinEmpties…MaxEmpties empty squares, each searched to depths 0…Depth.
type MPCGenConfig struct {
	Seed                   uint64
	Games                  int
	Every                  int
	MinEmpties, MaxEmpties int
	Depth                  int
	LabelDepth             int
}

// DefaultMPCGenConfig is the configuration behind the embedded table (SELECTIVE.md).
var DefaultMPCGenConfig = MPCGenConfig{Seed: 41, Games: 30, Every: 3, MinEmpties: 14, MaxEmpties: 54, Depth: MPCMaxDepth, LabelDepth: 4}

// MPCGame returns the samples of game number g of cfg; the result is a function of cfg and g
// alone (every search is bounded by depth).
func MPCGame(ctx context.Context, cfg MPCGenConfig, g int) ([]MPCSample, error) {
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
		n := popcnt(^(s.P | s.O))
		if n < cfg.MinEmpties || n > cfg.MaxEmpties || n <= cfg.Depth || moves8(s.P, s.O) == 0 || rng.IntN(every) != 0 {
			continue
		}
		c := &config{ctx: ctx, tableBits: 18}
		sr := newSearcher8(c, tables[8])
		smp := MPCSample{Empties: n}
		for d := 0; d <= cfg.Depth; d++ {
			v := sr.pvs(s.P, s.O, d, -infScore, infScore)
			if sr.abort {
				return nil, ctx.Err()
			}
			smp.Scores = append(smp.Scores, int16(v))
		}
		out = append(out, smp)
	}
	return out, nil
}

// FitMPC fits every cell of the table by least squares: for each empties bucket and depth d
// from the pairs (Scores[mpcShallow(d)], Scores[d]).
func FitMPC(samples []MPCSample) MPCTable {
	type acc struct{ n, sx, sy, sxx, sxy, syy float64 }
	var accs [mpcBuckets][MPCMaxDepth + 1]acc
	for _, s := range samples {
		bk := min(s.Empties/mpcBucketWidth, mpcBuckets-1)
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

// GoSource returns t as the Go source of the package's embedded table (mpc_table.go).
func (t *MPCTable) GoSource(note string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by \"tune mpc\"; DO NOT EDIT.\n// %s\n\npackage ai\n\n", note)
	b.WriteString("// mpcTable8 is the fitted Multi-ProbCut table of the 8×8 midgame search (SELECTIVE.md).\n")
	b.WriteString("var mpcTable8 = MPCTable{Cells: [mpcBuckets][MPCMaxDepth + 1]MPCCell{\n")
	for bk := range t.Cells {
		fmt.Fprintf(&b, "\t{ // %d–%d empties\n", bk*mpcBucketWidth, bk*mpcBucketWidth+mpcBucketWidth-1)
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

// DefaultMPCTable returns a copy of the embedded table.
func DefaultMPCTable() MPCTable { return mpcTable8 }
