package ai

import (
	"math/rand/v2"
	"testing"

	"github.com/reversibot/reversi/engine"
)

// passingGame plays a seeded random game on a board of the given size, stopping after at most
// plies discs (all of them when plies <= 0); a move after which the opponent must pass is
// preferred with probability 1/2 each. It reports how many passes the game holds.
func passingGame(t testing.TB, size, plies int, seed uint64) (*engine.Game, int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 11))
	g, err := engine.NewGame(size)
	if err != nil {
		t.Fatal(err)
	}
	passes := 0
	for !g.Over() && (plies <= 0 || g.Ply() < plies) {
		p := g.Position()
		ms := p.LegalMoves()
		pick := ms[rng.IntN(len(ms))]
		for _, m := range ms {
			if q, _, _ := p.Play(m); q.MustPass() && rng.IntN(2) == 0 {
				pick = m
			}
		}
		n := g.Len()
		playMove(t, g, pick)
		passes += g.Len() - n - 1
	}
	return g, passes
}

// leafEval is the search's static evaluation of p for its side to move, which must have a
// legal move (the evaluation the search applies at depth 0).
func leafEval(t testing.TB, p engine.Position) int {
	t.Helper()
	tables, err := tablesForEval(EvalDefault)
	if err != nil {
		t.Fatal(err)
	}
	if pl, op, ok := p.Bitboards8(); ok {
		return eval8(tables[8], pl, op, moves8(pl, op))
	}
	s := newSearcherN(&config{tableBits: 10}, geoms[p.Size()], tables[p.Size()])
	me, you := toSetN(p.Discs(p.Side())), toSetN(p.Discs(p.Side().Opponent()))
	return s.eval(me, you, s.g.moves(me, you))
}

// negamax is the plain reference of the fixed-depth search, in hundredths for the side to
// move: no pruning, no tables; a pass costs no depth, a position with no more empty squares
// than the depth left is solved, and depth 0 is the static evaluation.
func negamax(t testing.TB, p engine.Position, depth int) int {
	switch {
	case p.GameOver():
		return 100 * p.FinalScore()
	case depth >= p.Empties():
		return 100 * minimax(p)
	case !p.HasMoves():
		q, _, _ := p.Play(engine.Pass)
		return -negamax(t, q, depth)
	case depth == 0:
		return leafEval(t, p)
	}
	best := -infScore
	for _, m := range p.LegalMoves() {
		q, _, _ := p.Play(m)
		best = max(best, -negamax(t, q, depth-1))
	}
	return best
}

// positionsBefore returns the position before each placed disc of g and that disc.
func positionsBefore(t testing.TB, g *engine.Game) ([]engine.Position, []engine.Square) {
	t.Helper()
	var ps []engine.Position
	var ms []engine.Square
	p := g.Start()
	for _, m := range g.Moves() {
		if m != engine.Pass {
			ps, ms = append(ps, p), append(ms, m)
		}
		next, _, err := p.Play(m)
		if err != nil {
			t.Fatal(err)
		}
		p = next
	}
	return ps, ms
}

// checkVerdicts compares every verdict of gr with the reference values (for the side to
// move) of the position before the move, before(p), and of the position after it, after(q).
func checkVerdicts(t *testing.T, name string, g *engine.Game, gr GameReview, before, after func(engine.Position) int, exact bool) {
	t.Helper()
	ps, ms := positionsBefore(t, g)
	if len(gr.Moves) != len(ps) || len(gr.Eval) != len(ps) || len(gr.EvalExact) != len(ps) {
		t.Fatalf("%s: %d verdicts, %d evals for %d plies", name, len(gr.Moves), len(gr.Eval), len(ps))
	}
	for k, p := range ps {
		m := gr.Moves[k]
		q, _, _ := p.Play(ms[k])
		best, played := before(p), -after(q) // q's side to move is the opponent, pass or not
		loss := max(0, best-played)
		if m.Played == m.Best {
			loss = 0
		}
		eval := played
		if p.Side() == engine.White {
			eval = -eval
		}
		if m.Ply != k+1 || m.Mover != p.Side() || m.Played != ms[k] || m.BestScore != best ||
			m.PlayedScore != played || m.Loss != loss || m.Exact != exact || gr.Eval[k] != eval || gr.EvalExact[k] != exact {
			t.Errorf("%s: ply %d (%v): %+v, eval %d; want best %d, played %d, loss %d, exact %v, eval %d",
				name, k+1, p, m, gr.Eval[k], best, played, loss, exact, eval)
		}
		if !p.IsLegal(m.Best) {
			t.Errorf("%s: ply %d: best move %v not legal", name, k+1, m.Best)
		}
		if m.Played == m.Best && m.PlayedScore != m.BestScore {
			t.Errorf("%s: ply %d: the best move scores %d and %d", name, k+1, m.PlayedScore, m.BestScore)
		}
	}
	if got, want := gr.Turning, turningPoint(gr.Moves); got != want {
		t.Errorf("%s: Turning %d, want %d", name, got, want)
	}
}

// memoMinimax is minimax remembering the positions it has solved.
type memoMinimax map[engine.Position]int

func (mm memoMinimax) value(p engine.Position) int {
	if v, ok := mm[p]; ok {
		return v
	}
	v := minimax(p)
	mm[p] = v
	return v
}

// TestReviewExactMatchesMinimax reviews 4×4 games (every position solved, passes frequent),
// whole and stopped early, against plain minimax.
func TestReviewExactMatchesMinimax(t *testing.T) {
	passes, mm := 0, memoMinimax{}
	for seed := uint64(1); seed <= 30; seed++ {
		for _, plies := range []int{0, 5, 9} {
			g, n := passingGame(t, 4, plies, seed)
			passes += n
			r, err := NewReview(g, ReviewOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if tail := !g.Over(); r.Steps() != g.Ply()+btoi(tail) {
				t.Errorf("seed %d: %d steps for %d plies (over %v)", seed, r.Steps(), g.Ply(), g.Over())
			}
			gr := reviewAll(t, r)
			solved := func(p engine.Position) int { return 100 * mm.value(p) }
			checkVerdicts(t, g.Record(), g, gr, solved, solved, true)
		}
	}
	if passes == 0 {
		t.Error("no game had a pass")
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestReviewMidgameMatchesNegamax reviews early parts of 6×6, 8×8 and 10×10 games, with
// passes, by the fixed-depth search only, against plain negamax at the same depths: the
// position before the move to depth d, the one after it to d-1.
func TestReviewMidgameMatchesNegamax(t *testing.T) {
	const depth = 3
	for _, c := range []struct{ size, plies, games int }{{6, 28, 30}, {8, 30, 4}, {10, 10, 2}} {
		passes := 0
		for seed := uint64(1); seed <= uint64(c.games); seed++ {
			g, _ := passingGame(t, c.size, c.plies, seed)
			r, err := NewReview(g, ReviewOptions{ExactFrom: -1, Depth: depth})
			if err != nil {
				t.Fatal(err)
			}
			if r.Steps() != g.Ply() {
				t.Errorf("%d steps for %d plies with nothing solved", r.Steps(), g.Ply())
			}
			gr := reviewAll(t, r)
			for k := range gr.Moves {
				if gr.Moves[k].Depth != depth {
					t.Fatalf("size %d seed %d ply %d: depth %d, want %d", c.size, seed, k+1, gr.Moves[k].Depth, depth)
				}
			}
			ps, ms := positionsBefore(t, g)
			for k, p := range ps {
				if q, _, _ := p.Play(ms[k]); q.MustPass() && gr.Moves[k].Played != gr.Moves[k].Best {
					passes++ // the played move's own search starts with a pass
				}
			}
			checkVerdicts(t, g.Record(), g, gr,
				func(p engine.Position) int { return negamax(t, p, depth) },
				func(q engine.Position) int { return negamax(t, q, depth-1) }, false)
		}
		t.Logf("%d×%d: %d moves not the best after which the opponent passes", c.size, c.size, passes)
		if c.size == 6 && passes == 0 {
			t.Errorf("no 6×6 move that is not the best makes the opponent pass")
		}
	}
}

// TestReviewNodeCap: a node cap that stops the search of the position before a move leaves a
// verdict at the depth the search finished, still matching negamax at that depth and one
// less for the played move.
func TestReviewNodeCap(t *testing.T) {
	g, _ := passingGame(t, 8, 16, 5)
	r, err := NewReview(g, ReviewOptions{ExactFrom: -1, Depth: 5, Nodes: 300})
	if err != nil {
		t.Fatal(err)
	}
	gr := reviewAll(t, r)
	ps, ms := positionsBefore(t, g)
	shallow := 0
	for k, p := range ps {
		m := gr.Moves[k]
		if m.Depth < minReviewDepth || m.Depth > 5 {
			t.Fatalf("ply %d: depth %d", k+1, m.Depth)
		}
		if m.Depth < 5 {
			shallow++
		}
		q, _, _ := p.Play(ms[k])
		best, played := negamax(t, p, m.Depth), -negamax(t, q, m.Depth-1)
		if m.BestScore != best || m.PlayedScore != played {
			t.Errorf("ply %d, depth %d: best %d, played %d; want %d, %d", k+1, m.Depth, m.BestScore, m.PlayedScore, best, played)
		}
	}
	if shallow == 0 {
		t.Error("the cap stopped no search")
	}
}
