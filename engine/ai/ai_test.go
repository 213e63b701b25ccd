package ai

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reversibot/reversi/engine"
)

// countdownCtx is a context whose Err turns to Canceled after a fixed number of calls: it
// cancels a search part-way, deterministically, without timers.
type countdownCtx struct {
	context.Context
	left atomic.Int64
}

func newCountdown(n int64) *countdownCtx {
	c := &countdownCtx{Context: context.Background()}
	c.left.Store(n)
	return c
}

func (c *countdownCtx) Err() error {
	if c.left.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

// midgame returns a position reached by random play, plies from the start.
func midgame(t testing.TB, rng *rand.Rand, size, plies int) engine.Position {
	t.Helper()
	for {
		p := engine.MustStart(size)
		for i := 0; i < plies && !p.GameOver(); i++ {
			ms := p.LegalMoves()
			if len(ms) == 0 {
				p, _, _ = p.Play(engine.Pass)
				continue
			}
			p, _, _ = p.Play(ms[rng.IntN(len(ms))])
		}
		if p.HasMoves() {
			return p
		}
	}
}

func TestLevelValid(t *testing.T) {
	for l := Level(-1); l <= 8; l++ {
		if got, want := l.Valid(), l >= 1 && l <= 6; got != want {
			t.Errorf("Level(%d).Valid() = %v, want %v", l, got, want)
		}
	}
	if LevelMaster.String() != "master" || Level(9).String() != "Level(9)" {
		t.Errorf("String: %q, %q", LevelMaster, Level(9))
	}
}

// TestLevelEval checks which evaluation each level plays by default: the patterns on 8×8 and
// at level 6 on the large boards (where a size without weights reads the linear evaluation),
// the linear evaluation below level 6 on the large boards, and an explicit choice always.
func TestLevelEval(t *testing.T) {
	cases := []struct {
		e    Eval
		l    Level
		size int
		want Eval
	}{
		{EvalDefault, LevelBeginner, 8, EvalDefault},
		{EvalDefault, LevelMaster, 8, EvalDefault},
		{EvalDefault, LevelMaster, 16, EvalDefault},
		{EvalDefault, LevelExpert, 16, EvalLinear},
		{EvalDefault, LevelMaster, 10, EvalDefault},
		{EvalDefault, LevelExpert, 12, EvalLinear},
		{EvalLinear, LevelMaster, 16, EvalLinear},
		{EvalPattern, LevelBeginner, 12, EvalPattern},
	}
	for _, c := range cases {
		if got := levelEval(c.e, c.l, c.size); got != c.want {
			t.Errorf("levelEval(%v, %v, %d) = %v, want %v", c.e, c.l, c.size, got, c.want)
		}
	}
}

func TestChooseLegalEverySizeAndLevel(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, size := range []int{4, 6, 8, 10, 12, 14, 16} {
		for l := MinLevel; l <= MaxLevel; l++ {
			if testing.Short() && l >= LevelExpert && size > 8 {
				continue
			}
			p := midgame(t, rng, size, rng.IntN(size*size/2))
			t.Run(fmt.Sprintf("%dx%d/level%d", size, size, l), func(t *testing.T) {
				// Bound the slow levels by nodes so the test stays quick under -race.
				ctx := newCountdown(200)
				m, err := Choose(ctx, p, l, rng)
				if err != nil {
					t.Fatal(err)
				}
				if !p.IsLegal(m) {
					t.Fatalf("Choose(%v, %v) = %v, not legal", p, l, m)
				}
			})
		}
	}
}

func TestChooseErrors(t *testing.T) {
	p := engine.MustStart(8)
	if _, err := Choose(context.Background(), p, 0, nil); !errors.Is(err, ErrLevel) {
		t.Errorf("level 0: %v, want ErrLevel", err)
	}
	if _, err := Choose(context.Background(), engine.Position{}, 3, nil); !errors.Is(err, ErrPosition) {
		t.Errorf("zero position: %v, want ErrPosition", err)
	}
	over, err := engine.ParsePosition("XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX X")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Choose(context.Background(), over, 3, nil); !errors.Is(err, ErrGameOver) || !errors.Is(err, engine.ErrGameOver) {
		t.Errorf("game over: %v, want ErrGameOver", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Choose(ctx, p, 6, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
	// A side without a move passes.
	pass, err := engine.ParsePosition("OOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOX- X")
	if err != nil {
		t.Fatal(err)
	}
	if !pass.MustPass() {
		t.Fatalf("%v: want a position where black must pass", pass)
	}
	for l := MinLevel; l <= MaxLevel; l++ {
		if m, err := Choose(context.Background(), pass, l, nil); err != nil || m != engine.Pass {
			t.Errorf("level %v must pass: %v, %v", l, m, err)
		}
	}
	if m, err := Hint(context.Background(), pass); err != nil || m != engine.Pass {
		t.Errorf("Hint must pass: %v, %v", m, err)
	}
}

// TestCancelMidSearch cancels level 6 part-way through on every size: the answer is still a
// legal move.
func TestCancelMidSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, size := range []int{8, 16} {
		p := midgame(t, rng, size, 12)
		for _, n := range []int64{1, 3, 20} {
			r, err := ChooseResult(newCountdown(n), p, LevelMaster, rng)
			if err != nil {
				t.Fatalf("%dx%d after %d polls: %v", size, size, n, err)
			}
			if !p.IsLegal(r.Move) {
				t.Fatalf("%dx%d after %d polls: %v is not legal", size, size, n, r.Move)
			}
		}
	}
}

// TestReproducible: the same seed gives the same game when time does not cut the search.
func TestReproducible(t *testing.T) {
	play := func(seed uint64) string {
		rng := rand.New(rand.NewPCG(seed, 1))
		g := engine.NewGameFrom(engine.MustStart(8))
		for !g.Over() {
			p := g.Position()
			l := LevelNovice + Level(g.Len()%3) // levels 2, 3, 4
			cfg := levelConfig(l, 8)
			cfg.ctx, cfg.rng = context.Background(), rng
			r, err := run(&cfg, p)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := g.Play(r.Move); err != nil {
				t.Fatal(err)
			}
		}
		return g.Record()
	}
	a, b, c := play(1), play(1), play(2)
	if a != b {
		t.Errorf("same seed, different games:\n%s\n%s", a, b)
	}
	if a == c {
		t.Errorf("different seeds, same game %s", a)
	}
}

// TestConcurrentSearches runs searches of every kind at once (run with -race).
func TestConcurrentSearches(t *testing.T) {
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i), 9))
			size := []int{8, 10, 6, 8}[i%4]
			p := midgame(t, rng, size, 20)
			var m engine.Square
			var err error
			switch i % 3 {
			case 0:
				m, err = Choose(newCountdown(50), p, Level(1+i%6), rng)
			case 1:
				m, err = Hint(newCountdown(50), p)
			default:
				var r Result
				r, err = Search(context.Background(), p, Limits{Depth: 3})
				m = r.Move
			}
			if err == nil && !p.IsLegal(m) {
				err = fmt.Errorf("%v: %v not legal", p, m)
			}
			if err != nil {
				errs <- err
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestSearchLimits(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	p := midgame(t, rng, 8, 10)
	r, err := Search(context.Background(), p, Limits{Depth: 4})
	if err != nil {
		t.Fatal(err)
	}
	if r.Depth != 4 || r.Exact || len(r.PV) == 0 || r.PV[0] != r.Move || !p.IsLegal(r.Move) {
		t.Errorf("Depth 4: %+v", r)
	}
	// The principal variation is a legal line.
	q := p
	for _, m := range r.PV {
		var err error
		if q, _, err = q.Play(m); err != nil {
			t.Fatalf("PV %v: %v", r.PV, err)
		}
	}
	r, err = Search(context.Background(), p, Limits{Nodes: 5000})
	if err != nil {
		t.Fatal(err)
	}
	if r.Nodes > 5000+pollEvery || !p.IsLegal(r.Move) {
		t.Errorf("Nodes 5000: %d nodes, move %v", r.Nodes, r.Move)
	}
}

// TestBeginnerDoesNotThrowGames: with few empties left, level 1 never picks a losing move when a
// move that does not lose exists. Its solves run on a virtual clock (a nanosecond a node), so
// that a slow run (the race detector on a loaded machine) cannot cut them short at the level's
// deadline, after which level 1 may lose by design.
func TestBeginnerDoesNotThrowGames(t *testing.T) {
	clock := nodeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Nanosecond)
	rng := rand.New(rand.NewPCG(11, 12))
	checked := 0
	for checked < 40 {
		p, ok := randomPosition(rng, 8, 4+rng.IntN(5))
		if !ok || !p.HasMoves() {
			continue
		}
		bestNonLosing := false
		for _, m := range p.LegalMoves() {
			q, _, _ := p.Play(m)
			if -minimax(q) >= 0 {
				bestNonLosing = true
			}
		}
		if !bestNonLosing {
			continue
		}
		checked++
		r, err := choose(context.Background(), p, LevelBeginner, rng, clock, Options{})
		if err != nil {
			t.Fatal(err)
		}
		m := r.Move
		q, _, _ := p.Play(m)
		if -minimax(q) < 0 {
			t.Fatalf("%v: beginner plays losing %v", p, m)
		}
	}
}

// TestFlipsAndFeaturesAgree checks the 8×8 fast path against the engine and the generic path.
func TestFlipsAndFeaturesAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	g := geoms[8]
	for i := 0; i < 300; i++ {
		p := midgame(t, rng, 8, rng.IntN(58))
		pl, op, _ := p.Bitboards8()
		if got, want := moves8(pl, op), engine.Moves8(pl, op); got != want {
			t.Fatalf("moves8 %x, want %x", got, want)
		}
		ps, os := toSetN(p.Discs(p.Side())), toSetN(p.Discs(p.Side().Opponent()))
		if got, want := g.moves(ps, os), toSetN(p.Moves()); got != want {
			t.Fatalf("%v: generic moves %v, want %v", p, got, want)
		}
		for sq := 0; sq < 64; sq++ {
			if (pl|op)&(1<<uint(sq)) != 0 {
				continue
			}
			if got, want := flips8(pl, op, sq), engine.Flips8(pl, op, sq); got != want {
				t.Fatalf("%v flips8(%d) = %x, want %x", p, sq, got, want)
			}
			if got, want := g.flips(ps, os, int(toSquare8(sq))), toSetN(p.Flips(toSquare8(sq))); got != want {
				t.Fatalf("%v generic flips(%v) = %v, want %v", p, toSquare8(sq), got, want)
			}
		}
		var f8, fn [numFeatures]int32
		features8(pl, op, moves8(pl, op), moves8(op, pl), &f8)
		g.features(ps, os, g.moves(ps, os), g.moves(os, ps), &fn)
		if f8 != fn {
			t.Fatalf("%v: features8 %v, generic %v", p, f8, fn)
		}
	}
}

// TestStableDiscsNeverFlip plays random games on from random positions and checks that no disc
// counted stable ever changes colour.
func TestStableDiscsNeverFlip(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for _, size := range []int{6, 8, 10} {
		g := geoms[size]
		for i := 0; i < 150; i++ {
			p := midgame(t, rng, size, size*size/2+rng.IntN(size*size/2))
			black, white := toSetN(p.Discs(engine.Black)), toSetN(p.Discs(engine.White))
			sb, sw := g.stableBoth(black, white)
			if sb != g.stable(black, white) || sw != g.stable(white, black) {
				t.Fatalf("%v: stableBoth disagrees with stable", p)
			}
			var solverB, solverW setN // the solver's stronger bound (8×8 only)
			if size == 8 {
				b8, w8 := pack(black), pack(white)
				if pack(sb) != stable8(b8, w8) || pack(sw) != stable8(w8, b8) {
					t.Fatalf("%v: stable8 disagrees with the generic version", p)
				}
				sb8, sw8 := solverStable8(b8, w8), solverStable8(w8, b8)
				if sb8&pack(sb) != pack(sb) || sw8&pack(sw) != pack(sw) {
					t.Fatalf("%v: solverStable8 misses discs stable8 finds", p)
				}
				solverB, solverW = unpack(sb8), unpack(sw8)
			}
			for q := p; !q.GameOver(); {
				ms := q.LegalMoves()
				if len(ms) == 0 {
					q, _, _ = q.Play(engine.Pass)
					continue
				}
				q, _, _ = q.Play(ms[rng.IntN(len(ms))])
				if toSetN(q.Discs(engine.Black)).and(sb) != sb || toSetN(q.Discs(engine.White)).and(sw) != sw {
					t.Fatalf("%v: a stable disc flipped on the way to %v", p, q)
				}
				if toSetN(q.Discs(engine.Black)).and(solverB) != solverB || toSetN(q.Discs(engine.White)).and(solverW) != solverW {
					t.Fatalf("%v: a disc solverStable8 counts stable flipped on the way to %v", p, q)
				}
			}
		}
	}
}

// unpack turns a bitboard into a generic set of an 8×8 board.
func unpack(x uint64) setN {
	var s setN
	for sq := 0; sq < 64; sq++ {
		if x&(1<<uint(sq)) != 0 {
			s = s.with(int(toSquare8(sq)))
		}
	}
	return s
}

// pack turns a generic set of an 8×8 board into a bitboard.
func pack(s setN) uint64 {
	var x uint64
	for sq := 0; sq < 64; sq++ {
		if s.has(int(toSquare8(sq))) {
			x |= 1 << uint(sq)
		}
	}
	return x
}

func TestWeightsEmbedded(t *testing.T) {
	w, err := DefaultWeights()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, s := range w.Sizes {
		seen[s.Size] = true
	}
	for _, n := range tuneSizes {
		if !seen[n] {
			t.Errorf("no weights for %dx%d", n, n)
		}
	}
	if _, err := tablesFor(Weights{}); err == nil {
		t.Error("tablesFor(empty) succeeded")
	}
}

// TestTuneSmoke runs a tiny tuning: it must be reproducible from its seed.
func TestTuneSmoke(t *testing.T) {
	cfg := TuneConfig{Sizes: []int{4}, Games: 20, Rounds: 1, Seed: 5}
	var log1, log2 nopWriter
	a, err := Tune(context.Background(), cfg, &log1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Tune(context.Background(), cfg, &log2)
	if err != nil {
		t.Fatal(err)
	}
	if a.Sizes[0].Phases != b.Sizes[0].Phases {
		t.Error("same seed, different weights")
	}
	if _, err := Tune(context.Background(), TuneConfig{Sizes: []int{5}, Games: 1, Rounds: 1}, &log1); err == nil {
		t.Error("size 5 accepted")
	}
}

type nopWriter struct{}

func (*nopWriter) Write(b []byte) (int, error) { return len(b), nil }
