package ai

import (
	"context"
	"io"
	"math"
	"math/rand/v2"

	"github.com/reversibot/reversi/engine"
)

// Training of the 8×8 pattern evaluation (see PATTERNS.md): self-play games whose positions
// are labelled by exact solves near the end and by deeper searches earlier, then a
// regularised least-squares fit of every weight.

// PatternSample is one training position: the side to move's discs P, the opponent's O, and
// the target score for the side to move in hundredths of a disc.
type PatternSample struct {
	P, O  uint64
	Score int16
}

// PatternGenConfig describes the self-play games that make pattern training data; a game is
// a function of the configuration and its number alone.
type PatternGenConfig struct {
	Seed uint64
	// Eval plays and labels the games; Weights, when not nil, replaces the embedded pattern
	// weights (and implies EvalPattern).
	Eval    Eval
	Weights *PatternWeights8
	// LabelDepth is the depth of the search that labels and plays positions with more than
	// ExactEmpties empty squares; those with fewer are labelled and played by an exact solve.
	LabelDepth   int
	ExactEmpties int
	// OutcomeShare is the part of a search-labelled position's target that is the game's
	// outcome (the exact score of the first position solved, or the final score), the rest
	// being the search's score.
	OutcomeShare float64
}

// DefaultPatternGenConfig is the configuration of the first round of games behind the
// embedded weights; PATTERNS.md gives the flags of every round.
var DefaultPatternGenConfig = PatternGenConfig{Seed: 17, Eval: EvalLinear, LabelDepth: 6, ExactEmpties: 14, OutcomeShare: 0.5}

// PatternGame plays game number g of cfg and returns its labelled positions. It opens with
// 2–15 random plies; then each move is the labelling search's (which chooses at random among
// moves within half a disc of the best), and one move in twenty is random, so that the games
// stray into positions that good play avoids; from ExactEmpties on, moves are perfect but
// for one in five, which is random.
func PatternGame(ctx context.Context, cfg PatternGenConfig, g int) ([]PatternSample, error) {
	var tables *[17]*evalTable
	if cfg.Weights != nil {
		t, err := tablesForEval(EvalLinear)
		if err != nil {
			return nil, err
		}
		t8 := *t[8]
		t8.pat = cfg.Weights
		t[8] = &t8
		tables = &t
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, uint64(g)))
	p := engine.MustStart(8)
	randomPlies := 2 + rng.IntN(14)
	type rec struct {
		s     PatternSample
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
		pl, op, _ := p.Bitboards8()
		ms := p.LegalMoves()
		exact := p.Empties() <= cfg.ExactEmpties
		cfg1 := &config{ctx: ctx, tableBits: 16, mustScore: true, eval: cfg.Eval, tables: tables}
		if exact {
			cfg1.jump = 64
		} else {
			cfg1.depth, cfg1.margin, cfg1.rng = cfg.LabelDepth, 50, rng
		}
		r, err := run(cfg1, p)
		if err != nil {
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
		recs = append(recs, rec{s: PatternSample{P: pl, O: op, Score: int16(r.Score)}, side: p.Side(), exact: exact})
		mv := r.Move
		switch {
		case ply < randomPlies, !exact && rng.IntN(20) == 0, exact && rng.IntN(5) == 0:
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
	out := make([]PatternSample, len(recs))
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

// PatternFitConfig describes a fit of the pattern weights.
type PatternFitConfig struct {
	// Iterations of the conjugate-gradient solver.
	Iterations int
	// Lambda pulls every weight towards zero as much as Lambda samples that saw it would:
	// it keeps rarely seen pattern contents from fitting the noise.
	Lambda float64
}

// DefaultPatternFitConfig is the fit behind the embedded weights (λ chosen on held-out games,
// see PATTERNS.md).
var DefaultPatternFitConfig = PatternFitConfig{Iterations: 80, Lambda: 15}

// patternRow is a sample ready for the fit: its phase, the canonical indexes of its
// instances, its scalar terms and its target in discs.
type patternRow struct {
	phase int
	idx   [48]int32
	sc    [numScalars]float64
	y     float64
}

func newPatternRow(s PatternSample) patternRow {
	var r patternRow
	r.phase = patternPhase(popcnt(^(s.P | s.O)))
	for i, x := range patternIndexes8(s.P, s.O, &r.idx) {
		r.idx[i] = patternCanon[x]
	}
	sc := patternScalars8(s.P, s.O, moves8(s.P, s.O), moves8(s.O, s.P))
	for i, x := range sc {
		r.sc[i] = float64(x)
	}
	r.y = float64(s.Score) / 100
	return r
}

// FitPatterns8 fits the pattern weights to the samples by regularised least squares (the
// normal equations solved by conjugate gradients with a diagonal preconditioner) and returns
// them with their root-mean-square error on the samples, in discs. Progress goes to log.
func FitPatterns8(ctx context.Context, samples []PatternSample, cfg PatternFitConfig, log io.Writer) (*PatternWeights8, float64, error) {
	rows := make([]patternRow, len(samples))
	f := &phasedFit{phaseLen: patternPhaseLen, rows: make([]phasedRow, len(samples))}
	for i, s := range samples {
		rows[i] = newPatternRow(s)
		r := &rows[i]
		f.rows[i] = phasedRow{phase: r.phase, idx: r.idx[:instancesPerPosition], sc: r.sc[:], y: r.y}
	}
	out := NewPatternWeights8()
	rms, err := f.solve(ctx, out.Phase[:], patternCanon, cfg, log)
	if err != nil {
		return nil, 0, err
	}
	return out, rms, nil
}

// PatternRMS returns the root-mean-square error of w on samples, in discs, as the search
// evaluates (with clamping).
func PatternRMS(w *PatternWeights8, samples []PatternSample) float64 {
	if len(samples) == 0 {
		return 0
	}
	var s float64
	for _, x := range samples {
		d := float64(w.eval(x.P, x.O, moves8(x.P, x.O))-int(x.Score)) / 100
		s += d * d
	}
	return math.Sqrt(s / float64(len(samples)))
}

// LinearRMS8 returns the root-mean-square error of the embedded linear evaluation on samples,
// in discs: the yardstick for a pattern fit.
func LinearRMS8(samples []PatternSample) (float64, error) {
	tables, err := tablesForEval(EvalLinear)
	if err != nil || len(samples) == 0 {
		return 0, err
	}
	var s float64
	for _, x := range samples {
		d := float64(eval8(tables[8], x.P, x.O, moves8(x.P, x.O))-int(x.Score)) / 100
		s += d * d
	}
	return math.Sqrt(s / float64(len(samples))), nil
}
