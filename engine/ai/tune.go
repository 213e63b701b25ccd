package ai

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strings"
	"sync"

	"github.com/reversibot/reversi/engine"
)

// TuneConfig describes a reproducible tuning run: self-play games by the current weights,
// then a least-squares fit of the weights to the games' final results, repeated Rounds times.
type TuneConfig struct {
	Sizes  []int  // board sizes to tune; empty means 4, 6, 8, 10, 12 and 16
	Games  int    // games per size and round on 8×8; other sizes scale it down
	Rounds int    // rounds of play-then-fit; the first round plays with SeedWeights
	Seed   uint64 // seed of every random choice
}

// DefaultTuneConfig is the configuration that produced the embedded weights.
var DefaultTuneConfig = TuneConfig{Games: 2400, Rounds: 2, Seed: 20261129}

// SeedWeights returns the weights the first tuning round plays with: a plain starting point
// (corners good, squares next to empty corners bad, mobility and stable discs good, discs
// counting only at the end), which the fit then replaces.
func SeedWeights(size int) SizeWeights {
	sw := SizeWeights{Size: size}
	for k := 0; k < NumPhases; k++ {
		t := float64(k) / (NumPhases - 1)
		sw.Phases[k] = [numFeatures]float64{
			featCorner: 3, featX: -1.5, featC: -0.5, featMobility: 0.5, featPotMob: 0.2,
			featStable: 1, featParity: 0.5 * t, featDiscs: t * t, featEdge: 0.2,
		}
	}
	return sw
}

// tuneSizes are the sizes tuned by default; the others use the nearest.
var tuneSizes = []int{4, 6, 8, 10, 12, 16}

// Tune runs cfg and returns the fitted weights, logging progress to log.
func Tune(ctx context.Context, cfg TuneConfig, log io.Writer) (Weights, error) {
	sizes := cfg.Sizes
	if len(sizes) == 0 {
		sizes = tuneSizes
	}
	out := Weights{Note: fmt.Sprintf("fitted by engine/ai/cmd/tune: games=%d rounds=%d seed=%d; "+
		"least squares of the final disc difference on self-play positions, pulled towards the previous round (weight 200)", cfg.Games, cfg.Rounds, cfg.Seed)}
	for _, n := range sizes {
		if !engine.ValidSize(n) {
			return Weights{}, fmt.Errorf("ai: tune: %w: %d", engine.ErrSize, n)
		}
	}
	// Sizes are independent (each has its own seeded generator), so they run at once and the
	// result does not depend on the schedule.
	results := make([]SizeWeights, len(sizes))
	errs := make([]error, len(sizes))
	logs := make([]strings.Builder, len(sizes))
	var wg sync.WaitGroup
	for i, n := range sizes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = tuneSize(ctx, cfg, n, &logs[i])
		}()
	}
	wg.Wait()
	for i := range sizes {
		io.WriteString(log, logs[i].String())
		if errs[i] != nil {
			return Weights{}, errs[i]
		}
		out.Sizes = append(out.Sizes, results[i])
	}
	return out, nil
}

// tuneSize runs the rounds of one board size.
func tuneSize(ctx context.Context, cfg TuneConfig, n int, log io.Writer) (SizeWeights, error) {
	sw := SeedWeights(n)
	for round := 0; round < cfg.Rounds; round++ {
		rng := rand.New(rand.NewPCG(cfg.Seed, uint64(n*100+round)))
		games := tuneGames(cfg.Games, n)
		fit := newFitter()
		tab := buildTable(n, &sw)
		for g := 0; g < games; g++ {
			if err := ctx.Err(); err != nil {
				return sw, err
			}
			if err := selfPlay(ctx, n, tab, rng, fit); err != nil {
				return sw, err
			}
		}
		w, err := fit.solve(&sw.Phases)
		if err != nil {
			return sw, fmt.Errorf("ai: tune %dx%d: %w", n, n, err)
		}
		fmt.Fprintf(log, "size %d round %d: %d games, %d samples, rms error %.2f discs (weights it played with: %.2f)\n",
			n, round+1, games, fit.samples, fit.rms(w), fit.rms(sw.Phases))
		sw.Phases = w
		sw.Games, sw.Samples = games, fit.samples
	}
	return sw, nil
}

// tuneGames scales the number of games to the board's cost.
func tuneGames(games, n int) int {
	switch {
	case n <= 8:
		return games
	case n <= 10:
		return max(games/4, 1)
	case n <= 12:
		return max(games/8, 1)
	}
	return max(games/16, 1)
}

// selfPlay plays one game with the weights of tab and adds its positions to fit. The first
// plies are random, later moves search shallowly with a little randomness and the endgame is
// played perfectly.
func selfPlay(ctx context.Context, n int, tab *evalTable, rng *rand.Rand, fit *fitter) error {
	var tables [17]*evalTable
	tables[n] = tab
	p := engine.MustStart(n)
	randomPlies := n/2 + rng.IntN(n)
	type sample struct {
		f     [numFeatures]int32
		e     int
		side  engine.Color
		exact int
		known bool
	}
	var samples []sample
	depth := 2
	if n >= 10 {
		depth = 1
	}
	for ply := 0; !p.GameOver(); ply++ {
		if !p.HasMoves() {
			p, _, _ = p.Play(engine.Pass)
			continue
		}
		var s sample
		s.side, s.e = p.Side(), p.Empties()
		featuresOf(p, &s.f)
		var mv engine.Square
		if ply < randomPlies {
			ms := p.LegalMoves()
			mv = ms[rng.IntN(len(ms))]
		} else {
			cfg := &config{ctx: ctx, depth: depth, jump: 10, margin: 50, rng: rng, tableBits: 14, tables: &tables}
			if n != 8 {
				cfg.jump = 6
			}
			r, err := run(cfg, p)
			if err != nil {
				return err
			}
			mv = r.Move
			if r.Exact && cfg.margin == 0 {
				s.exact, s.known = r.Score/100, true
			}
		}
		samples = append(samples, s)
		p, _, _ = p.Play(mv)
	}
	final := p.FinalScore() // for the side to move at the end
	for _, s := range samples {
		y := final
		if s.side != p.Side() {
			y = -final
		}
		if s.known {
			y = s.exact
		}
		fit.add(n, s.e, &s.f, float64(y))
	}
	return nil
}

// featuresOf computes the features of p for the side to move.
func featuresOf(p engine.Position, f *[numFeatures]int32) {
	if pl, op, ok := p.Bitboards8(); ok {
		features8(pl, op, moves8(pl, op), moves8(op, pl), f)
		return
	}
	g := geoms[p.Size()]
	pl, op := toSetN(p.Discs(p.Side())), toSetN(p.Discs(p.Side().Opponent()))
	g.features(pl, op, g.moves(pl, op), g.moves(op, pl), f)
}

const nParams = NumPhases * numFeatures

// fitter accumulates the normal equations of a least-squares fit with phase blending.
type fitter struct {
	a       [nParams][nParams]float64
	b       [nParams]float64
	yy      float64
	samples int
}

func newFitter() *fitter { return &fitter{} }

func (ft *fitter) row(n, e int, f *[numFeatures]int32) [nParams]float64 {
	var x [nParams]float64
	k0, k1, frac := phaseOf(n, e)
	for i := 0; i < numFeatures; i++ {
		x[k0*numFeatures+i] += (1 - frac) * float64(f[i])
		x[k1*numFeatures+i] += frac * float64(f[i])
	}
	return x
}

func (ft *fitter) add(n, e int, f *[numFeatures]int32, y float64) {
	x := ft.row(n, e, f)
	for i := 0; i < nParams; i++ {
		if x[i] == 0 {
			continue
		}
		for j := 0; j < nParams; j++ {
			ft.a[i][j] += x[i] * x[j]
		}
		ft.b[i] += x[i] * y
	}
	ft.yy += y * y
	ft.samples++
}

// priorWeight is how many squared feature units pull each weight towards the previous
// round's value: it steadies weights of features that the games rarely exercise (a corner in
// the opening) while common features follow the data.
const priorWeight = 200

// solve returns the least-squares weights, regularised towards prior.
func (ft *fitter) solve(prior *[NumPhases][numFeatures]float64) ([NumPhases][numFeatures]float64, error) {
	var out [NumPhases][numFeatures]float64
	if ft.samples == 0 {
		return out, fmt.Errorf("no samples")
	}
	var m [nParams][nParams + 1]float64
	for i := 0; i < nParams; i++ {
		for j := 0; j < nParams; j++ {
			m[i][j] = ft.a[i][j]
		}
		m[i][i] += priorWeight
		m[i][nParams] = ft.b[i] + priorWeight*prior[i/numFeatures][i%numFeatures]
	}
	for c := 0; c < nParams; c++ {
		piv := c
		for r := c + 1; r < nParams; r++ {
			if math.Abs(m[r][c]) > math.Abs(m[piv][c]) {
				piv = r
			}
		}
		m[c], m[piv] = m[piv], m[c]
		if m[c][c] == 0 {
			return out, fmt.Errorf("singular system")
		}
		for r := 0; r < nParams; r++ {
			if r == c || m[r][c] == 0 {
				continue
			}
			k := m[r][c] / m[c][c]
			for j := c; j <= nParams; j++ {
				m[r][j] -= k * m[c][j]
			}
		}
	}
	for i := 0; i < nParams; i++ {
		v := m[i][nParams] / m[i][i]
		out[i/numFeatures][i%numFeatures] = math.Round(v*1000) / 1000
	}
	return out, nil
}

// rms is the root-mean-square error of w on the accumulated samples.
func (ft *fitter) rms(w [NumPhases][numFeatures]float64) float64 {
	var x [nParams]float64
	for i := range x {
		x[i] = w[i/numFeatures][i%numFeatures]
	}
	// Σ(y − x·w)² = yy − 2 w·b + wᵀAw
	s := ft.yy
	for i := 0; i < nParams; i++ {
		s -= 2 * x[i] * ft.b[i]
		for j := 0; j < nParams; j++ {
			s += x[i] * ft.a[i][j] * x[j]
		}
	}
	return math.Sqrt(math.Max(s, 0) / float64(ft.samples))
}
