package ai

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/reversibot/reversi/engine"
)

// nodeClock is a virtual clock for deadline tests: time moves only as the search visits
// positions, perNode for each, so a test can tell how much work a search did after its
// deadline without reading the wall clock.
func nodeClock(start time.Time, perNode time.Duration) func(uint64) time.Time {
	return func(n uint64) time.Time { return start.Add(time.Duration(n) * perNode) }
}

// legal reports whether m is a legal answer in p (engine.Pass only when p must pass).
func legal(p engine.Position, m engine.Square) bool {
	if m == engine.Pass {
		return p.MustPass()
	}
	_, _, err := p.Play(m)
	return err == nil
}

// TestChooseHonoursBudget runs every level under a virtual clock that makes each position
// visited cost perNode, so the searches are far slower than real ones and must stop on their
// deadline: each must answer with a legal move, and the virtual time it took must be within
// the level's budget (the search may overrun its own deadline only by one polling interval).
func TestChooseHonoursBudget(t *testing.T) {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		size, plies int
		perNode     time.Duration
	}{
		{8, 10, 10 * time.Microsecond}, // midgame
		{8, 38, 10 * time.Microsecond}, // 22 empties: level 6 goes for the exact solver
		// 14 empties: exact for levels 4–6. The 8×8 search polls every pollEvery (256) nodes,
		// so the cost of a node times 256 must stay within the smallest margin a level has
		// beyond its deadline (level 4: 15% of 250 ms); 140 µs makes 36 ms.
		{8, 46, 140 * time.Microsecond},
		{16, 60, 400 * time.Microsecond},
	}
	rng := rand.New(rand.NewPCG(5, 5))
	for _, c := range cases {
		p := midgame(t, rng, c.size, c.plies)
		evals := []Eval{EvalLinear}
		if c.size == 8 || c.size == 16 {
			evals = append(evals, EvalPattern)
		}
		for _, ev := range evals {
			for l := MinLevel; l <= MaxLevel; l++ {
				t.Run(fmt.Sprintf("%dx%d/%d-empties/level%d/%v", c.size, c.size, p.Empties(), l, ev), func(t *testing.T) {
					r, err := choose(context.Background(), p, l, nil, nodeClock(base, c.perNode), Options{Eval: ev})
					if err != nil {
						t.Fatal(err)
					}
					if !legal(p, r.Move) {
						t.Fatalf("move %v is not legal in %v", r.Move, p)
					}
					if l == LevelBeginner {
						return
					}
					budget := l.Budget(c.size)
					if r.Time > budget {
						t.Errorf("took %v of virtual time (%d nodes), budget %v", r.Time, r.Nodes, budget)
					}
					if l == LevelMaster && r.Time < budget/3 && !r.Exact {
						t.Errorf("level 6 gave up after %v of %v without an exact result", r.Time, budget)
					}
					t.Logf("%v depth %d exact %v nodes %d virtual time %v", r.Move, r.Depth, r.Exact, r.Nodes, r.Time)
				})
			}
		}
	}
}

// TestSolverHonoursDeadline starts the exact solver at the root of positions far too hard
// for the deadline: it must stop within one polling interval of the deadline, say that the
// score is not exact, and still return a legal move.
func TestSolverHonoursDeadline(t *testing.T) {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	const perNode = 10 * time.Microsecond
	const limit = 20 * time.Millisecond
	rng := rand.New(rand.NewPCG(6, 6))
	for _, c := range []struct{ size, empties int }{{8, 26}, {8, 20}, {10, 20}} {
		p, ok := randomPosition(rng, c.size, c.empties)
		for !ok || !p.HasMoves() {
			p, ok = randomPosition(rng, c.size, c.empties)
		}
		t.Run(fmt.Sprintf("%dx%d/%d-empties", c.size, c.size, c.empties), func(t *testing.T) {
			cfg := &config{ctx: context.Background(), jump: 64, tableBits: 14, mustScore: true,
				clock: nodeClock(base, perNode), start: base, deadline: base.Add(limit)}
			r, err := run(cfg, p)
			if err != nil {
				t.Fatal(err)
			}
			if r.Exact {
				t.Fatalf("solved exactly in %d nodes; the test needs a harder position", r.Nodes)
			}
			every := pollEvery
			if c.size != 8 {
				every = pollEveryN
			}
			if max := limit + time.Duration(every+1)*perNode; r.Time > max {
				t.Errorf("stopped after %v (%d nodes), want at most %v", r.Time, r.Nodes, max)
			}
			if !legal(p, r.Move) {
				t.Errorf("move %v is not legal in %v", r.Move, p)
			}
		})
	}
}

// TestProbableKeepsSelectiveSolve cuts the exact root iteration of a 20-empty solve two
// polling intervals before its end: with probable set (level 6) the answer is the selective
// solve's, which searched to the end of the game (Depth = empties) but is not exact; without
// it, the answer falls back to the last midgame iteration.
func TestProbableKeepsSelectiveSolve(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	p, ok := randomPosition(rng, 8, 20)
	for !ok || !p.HasMoves() {
		p, ok = randomPosition(rng, 8, 20)
	}
	full, err := run(&config{ctx: context.Background(), jump: 10, tableBits: 16, mustScore: true}, p)
	if err != nil || !full.Exact {
		t.Fatalf("unlimited search: %+v, %v", full, err)
	}
	for _, probable := range []bool{false, true} {
		cfg := &config{ctx: context.Background(), jump: 10, tableBits: 16, mustScore: true, nodes: full.Nodes - 2*pollEvery, probable: probable}
		r, err := run(cfg, p)
		if err != nil {
			t.Fatal(err)
		}
		if r.Exact || !legal(p, r.Move) {
			t.Fatalf("probable=%v: %+v, want a legal move and no exact score", probable, r)
		}
		switch {
		case probable && r.Depth != p.Empties():
			t.Errorf("probable: depth %d, want the selective solve's %d", r.Depth, p.Empties())
		case probable && (r.Score%100 != 0 || absInt(r.Score-full.Score) > 1600):
			t.Errorf("probable: score %d, want a whole disc count near the exact %d", r.Score, full.Score)
		case !probable && r.Depth >= p.Empties():
			t.Errorf("without probable: depth %d, want a midgame depth", r.Depth)
		}
		t.Logf("probable=%v: %v score %d depth %d (exact %v %d, %d nodes)", probable, r.Move, r.Score, r.Depth, full.Move, full.Score, full.Nodes)
	}
}
