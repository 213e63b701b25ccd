package ai

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/reversibot/reversi/engine"
)

// TestFitPatternsReproducesTarget labels positions of random games with known pattern
// weights and checks that the fit finds weights that score them the same.
func TestFitPatternsReproducesTarget(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	want := randomPatternWeights(rng, 300)
	var samples []PatternSample
	for len(samples) < 1500 {
		p := midgame(t, rng, 8, 4+rng.IntN(50))
		pl, op, _ := p.Bitboards8()
		samples = append(samples, PatternSample{P: pl, O: op, Score: int16(want.eval(pl, op, moves8(pl, op)))})
	}
	if rms := PatternRMS(NewPatternWeights8(), samples); rms < 5 {
		t.Fatalf("targets too flat for the test to mean anything: rms %.2f discs from zero", rms)
	}
	got, rms, err := FitPatterns8(context.Background(), samples, PatternFitConfig{Iterations: 100, Lambda: 1e-3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rms > 0.1 {
		t.Errorf("fit rms = %.3f discs, want ≤ 0.1", rms)
	}
	if r := PatternRMS(got, samples); r > 0.1 {
		t.Errorf("PatternRMS of the fit = %.3f discs, want ≤ 0.1", r)
	}
}

// TestPatternGame checks that a game is a function of its seed and number, and that the
// positions near the end carry their exact scores.
func TestPatternGame(t *testing.T) {
	cfg := DefaultPatternGenConfig
	cfg.LabelDepth = 2
	a, err := PatternGame(context.Background(), cfg, 3)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := PatternGame(context.Background(), cfg, 3)
	c, _ := PatternGame(context.Background(), cfg, 4)
	if len(a) < 20 || len(a) != len(b) {
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
		if e := popcnt(^(s.P | s.O)); e > cfg.ExactEmpties || e < 8 {
			continue
		}
		p := engine.FromBitboards8(s.P, s.O, engine.Black)
		_, score, err := Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if int(s.Score) != score*100 {
			t.Errorf("%v: label %d, exact score %d", p, s.Score, score)
		}
		exact++
	}
	if exact == 0 {
		t.Errorf("no position labelled by an exact solve")
	}
}
