package ai

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/reversibot/reversi/engine"
)

// Level is a playing strength from 1 (a beginner) to 6 (the strongest the budget allows).
type Level int

// The levels, weakest first.
const (
	LevelBeginner Level = iota + 1
	LevelNovice
	LevelCasual
	LevelClub
	LevelExpert
	LevelMaster
)

// MinLevel and MaxLevel bound the valid levels.
const (
	MinLevel = LevelBeginner
	MaxLevel = LevelMaster
)

// Valid reports whether l is one of the six levels.
func (l Level) Valid() bool { return l >= MinLevel && l <= MaxLevel }

// String returns the level's English name, such as "beginner" or "master".
func (l Level) String() string {
	switch l {
	case LevelBeginner:
		return "beginner"
	case LevelNovice:
		return "novice"
	case LevelCasual:
		return "casual"
	case LevelClub:
		return "club"
	case LevelExpert:
		return "expert"
	case LevelMaster:
		return "master"
	}
	return fmt.Sprintf("Level(%d)", int(l))
}

// Budget returns the hard ceiling on the time level l may think on a board of the given size:
// 45 ms for levels 1–3, 250 ms for level 4, 500 ms for level 5, and for level 6 one second on
// 8×8 and two seconds on larger boards. Choose keeps within it unless the operating system
// stops the process for longer than the budget's safety margin (15%).
func (l Level) Budget(size int) time.Duration {
	switch {
	case l <= LevelCasual:
		return 45 * time.Millisecond
	case l == LevelClub:
		return 250 * time.Millisecond
	case l == LevelExpert:
		return 500 * time.Millisecond
	case size == 8:
		return time.Second
	}
	return 2 * time.Second
}

// searchTime is the deadline the search of level l actually uses: the budget less a margin
// for the work after the deadline is noticed (unwinding, building the answer) and for the
// scheduler.
func (l Level) searchTime(size int) time.Duration { return l.Budget(size) * 85 / 100 }

// levelConfig returns the search settings of level l on a board of the given size.
func levelConfig(l Level, size int) config {
	c := config{tableBits: 12}
	small := size <= 8
	switch l {
	case LevelNovice:
		c.depth, c.jump, c.margin = 1, 4, 200
	case LevelCasual:
		c.depth, c.jump, c.margin = 2, 6, 100
	case LevelClub:
		c.depth, c.jump, c.margin, c.tableBits = 4, 8, 30, 16
	case LevelExpert:
		c.depth, c.jump, c.tableBits = 7, 8, 18
	case LevelMaster:
		// Jump 12, not 10: at 23–26 empties the selective solve that precedes the exact one
		// then starts early enough to finish, and its answer is better than the midgame's.
		c.depth, c.jump, c.tableBits = 0, 12, 18
	}
	if !small {
		c.jump = min(c.jump, 6)
	}
	return c
}

// Choose picks a move for the side to move at level l; rng (which may be nil for a fixed
// choice) supplies the level's randomness, so a seeded rng makes games reproducible when the
// search is not cut short by time. It returns engine.Pass when the side to move must pass,
// and answers within l.Budget(size) or when ctx is done, whichever comes first. It fails for
// an invalid level, a finished game, or a context already done before it starts.
func Choose(ctx context.Context, p engine.Position, l Level, rng *rand.Rand) (engine.Square, error) {
	r, err := ChooseResult(ctx, p, l, rng)
	return r.Move, err
}

// ChooseResult is Choose that also returns the search's result.
func ChooseResult(ctx context.Context, p engine.Position, l Level, rng *rand.Rand) (Result, error) {
	return choose(ctx, p, l, rng, nil, Options{})
}

// Options adjusts how a level searches; the zero value is the level as Choose plays it.
type Options struct {
	// Eval is the evaluation the search uses.
	Eval Eval
	// NoBook switches the opening book off: levels 5 and 6 search every move (see BOOK.md).
	NoBook bool
	// NoMPC switches level 6's selective midgame search (Multi-ProbCut, SELECTIVE.md) off:
	// every node is searched to its full depth, as before the cut existed.
	NoMPC bool
	// MPCT, when positive, replaces level 6's cut threshold (DefaultMPCT standard deviations).
	MPCT float64
}

// ChooseWith is ChooseResult with options, for comparing evaluations at one level.
func ChooseWith(ctx context.Context, p engine.Position, l Level, rng *rand.Rand, opt Options) (Result, error) {
	return choose(ctx, p, l, rng, nil, opt)
}

// choose is ChooseWith with a clock for tests (nil for the wall clock; see config.clock).
func choose(ctx context.Context, p engine.Position, l Level, rng *rand.Rand, clock func(uint64) time.Time, opt Options) (Result, error) {
	if !l.Valid() {
		return Result{}, ErrLevel
	}
	if !engine.ValidSize(p.Size()) {
		return Result{}, ErrPosition
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	if p.GameOver() {
		return Result{}, ErrGameOver
	}
	if !p.HasMoves() {
		return Result{Move: engine.Pass}, nil
	}
	if l == LevelBeginner {
		return beginner(ctx, p, rng, clock)
	}
	if r, ok := fromBook(p, l, rng, opt); ok {
		return r, nil
	}
	cfg := levelConfig(l, p.Size())
	cfg.ctx = ctx
	cfg.rng = rng
	cfg.clock = clock
	cfg.eval = levelEval(opt.Eval, l, p.Size())
	cfg.start = cfg.now(0)
	cfg.deadline = cfg.start.Add(l.searchTime(p.Size()))
	if l == LevelMaster {
		cfg.soft = l.Budget(p.Size()) * 2 / 5
		cfg.probable = true
		if !opt.NoMPC {
			cfg.mpc, cfg.mpcT = mpcTableFor(p.Size()), DefaultMPCT
			if opt.MPCT > 0 {
				cfg.mpcT = opt.MPCT
			}
		}
	}
	return run(&cfg, p)
}

// minPatternLevelN is the lowest level that plays the large boards with the pattern
// evaluation by default (EvalDefault) on the sizes that have weights (DefaultPatternWeightsN);
// the levels below keep the linear one, whose strength the ladder (LADDER.md) was measured
// with. Level 6 plays it: with the 10×10, 12×12 and second 16×16 weights it beat level 6 with
// the linear evaluation in the matches PATTERNS.md gives.
const minPatternLevelN = LevelMaster

// levelEval returns the evaluation level l searches with on a board of the given size when
// asked for e.
func levelEval(e Eval, l Level, size int) Eval {
	if e == EvalDefault && size > 8 && l < minPatternLevelN {
		return EvalLinear
	}
	return e
}

// fromBook returns the opening book's move for level l on p, and whether the book answers:
// on a size with a book (DefaultBookFor), at levels 5 and 6 only, unless opt switches the
// book off (Book.bookChoiceKey says how much of it each level uses). A book that failed to
// load answers nothing.
func fromBook(p engine.Position, l Level, rng *rand.Rand, opt Options) (Result, bool) {
	ply := p.Size()*p.Size() - 4 - p.Empties()
	if opt.NoBook || l < LevelExpert || ply > bookMaxPlies {
		return Result{}, false
	}
	b, err := DefaultBookFor(p.Size())
	if err != nil || b == nil {
		return Result{}, false
	}
	k, ok := b.keyOf(p)
	if !ok {
		return Result{}, false
	}
	return b.bookChoiceKey(k, ply, l, rng)
}

// beginner plays a random legal move, except that near the end it never picks a losing move
// when a move that does not lose exists.
func beginner(ctx context.Context, p engine.Position, rng *rand.Rand, clock func(uint64) time.Time) (Result, error) {
	moves := p.LegalMoves()
	pick := func(ms []engine.Square) engine.Square {
		if rng == nil {
			return ms[0]
		}
		return ms[rng.IntN(len(ms))]
	}
	if p.Empties() <= 8 {
		var safe []engine.Square
		var c0 config
		c0.clock = clock
		start := c0.now(0)
		deadline := start.Add(LevelBeginner.searchTime(p.Size()))
		var nodes uint64 // the virtual clock counts the nodes of every search
		for _, m := range moves {
			q, _, _ := p.Play(m)
			cfg := &config{ctx: ctx, jump: 64, tableBits: 10, mustScore: true, start: start, deadline: deadline}
			if clock != nil {
				done := nodes
				cfg.clock = func(n uint64) time.Time { return clock(done + n) }
			}
			r, err := run(cfg, q)
			nodes += r.Nodes
			score := 0
			switch {
			case errors.Is(err, ErrGameOver):
				score = -q.FinalScore()
			case err != nil:
				return Result{}, err
			case r.Exact:
				score = -r.Score
			}
			if score >= 0 {
				safe = append(safe, m)
			}
		}
		if len(safe) > 0 {
			moves = safe
		}
	}
	return Result{Move: pick(moves)}, nil
}

// Hint returns a good move for the side to move quickly (within about a third of a second),
// for a player asking for advice. It returns engine.Pass when the side to move must pass.
func Hint(ctx context.Context, p engine.Position) (engine.Square, error) {
	if !engine.ValidSize(p.Size()) {
		return engine.Pass, ErrPosition
	}
	if p.GameOver() {
		return engine.Pass, ErrGameOver
	}
	if !p.HasMoves() {
		return engine.Pass, nil
	}
	cfg := levelConfig(LevelExpert, p.Size())
	cfg.eval = levelEval(EvalDefault, LevelExpert, p.Size())
	cfg.ctx = ctx
	cfg.start = time.Now()
	cfg.deadline = cfg.start.Add(300 * time.Millisecond)
	r, err := run(&cfg, p)
	return r.Move, err
}
