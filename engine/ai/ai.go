package ai

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/reversibot/reversi/engine"
)

// Errors returned by the package; test them with errors.Is.
var (
	// ErrLevel is returned for a level outside 1…6.
	ErrLevel = errors.New("ai: level must be 1 to 6")
	// ErrGameOver is returned when asked for a move in a finished game. It wraps
	// engine.ErrGameOver.
	ErrGameOver = fmt.Errorf("ai: %w", engine.ErrGameOver)
	// ErrPosition is returned for a position the engine did not build (the zero Position).
	ErrPosition = errors.New("ai: invalid position")
)

// Result is the outcome of a search.
type Result struct {
	// Move is the chosen move; engine.Pass when the side to move must pass.
	Move engine.Square
	// Score is the value of Move for the side to move in hundredths of a disc. When Exact is
	// true, Score/100 is the exact final disc difference (empty squares to the winner).
	Score int
	// Exact reports whether Score comes from a complete search to the end of the game.
	Exact bool
	// Depth is the depth in plies of the last finished iteration (0 if none finished).
	Depth int
	// Nodes counts the positions visited.
	Nodes uint64
	// PV is the expected line of play, starting with Move (passes included).
	PV []engine.Square
	// Time is the wall-clock time the search took.
	Time time.Duration
	// Book reports that Move came from the opening book (BOOK.md), without a search: Score is
	// then the book's value of the move and Depth, Nodes and Time are zero.
	Book bool
}

// Limits bounds a search; zero fields mean no limit of that kind. A search with no limit at
// all runs until it has solved the position or its context is cancelled.
type Limits struct {
	Depth int           // deepest iteration in plies
	Nodes uint64        // positions to visit before stopping
	Time  time.Duration // hard ceiling on the wall-clock time
}

// config is everything one search needs; it is private to that search.
type config struct {
	ctx        context.Context
	start      time.Time
	deadline   time.Time     // hard: zero for none
	soft       time.Duration // do not start an iteration after this much time
	nodes      uint64
	depth      int // deepest midgame iteration, 0 for none
	jump       int // go to the exact search once depth + jump reaches the empty squares
	exactAfter int // go to the exact search after this midgame depth (0: never early)
	exactAt    int // the midgame search solves nodes with at most this many empties
	margin     int // randomness: choose among moves within margin of the best
	rng        *rand.Rand
	tableBits  int
	mustScore  bool            // search even a forced move, for its score
	tables     *[17]*evalTable // evaluation override (tuning); nil for the embedded weights
	eval       Eval            // the embedded evaluation to use when tables is nil
	// probable makes the answer of the selective solve that precedes an exact root iteration
	// on 8×8 (the pre-search) the search's answer until the exact iteration finishes.
	probable bool
	// mpc, when not nil, makes the midgame search selective (Multi-ProbCut) with a
	// threshold of mpcT standard deviations.
	mpc  *MPCTable
	mpcT float64
	// clock, when set, replaces the wall clock: it returns the time after the search has
	// visited the given number of positions (tests use it as a virtual clock).
	clock func(nodes uint64) time.Time
}

// now returns the search's current time for a searcher that has visited nodes positions.
func (c *config) now(nodes uint64) time.Time {
	if c.clock != nil {
		return c.clock(nodes)
	}
	return time.Now()
}

// control is the part of a searcher that counts nodes and decides when to stop.
type control struct {
	cfg       *config
	nodes     uint64
	nextCheck uint64
	every     uint64 // nodes between polls
	abort     bool
}

// Nodes between two checks of the budget: 8×8 nodes cost 0.1–2 µs (so a check at least every
// half millisecond), nodes of the generic path on a large board up to a few hundred
// microseconds. Every loop of the search that can run long counts nodes and polls.
const (
	pollEvery  = 256
	pollEveryN = 8
)

func newControl(cfg *config, every uint64) control {
	return control{cfg: cfg, every: every} // the first node polls: a search started late stops at once
}

// poll checks the budget; it sets and returns abort.
func (c *control) poll() bool {
	c.nextCheck = c.nodes + c.every
	switch {
	case c.cfg.nodes > 0 && c.nodes >= c.cfg.nodes:
		c.abort = true
	case c.cfg.ctx.Err() != nil:
		c.abort = true
	case !c.cfg.deadline.IsZero() && !c.cfg.now(c.nodes).Before(c.cfg.deadline):
		c.abort = true
	}
	return c.abort
}

func (c *control) elapsed() time.Duration { return c.cfg.now(c.nodes).Sub(c.cfg.start) }

// outOfTime reports whether the next iteration should not start, given when the last began.
func (c *control) outOfTime(iterStart time.Duration) bool {
	if c.cfg.deadline.IsZero() {
		return false
	}
	total := c.cfg.deadline.Sub(c.cfg.start)
	el := c.elapsed()
	last := el - iterStart
	soft := c.cfg.soft
	if soft == 0 {
		soft = total / 2
	}
	return el > soft || el+2*last > total
}

// iterDepth returns the depth of iteration d on a position with n empty squares: the full
// depth n once the exact search is in reach.
func (c *config) iterDepth(d, n int) int {
	if d+c.jump >= n || c.exactAfter > 0 && d > c.exactAfter {
		return n
	}
	return d
}

// run searches p under cfg.
func run(cfg *config, p engine.Position) (Result, error) {
	if !engine.ValidSize(p.Size()) {
		return Result{}, ErrPosition
	}
	if p.GameOver() {
		return Result{}, ErrGameOver
	}
	tables, err := tablesForEval(cfg.eval)
	if err != nil {
		return Result{}, err
	}
	if cfg.tables != nil {
		tables = *cfg.tables
	}
	if cfg.ctx == nil {
		cfg.ctx = context.Background()
	}
	if cfg.start.IsZero() {
		cfg.start = cfg.now(0)
	}
	if d, ok := cfg.ctx.Deadline(); ok && (cfg.deadline.IsZero() || d.Before(cfg.deadline)) {
		cfg.deadline = d
	}
	if cfg.tableBits < 10 {
		cfg.tableBits = 10
	}
	if pl, op, ok := p.Bitboards8(); ok {
		s := newSearcher8(cfg, tables[8])
		return s.run(pl, op), nil
	}
	g := geoms[p.Size()]
	s := newSearcherN(cfg, g, tables[p.Size()])
	return s.run(toSetN(p.Discs(p.Side())), toSetN(p.Discs(p.Side().Opponent()))), nil
}

// Search searches p within lim and ctx and returns its best move, score and line. It fails
// only for a finished game or an invalid position.
func Search(ctx context.Context, p engine.Position, lim Limits) (Result, error) {
	cfg := &config{ctx: ctx, nodes: lim.Nodes, depth: lim.Depth, tableBits: 20, mustScore: true}
	cfg.jump = defaultJump(p.Size())
	if lim.Time > 0 {
		cfg.start = time.Now()
		cfg.deadline = cfg.start.Add(lim.Time)
	}
	return run(cfg, p)
}

func defaultJump(size int) int {
	if size == 8 {
		return 10
	}
	return 6
}

// Solve returns a best move of p and its exact score: the final disc difference for the side
// to move under perfect play, empty squares to the winner. It runs until done or until ctx is
// cancelled, when it returns ctx's error.
func Solve(ctx context.Context, p engine.Position) (best engine.Square, score int, err error) {
	r, err := SolveStats(ctx, p)
	if err != nil && r.Exact {
		err = nil
	}
	if err != nil {
		return engine.Pass, 0, err
	}
	return r.Move, r.Score / 100, nil
}

// SolveStats is Solve that also reports the search's statistics.
func SolveStats(ctx context.Context, p engine.Position) (Result, error) {
	cfg := &config{ctx: ctx, jump: 12, exactAfter: 10, mustScore: true}
	// On 8×8 the solver's speed is bound by memory: past 2^18 entries (6 MB, with the midgame
	// table 9 MB) the table's cache misses cost more than the nodes it saves (FFO #48: 13.5 s
	// CPU with 2^21 entries, 10.9 s with 2^18).
	cfg.tableBits = min(max(6+p.Empties()/2, 12), 18)
	if p.Size() != 8 {
		cfg.tableBits = min(max(8+p.Empties()/2, 12), 19)
	}
	r, err := run(cfg, p)
	if err == nil && !r.Exact {
		err = ctx.Err()
		if err == nil {
			err = errors.New("ai: solve stopped early")
		}
	}
	return r, err
}
