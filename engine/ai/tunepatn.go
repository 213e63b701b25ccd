package ai

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"

	"github.com/reversibot/reversi/engine"
)

// Training data of the large-board pattern evaluation (see PATTERNS.md): the self-play games
// of PatternGame on 10×10, 12×12 and 16×16, labelled by the generic search.

// PatternSampleN is one training position on a board of any size: the side to move's discs P,
// the opponent's O (laid out like engine.Set) and the target score for the side to move in
// hundredths of a disc.
type PatternSampleN struct {
	P, O  engine.Set
	Score int16
}

// PatternGenConfigN describes the self-play games that make training data on a large board;
// a game is a function of the configuration and its number alone.
type PatternGenConfigN struct {
	Size int
	Seed uint64
	// Eval plays and labels the games; Weights, when not nil, replaces the embedded pattern
	// weights of Size (and implies EvalPattern).
	Eval    Eval
	Weights *PatternWeightsN
	// LabelDepth is the depth of the search that labels and plays positions with more than
	// ExactEmpties empty squares; those with fewer are labelled and played by an exact solve.
	LabelDepth   int
	ExactEmpties int
	// OutcomeShare is the part of a search-labelled position's target that is the game's
	// outcome (the exact score of the first position solved), the rest the search's score.
	OutcomeShare float64
}

// DefaultPatternGenConfigN returns the configuration of the first round of games on an n×n
// board: labels by a depth-4 search of the linear evaluation, exact from 12 empties.
func DefaultPatternGenConfigN(n int) PatternGenConfigN {
	return PatternGenConfigN{Size: n, Seed: 31, Eval: EvalLinear, LabelDepth: 4, ExactEmpties: 12, OutcomeShare: 0.5}
}

// PatternGameN plays game number g of cfg and returns its labelled positions, as PatternGame
// does on 8×8: 2 to n+7 random plies, then the labelling search's moves (at random among
// those within half a disc of the best), one in twenty random; from ExactEmpties on, perfect
// moves but for one in five, random.
func PatternGameN(ctx context.Context, cfg PatternGenConfigN, g int) ([]PatternSampleN, error) {
	n := cfg.Size
	if !engine.ValidSize(n) || n <= 8 {
		return nil, fmt.Errorf("ai: PatternGameN: size %d is not a large board", n)
	}
	var tables *[17]*evalTable
	if cfg.Weights != nil {
		t, err := tablesForEval(EvalLinear)
		if err != nil {
			return nil, err
		}
		tn := *t[n]
		tn.patN = cfg.Weights
		t[n] = &tn
		tables = &t
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, uint64(n)<<32|uint64(g)))
	p := engine.MustStart(n)
	randomPlies := 2 + rng.IntN(n+6)
	type rec struct {
		s     PatternSampleN
		side  engine.Color
		exact bool
	}
	var recs []rec
	var outcome int // for black
	haveOutcome := false
	for ply := 0; !p.GameOver(); ply++ {
		if !p.HasMoves() {
			p, _, _ = p.Play(engine.Pass)
			continue
		}
		ms := p.LegalMoves()
		exact := p.Empties() <= cfg.ExactEmpties
		var r Result
		if ply >= randomPlies || exact {
			cfg1 := &config{ctx: ctx, tableBits: 16, mustScore: true, eval: cfg.Eval, tables: tables}
			if exact {
				cfg1.jump = n * n
			} else {
				cfg1.depth, cfg1.margin, cfg1.rng = cfg.LabelDepth, 50, rng
			}
			var err error
			if r, err = run(cfg1, p); err != nil {
				return nil, err
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if exact && !haveOutcome {
				outcome, haveOutcome = r.Score, true
				if p.Side() == engine.White {
					outcome = -outcome
				}
			}
			recs = append(recs, rec{s: PatternSampleN{P: p.Discs(p.Side()), O: p.Discs(p.Side().Opponent()), Score: int16(r.Score)},
				side: p.Side(), exact: exact})
		}
		mv := r.Move
		switch {
		case ply < randomPlies && !exact, !exact && rng.IntN(20) == 0, exact && rng.IntN(5) == 0:
			mv = ms[rng.IntN(len(ms))]
		}
		p, _, _ = p.Play(mv)
	}
	if !haveOutcome {
		outcome = p.FinalScore() * 100
		if p.Side() == engine.White {
			outcome = -outcome
		}
	}
	out := make([]PatternSampleN, len(recs))
	for i, r := range recs {
		s := r.s
		if !r.exact {
			o := outcome
			if r.side == engine.White {
				o = -o
			}
			s.Score = int16(math.Round((1-cfg.OutcomeShare)*float64(s.Score) + cfg.OutcomeShare*float64(o)))
		}
		out[i] = s
	}
	return out, nil
}

// patternRowN is a large-board sample ready for the fit: its phase, the canonical indexes of
// its instances, its scalar terms and its target in discs.
type patternRowN struct {
	phase int
	idx   [64]int32
	sc    [numScalarsN]float64
	y     float64
}

func newPatternRowN(n int, s PatternSampleN) patternRowN {
	var r patternRowN
	geo := geoms[n]
	p, o := toSetN(s.P), toSetN(s.O)
	r.phase = patternPhaseN(n, n*n-p.count()-o.count())
	for i, x := range patternNGeoms[n].indexes(p, o, &r.idx) {
		r.idx[i] = patternNCanon[x]
	}
	sc := patternNGeoms[n].scalars(geo, p, o, geo.moves(p, o), geo.moves(o, p))
	for i, x := range sc {
		r.sc[i] = float64(x)
	}
	r.y = float64(s.Score) / 100
	return r
}

// FitPatternsN fits the pattern weights of an n×n board to the samples by regularised least
// squares, as FitPatterns8 does on 8×8, and returns them with their root-mean-square error on
// the samples, in discs. Progress goes to log. It fails for a size without large-board
// patterns.
func FitPatternsN(ctx context.Context, n int, samples []PatternSampleN, cfg PatternFitConfig, log io.Writer) (*PatternWeightsN, float64, error) {
	out, err := NewPatternWeightsN(n)
	if err != nil {
		return nil, 0, err
	}
	rows := make([]patternRowN, len(samples))
	f := &phasedFit{phaseLen: patternNPhaseLen, rows: make([]phasedRow, len(samples))}
	for i, s := range samples {
		rows[i] = newPatternRowN(n, s)
		r := &rows[i]
		f.rows[i] = phasedRow{phase: r.phase, idx: r.idx[:instancesN], sc: r.sc[:], y: r.y}
	}
	rms, err := f.solve(ctx, out.Phase[:], patternNCanon, cfg, log)
	if err != nil {
		return nil, 0, err
	}
	return out, rms, nil
}

// PatternRMSN returns the root-mean-square error of w on samples of its size, in discs, as
// the search evaluates (with clamping).
func PatternRMSN(w *PatternWeightsN, samples []PatternSampleN) float64 {
	if len(samples) == 0 {
		return 0
	}
	geo := geoms[w.Size]
	var s float64
	for _, x := range samples {
		p, o := toSetN(x.P), toSetN(x.O)
		d := float64(w.eval(geo, p, o, geo.moves(p, o))-int(x.Score)) / 100
		s += d * d
	}
	return math.Sqrt(s / float64(len(samples)))
}

// LinearRMSN returns the root-mean-square error of the embedded linear evaluation on samples
// of an n×n board, in discs: the yardstick for a large-board pattern fit.
func LinearRMSN(n int, samples []PatternSampleN) (float64, error) {
	tables, err := tablesForEval(EvalLinear)
	if err != nil || len(samples) == 0 {
		return 0, err
	}
	if !engine.ValidSize(n) || n <= 8 {
		return 0, fmt.Errorf("ai: LinearRMSN: size %d is not a large board", n)
	}
	s := newSearcherN(&config{tableBits: 10}, geoms[n], tables[n])
	var sum float64
	for _, x := range samples {
		p, o := toSetN(x.P), toSetN(x.O)
		d := float64(s.eval(p, o, s.g.moves(p, o))-int(x.Score)) / 100
		sum += d * d
	}
	return math.Sqrt(sum / float64(len(samples))), nil
}
