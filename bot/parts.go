package bot

import (
	"context"
	"errors"

	"github.com/reversibot/reversi/bot/pictures"
)

// Part is a long-running part of a Bot (its turn reminders, its offers' expiries, its search
// sweeper, its reviews and replays, its pictures). New builds the parts and starts none:
// their owner (cmd/reversibot's Main, or Start for tests and tools) starts them once the Bot
// is built and stops them around Bot.Shutdown (Parts.Stop).
type Part interface {
	// Start starts the part's goroutines, if it has any; it does nothing the second time.
	Start()
	// Stop stops the part and waits for it, or, should ctx end first, cuts its work short,
	// waits for it to return and returns ctx's error. It may be called more than once, and
	// for a part never started.
	Stop(ctx context.Context) error
}

// Parts are the long-running parts of a Bot, as Bot.Parts returns them. A new part is a file
// of its own: a type with Start and Stop (Part) that takes only what it uses (often the core
// of the handlers and the afterWork), a field here that sources lists (or Start and Stop
// name, for a part the others use, as Pictures), and a line in New that builds it.
type Parts struct {
	Reminders *TurnReminders     // the turn reminders of group and inline games (remind.go)
	Offers    *OfferExpiries     // the rematch offers that expire by themselves (offers.go)
	Searches  *Sweeper           // the matchmaking searches that end by themselves (searches.go)
	Reviews   *Reviews           // the reviews and the replays of finished games (review.go)
	Pictures  *pictures.Pictures // the pictures, thumbnails and drawing workers
}

// sources are the parts that make work, in the order they stop: first the timed loops, then
// the reviews and replays, which nobody waits on.
func (p Parts) sources() []Part {
	return []Part{p.Reminders, p.Offers, p.Searches, p.Reviews}
}

// Start starts every part: the drawing workers first, then the parts that give them work.
func (p Parts) Start() {
	p.Pictures.Start()
	for _, part := range p.sources() {
		part.Start()
	}
}

// Stop stops b and its parts within ctx, in the order a stop needs: the parts that make work
// (the timed loops, the reviews and replays, which then give up), then b itself
// (Bot.Shutdown: no new updates, the updates and the work they left finished), then the
// drawing workers that this work may still use. Should ctx end first, everything is cut
// short and Stop returns ctx's error. Call Bot.StopWaitingForBudget before it to drop what
// waits for Telegram's flood limits.
func (p Parts) Stop(ctx context.Context, b *Bot) error {
	var errs []error
	for _, part := range p.sources() {
		errs = append(errs, part.Stop(ctx))
	}
	if err := b.Shutdown(ctx); err != nil {
		errs = append(errs, err)
	}
	errs = append(errs, p.Pictures.Stop(ctx))
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return errors.Join(errs...)
}

// Running is a Bot with its parts started as cmd/reversibot's Main starts them: for tests and
// tools that run a whole bot in-process. Its Shutdown stops the parts too.
type Running struct {
	*Bot
	Parts
}

// Start builds a Bot as New does and starts its parts.
func Start(ctx context.Context, o Options) (*Running, error) {
	b, err := New(ctx, o)
	if err != nil {
		return nil, err
	}
	r := &Running{Bot: b, Parts: b.Parts()}
	r.Parts.Start()
	return r, nil
}

// Shutdown stops the bot and its parts (Parts.Stop), waiting for the work in flight until
// ctx ends.
func (r *Running) Shutdown(ctx context.Context) error { return r.Parts.Stop(ctx, r.Bot) }
