package ai

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/reversibot/reversi/engine"
)

// Errors of the game review; test them with errors.Is.
var (
	// ErrReviewNoMoves is returned by NewReview for a nil game or one in which no disc was
	// placed, and by the methods of a Review not made by NewReview.
	ErrReviewNoMoves = errors.New("ai: review: the game has no moves")
	// ErrReviewStep is returned by Review.Step for a step number outside 0…Steps()-1.
	ErrReviewStep = errors.New("ai: review: no such step")
	// ErrReviewNotDone is returned by Review.Result while some step has not finished.
	ErrReviewNotDone = errors.New("ai: review: not every step is done")
	// ErrReviewOptions is returned by NewReview for a negative Depth.
	ErrReviewOptions = errors.New("ai: review: invalid options")
)

// ReviewOptions sets how deep a review looks; a zero field takes the default of the board
// size, chosen so that a review keeps within the times EstimateReview states:
//
//	size        4   6   8   10   12   14   16
//	ExactFrom  12  18  20   16   16   16   16
//	Depth      10  10  10    7    6    5    5
//	Nodes       –   –   –   1M   1M   1M   1M
type ReviewOptions struct {
	// ExactFrom: positions with at most this many empty squares are solved exactly (Solve);
	// a negative value solves nothing.
	ExactFrom int
	// Depth is the depth in plies of the fixed midgame search of the other positions (at
	// least 2).
	Depth int
	// Nodes, when positive, caps the midgame search of the position before a move: a search
	// stopped by it is done again, uncapped, to the depth it finished, the played move one
	// ply less.
	Nodes uint64
}

// Review is the plan and the partial results of one game's review: one step for every disc
// placed, plus one for the last position when the game stopped before its end inside the
// exact range. Steps are independent of each other and may run in any order, concurrently
// from several goroutines (on different steps), be cancelled and run again; Result puts
// their outcomes together. The zero Review has no steps: Step fails with ErrReviewStep and
// Result with ErrReviewNoMoves.
type Review struct {
	size  int
	opt   ReviewOptions // resolved: no zero field stands for a default any more
	plan  []reviewStep  // fixed by NewReview
	final engine.Position

	mu   sync.Mutex
	out  []stepOutcome
	done []bool
}

// reviewStep is one position to analyse.
type reviewStep struct {
	pos    engine.Position // the position analysed; its side to move has a legal move
	played engine.Square   // the disc placed from pos; engine.Pass for the tail step
	exact  bool            // solve pos rather than search it to a fixed depth
}

// stepOutcome is what a step found; scores are in hundredths of a disc.
type stepOutcome struct {
	best      engine.Square
	bestScore int // for the side to move of the step's position
	// playedScore is the played move's value for its mover when hasPlayed; an exact step
	// leaves it to the next step's position (see Review.Result).
	playedScore int
	hasPlayed   bool
	exact       bool
	depth       int
}

// NewReview plans the review of g's moves from g's start under opt. It fails with
// ErrReviewNoMoves for a nil game or one without a placed disc, and ErrReviewOptions for a
// negative Depth. The game need not be over (a resigned game is reviewed up to its last move).
func NewReview(g *engine.Game, opt ReviewOptions) (*Review, error) {
	if g == nil || g.Ply() == 0 {
		return nil, ErrReviewNoMoves // also the zero Game, whose Start would panic
	}
	if opt.Depth < 0 {
		return nil, fmt.Errorf("%w: depth %d", ErrReviewOptions, opt.Depth)
	}
	start := g.Start()
	if !engine.ValidSize(start.Size()) {
		return nil, ErrPosition
	}
	r := &Review{size: start.Size(), opt: reviewDefaults(start.Size(), opt)}
	p := start
	for i, m := range g.Moves() {
		if m != engine.Pass {
			r.plan = append(r.plan, reviewStep{pos: p, played: m, exact: r.isExact(p)})
		}
		next, _, err := p.Play(m)
		if err != nil {
			return nil, fmt.Errorf("ai: review: move %d (%v): %w", i+1, m, err)
		}
		p = next
	}
	if len(r.plan) == 0 {
		return nil, ErrReviewNoMoves
	}
	r.final = p
	if r.plan[len(r.plan)-1].exact && !p.GameOver() {
		// The game stopped early inside the exact range: the value of its last move is the
		// exact value of the position it left, which the tail step solves.
		r.plan = append(r.plan, reviewStep{pos: p, played: engine.Pass, exact: true})
	}
	r.out = make([]stepOutcome, len(r.plan))
	r.done = make([]bool, len(r.plan))
	return r, nil
}

// isExact reports whether the review solves p rather than searching it to a fixed depth.
func (r *Review) isExact(p engine.Position) bool {
	return r.opt.ExactFrom > 0 && p.Empties() <= r.opt.ExactFrom
}

// Steps returns the number of steps: the positions to analyse, numbered 0…Steps()-1.
func (r *Review) Steps() int { return len(r.plan) }

// Options returns the options the review uses, defaults filled in (a negative ExactFrom for
// none solved).
func (r *Review) Options() ReviewOptions { return r.opt }

// Step analyses step i with its own search tables. A position with at most ExactFrom empty
// squares is solved (the played move is valued by the solve of the next step's position, or
// of the tail step's); any other is searched to Depth plies for its best move and score and,
// when the disc played differs, the position after it to Depth-1 plies for the played move's
// value. A step already done returns nil at once; a step whose context is done returns the
// context's error, records nothing and may be run again. It fails with ErrReviewStep for an i
// outside 0…Steps()-1. Steps are deterministic: the same game and options give the same
// result whatever the order, the concurrency or the retries. Steps near the start of a game
// are the cheap ones on 8×8; the dearest lie just before the exact range (see EstimateReview).
func (r *Review) Step(ctx context.Context, i int) error {
	if i < 0 || i >= len(r.plan) {
		return fmt.Errorf("%w: %d of %d", ErrReviewStep, i, len(r.plan))
	}
	if ctx == nil {
		ctx = context.Background()
	}
	r.mu.Lock()
	done := r.done[i]
	r.mu.Unlock()
	if done {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	out, err := r.analyse(ctx, r.plan[i])
	if err != nil {
		return err
	}
	r.mu.Lock()
	r.out[i], r.done[i] = out, true
	r.mu.Unlock()
	return nil
}

// Done reports whether every step is done (false for a Review without steps).
func (r *Review) Done() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, d := range r.done {
		if !d {
			return false
		}
	}
	return len(r.done) > 0
}

// Remaining returns the numbers of the steps not done yet, in increasing order.
func (r *Review) Remaining() []int {
	r.mu.Lock()
	defer r.mu.Unlock()
	var left []int
	for i, d := range r.done {
		if !d {
			left = append(left, i)
		}
	}
	return left
}
