package ai

import (
	"context"
	"errors"
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"

	"github.com/reversibot/reversi/engine"
)

// reviewAll runs every step of r in order and returns the result.
func reviewAll(t testing.TB, r *Review) GameReview {
	t.Helper()
	for i := 0; i < r.Steps(); i++ {
		if err := r.Step(context.Background(), i); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	gr, err := r.Result()
	if err != nil {
		t.Fatal(err)
	}
	return gr
}

// playMove plays sq in g, then the passes that follow it.
func playMove(t testing.TB, g *engine.Game, sq engine.Square) {
	t.Helper()
	if _, err := g.Play(sq); err != nil {
		t.Fatalf("%v: %v", sq, err)
	}
	for g.Position().MustPass() {
		if _, err := g.Play(engine.Pass); err != nil {
			t.Fatal(err)
		}
	}
}

// openingTo plays seeded random moves on an 8×8 board until at most empties squares are
// empty; ok is false when the game ended first.
func openingTo(t testing.TB, seed uint64, empties int) (g *engine.Game, ok bool) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	g, err := engine.NewGame(8)
	if err != nil {
		t.Fatal(err)
	}
	for g.Position().Empties() > empties {
		if g.Over() {
			return nil, false
		}
		ms := g.Position().LegalMoves()
		playMove(t, g, ms[rng.IntN(len(ms))])
	}
	return g, !g.Over()
}

// finishBest plays the solver's best moves to the end of g.
func finishBest(t testing.TB, g *engine.Game) {
	t.Helper()
	for !g.Over() {
		m, _, err := Solve(context.Background(), g.Position())
		if err != nil {
			t.Fatal(err)
		}
		playMove(t, g, m)
	}
}

// blackScore returns the final score of a finished game for Black, in hundredths.
func blackScore(p engine.Position) int {
	v := 100 * p.FinalScore()
	if p.Side() == engine.White {
		v = -v
	}
	return v
}

// TestReviewAllBestMovesNoLoss reviews games whose last 14 plies are all the solver's moves:
// those plies are exact, lose nothing, score as the best move does, and keep the evaluation
// at the final result; no mistake is reported among them.
func TestReviewAllBestMovesNoLoss(t *testing.T) {
	games, passes := 6, 0
	if raceEnabled {
		games = 3
	}
	for seed := uint64(1); games > 0; seed++ {
		g, ok := openingTo(t, seed, 14)
		if !ok {
			continue
		}
		games--
		from := g.Ply()
		finishBest(t, g)
		for _, m := range g.Moves()[len(g.Moves())-(g.Ply()-from):] {
			if m == engine.Pass {
				passes++
			}
		}
		r, err := NewReview(g, ReviewOptions{ExactFrom: 14, Depth: 2})
		if err != nil {
			t.Fatal(err)
		}
		gr := reviewAll(t, r)
		if len(gr.Moves) != g.Ply() {
			t.Fatalf("seed %d: %d verdicts for %d plies", seed, len(gr.Moves), g.Ply())
		}
		final := blackScore(g.Position())
		for k := from; k < len(gr.Moves); k++ {
			m := gr.Moves[k]
			if !m.Exact || m.Loss != 0 || m.PlayedScore != m.BestScore || m.Ply != k+1 {
				t.Errorf("seed %d: ply %d: %+v, want exact, no loss, played scoring as best", seed, k+1, m)
			}
			if !gr.EvalExact[k] || gr.Eval[k] != final {
				t.Errorf("seed %d: ply %d: eval %d (exact %v), want the final %d", seed, k+1, gr.Eval[k], gr.EvalExact[k], final)
			}
		}
		for _, c := range []engine.Color{engine.Black, engine.White} {
			for _, m := range gr.Mistakes(c, 100) {
				if m.Ply > from {
					t.Errorf("seed %d: mistake %+v among the solver's moves", seed, m)
				}
			}
		}
	}
	t.Logf("%d passes among the solver's moves", passes)
}

// lossCase plays, from a position p with at most 14 empties reached by g, the legal move that
// the solver values least when it is worse than the best (and forces a pass of the opponent
// when mustPass), then the solver's moves to the end. It returns the index of that move
// among the placed discs and the solver's values (for the mover) of p and of the move.
func lossCase(t testing.TB, g *engine.Game, mustPass bool) (k int, best, played int, ok bool) {
	t.Helper()
	p := g.Position()
	_, best, err := Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	worst, pick := best, engine.Pass
	for _, m := range p.LegalMoves() {
		q, _, _ := p.Play(m)
		if mustPass && !q.MustPass() {
			continue
		}
		v := -q.FinalScore()
		if !q.GameOver() {
			_, s, err := Solve(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			v = -s // Solve scores q for its side to move, the opponent, even when it must pass
		}
		if v < worst {
			worst, pick = v, m
		}
	}
	if pick == engine.Pass {
		return 0, 0, 0, false
	}
	k = g.Ply()
	playMove(t, g, pick)
	finishBest(t, g)
	return k, best, worst, true
}

// TestReviewLossEqualsSolver plays a move worse than the best at a position with at most 14
// empties: the reported loss is exactly 100·(Solve(p) − the move's value by Solve of the
// child), also when the move makes the opponent pass.
func TestReviewLossEqualsSolver(t *testing.T) {
	for _, mustPass := range []bool{false, true} {
		found := 0
		for seed := uint64(1); seed < 400 && found < 3; seed++ {
			g, ok := openingTo(t, seed, 14)
			if !ok {
				continue
			}
			if mustPass {
				// Walk on at random to find a move that forces a pass.
				rng := rand.New(rand.NewPCG(seed, 9))
				for !g.Over() && g.Position().Empties() > 4 && !forcesPass(g.Position()) {
					ms := g.Position().LegalMoves()
					playMove(t, g, ms[rng.IntN(len(ms))])
				}
				if g.Over() || !forcesPass(g.Position()) {
					continue
				}
			}
			pos := g.Position()
			k, best, played, ok := lossCase(t, g, mustPass)
			if !ok {
				continue
			}
			found++
			r, err := NewReview(g, ReviewOptions{ExactFrom: 14, Depth: 2})
			if err != nil {
				t.Fatal(err)
			}
			gr := reviewAll(t, r)
			m := gr.Moves[k]
			want := 100 * (best - played)
			if m.Loss != want || m.BestScore != 100*best || m.PlayedScore != 100*played || !m.Exact || m.Mover != pos.Side() {
				t.Errorf("seed %d (pass %v): %+v, want loss %d, best %d, played %d, exact, mover %v", seed, mustPass, m, want, 100*best, 100*played, pos.Side())
			}
			if !pos.IsLegal(m.Best) {
				t.Errorf("seed %d: best move %v is not legal in %v", seed, m.Best, pos)
			}
			if ms := gr.Mistakes(m.Mover, len(gr.Moves)); want >= MistakeThreshold && !containsPly(ms, m.Ply) {
				t.Errorf("seed %d: mistake %+v not among %+v", seed, m, ms)
			}
		}
		if found < 3 {
			t.Fatalf("found %d positions (pass %v), want 3", found, mustPass)
		}
	}
}

// forcesPass reports whether some legal move of p leaves the opponent without a move while
// the game goes on.
func forcesPass(p engine.Position) bool {
	for _, m := range p.LegalMoves() {
		if q, _, _ := p.Play(m); q.MustPass() {
			return true
		}
	}
	return false
}

func containsPly(ms []MoveReview, ply int) bool {
	for _, m := range ms {
		if m.Ply == ply {
			return true
		}
	}
	return false
}

// stepGame is a full 8×8 game from testdata reviewed shallowly, for the tests of the steps.
func stepGame(t testing.TB) *Review {
	t.Helper()
	g := reviewGames(t)[0].game
	r, err := NewReview(g, ReviewOptions{ExactFrom: 12, Depth: 3})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestReviewStepsIndependent runs the steps in order, in reverse, from several goroutines at
// once, and after cancelled attempts (a context cancelled before the step and one that
// cancels in the middle of its search): every way gives the same result.
func TestReviewStepsIndependent(t *testing.T) {
	r := stepGame(t)
	if _, err := r.Result(); !errors.Is(err, ErrReviewNotDone) {
		t.Errorf("Result before the steps: %v, want ErrReviewNotDone", err)
	}
	want := reviewAll(t, r)
	if !r.Done() || len(r.Remaining()) != 0 {
		t.Errorf("Done %v, remaining %v after every step", r.Done(), r.Remaining())
	}

	reverse := stepGame(t)
	for i := reverse.Steps() - 1; i >= 0; i-- {
		if err := reverse.Step(context.Background(), i); err != nil {
			t.Fatal(err)
		}
	}
	check(t, "reverse", reverse, want)

	concurrent := stepGame(t)
	jobs := make(chan int)
	var wg sync.WaitGroup
	errs := make(chan error, concurrent.Steps())
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				errs <- concurrent.Step(context.Background(), i)
				concurrent.Done() // read while others write, for the race detector
			}
		}()
	}
	for i := 0; i < concurrent.Steps(); i++ {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	check(t, "concurrent", concurrent, want)

	retried := stepGame(t)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	midway := 0
	for i := 0; i < retried.Steps(); i++ {
		if err := retried.Step(cancelled, i); !errors.Is(err, context.Canceled) {
			t.Fatalf("step %d with a cancelled context: %v", i, err)
		}
		err := retried.Step(newCountdown(2), i)
		switch {
		case errors.Is(err, context.Canceled):
			midway++
			if !containsInt(retried.Remaining(), i) {
				t.Fatalf("step %d counts as done after it was cancelled", i)
			}
		case err != nil:
			t.Fatalf("step %d: %v", i, err)
		}
	}
	if midway == 0 {
		t.Error("no step was cancelled in the middle of its search")
	}
	if retried.Done() {
		t.Error("Done after cancelled steps")
	}
	for _, i := range retried.Remaining() {
		if err := retried.Step(context.Background(), i); err != nil {
			t.Fatal(err)
		}
	}
	check(t, "retried", retried, want)
	if err := retried.Step(cancelled, 0); err != nil {
		t.Errorf("a step already done, with a cancelled context: %v, want nil", err)
	}
}

func check(t *testing.T, name string, r *Review, want GameReview) {
	t.Helper()
	got, err := r.Result()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: the result differs from the steps run in order", name)
	}
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// TestReviewErrors: no game, no move, bad options and bad step numbers are errors, never
// panics, and so is every method of the zero Review.
func TestReviewErrors(t *testing.T) {
	if _, err := NewReview(nil, ReviewOptions{}); !errors.Is(err, ErrReviewNoMoves) {
		t.Errorf("nil game: %v", err)
	}
	g, _ := engine.NewGame(8)
	if _, err := NewReview(g, ReviewOptions{}); !errors.Is(err, ErrReviewNoMoves) {
		t.Errorf("no moves: %v", err)
	}
	if _, err := NewReview(&engine.Game{}, ReviewOptions{}); err == nil {
		t.Error("the zero Game: no error")
	}
	playMove(t, g, engine.SquareAt(3, 2)) // d3
	if _, err := NewReview(g, ReviewOptions{Depth: -1}); !errors.Is(err, ErrReviewOptions) {
		t.Errorf("negative depth: %v", err)
	}
	r, err := NewReview(g, ReviewOptions{Depth: 2})
	if err != nil {
		t.Fatal(err)
	}
	if r.Steps() != 1 {
		t.Errorf("%d steps for one move, want 1", r.Steps())
	}
	for _, i := range []int{-1, 1, 1 << 40} {
		if err := r.Step(context.Background(), i); !errors.Is(err, ErrReviewStep) {
			t.Errorf("Step(%d): %v", i, err)
		}
	}
	//lint:ignore SA1012 a nil context must not panic
	if err := r.Step(nil, 0); err != nil {
		t.Errorf("Step with a nil context: %v", err)
	}
	var zero Review
	if zero.Steps() != 0 || zero.Done() || zero.Remaining() != nil {
		t.Error("the zero Review has steps")
	}
	if err := zero.Step(context.Background(), 0); !errors.Is(err, ErrReviewStep) {
		t.Errorf("zero Review Step: %v", err)
	}
	if _, err := zero.Result(); !errors.Is(err, ErrReviewNoMoves) {
		t.Errorf("zero Review Result: %v", err)
	}
}

// TestReviewTailStep: a game stopped early inside the exact range gets a step for its last
// position, which values its last move.
func TestReviewTailStep(t *testing.T) {
	g, ok := openingTo(t, 3, 10)
	if !ok {
		t.Fatal("seed 3 ends early")
	}
	r, err := NewReview(g, ReviewOptions{ExactFrom: 12, Depth: 2})
	if err != nil {
		t.Fatal(err)
	}
	if r.Steps() != g.Ply()+1 {
		t.Fatalf("%d steps for %d plies, want a tail step", r.Steps(), g.Ply())
	}
	gr := reviewAll(t, r)
	last := gr.Moves[len(gr.Moves)-1]
	_, v, err := Solve(context.Background(), g.Position())
	if err != nil {
		t.Fatal(err)
	}
	if g.Position().Side() != last.Mover {
		v = -v
	}
	if !last.Exact || last.PlayedScore != 100*v {
		t.Errorf("last move %+v, want exact with played score %d", last, 100*v)
	}
}

// TestMistakes picks by colour and threshold, biggest first, ties in the order played.
func TestMistakes(t *testing.T) {
	b, w := engine.Black, engine.White
	gr := GameReview{Moves: []MoveReview{
		{Ply: 1, Mover: b, Loss: 300},
		{Ply: 2, Mover: w, Loss: 900},
		{Ply: 3, Mover: b, Loss: 199},
		{Ply: 4, Mover: w, Loss: 200},
		{Ply: 5, Mover: b, Loss: 800},
		{Ply: 6, Mover: w, Loss: 900},
		{Ply: 7, Mover: b, Loss: 300},
		{Ply: 8, Mover: w, Loss: 0},
	}}
	plies := func(ms []MoveReview) []int {
		var ps []int
		for _, m := range ms {
			ps = append(ps, m.Ply)
		}
		return ps
	}
	for _, c := range []struct {
		color engine.Color
		n     int
		want  []int
	}{
		{b, 10, []int{5, 1, 7}},
		{b, 2, []int{5, 1}},
		{w, 10, []int{2, 6, 4}},
		{w, 1, []int{2}},
		{w, 0, nil},
		{b, -1, nil},
	} {
		if got := plies(gr.Mistakes(c.color, c.n)); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Mistakes(%v, %d) = plies %v, want %v", c.color, c.n, got, c.want)
		}
	}
	if got := (GameReview{}).Mistakes(b, 3); got != nil {
		t.Errorf("empty review: %v", got)
	}
}

// TestTurningPoint: the loser's last move from a position it did not lose to a lost one.
func TestTurningPoint(t *testing.T) {
	b, w := engine.Black, engine.White
	mv := func(c engine.Color, best, played int) MoveReview {
		return MoveReview{Mover: c, BestScore: best, PlayedScore: played}
	}
	for _, c := range []struct {
		name  string
		moves []MoveReview
		want  int
	}{
		{"no moves", nil, -1},
		{"draw", []MoveReview{mv(b, 100, -100), mv(w, 100, 0)}, -1},
		{"white loses at 1", []MoveReview{mv(b, 0, 0), mv(w, 0, -400), mv(b, 400, 400), mv(w, -400, -400)}, 1},
		{"last crossing counts", []MoveReview{
			mv(b, 0, -300),   // black falls behind...
			mv(w, 300, -200), // ...white gives it back...
			mv(b, 200, 100),
			mv(w, -100, -100),
			mv(b, 100, -600), // ...and black loses it for good
			mv(w, 600, 600),
		}, 4},
		{"loser always behind", []MoveReview{mv(b, -100, -200), mv(w, 200, 200), mv(b, -200, -300), mv(w, 300, 300)}, -1},
		// The search, one ply deeper after the move, may value the winner's move above the
		// position: such a crossing is not the loser's doing.
		{"crossing on the winner's move", []MoveReview{mv(b, 100, 50), mv(w, -50, 30), mv(b, -30, -500)}, -1},
		{"a drawn position lost", []MoveReview{mv(b, 0, 0), mv(w, 0, 0), mv(b, 0, -200)}, 2},
	} {
		if got := turningPoint(c.moves); got != c.want {
			t.Errorf("%s: turning point %d, want %d", c.name, got, c.want)
		}
	}
}

// TestEstimateReview keeps the promised budgets: 30 s for a 60-move 8×8 game, two minutes
// for a full 16×16 one.
func TestEstimateReview(t *testing.T) {
	if d := EstimateReview(8, 60); d <= 0 || d.Seconds() > 30 {
		t.Errorf("8×8, 60 moves: %v", d)
	}
	if d := EstimateReview(16, 252); d <= 0 || d.Minutes() > 2 {
		t.Errorf("16×16, 252 moves: %v", d)
	}
	for _, size := range []int{6, 8, 10, 12, 14, 16} {
		prev := EstimateReview(size, 0)
		for moves := 1; moves <= size*size-4; moves++ {
			d := EstimateReview(size, moves)
			if d < prev {
				t.Fatalf("size %d: %d moves %v, %d moves %v", size, moves-1, prev, moves, d)
			}
			prev = d
		}
	}
	if EstimateReview(7, 10) != 0 || EstimateReview(8, -1) != 0 {
		t.Error("an estimate for a bad size or move count")
	}
}
