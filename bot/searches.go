package bot

import (
	"context"
	"time"

	"github.com/reversibot/reversi/bot/present"
	"github.com/reversibot/reversi/game"
)

// DefaultSearchSweep is how often a Bot looks for matchmaking searches that ended by
// themselves (nobody came before their deadline), to say so in their messages.
const DefaultSearchSweep = 15 * time.Second

// sweepBatch is how many ended searches one sweep takes at most; the rest wait for the next.
const sweepBatch = 50

// sweepTimeout bounds one sweep: its store call and the edits of the messages it took.
const sweepTimeout = 30 * time.Second

// Sweeper tells the people of the matchmaking searches that ended by themselves (nobody
// came before their deadline) that they did: its loop, from Start to Stop, sweeps every
// Options.SearchSweep. Every process sweeps: the store hands each ended search to one of them
// (game.Service.ExpireSearches). Its zero value is not usable: New builds it.
type Sweeper struct {
	*core
	loop *loop // nil: the sweeper never runs
}

// newSweeper returns the sweeper of every interval in base; none runs for a negative
// interval, DefaultSearchSweep's for 0.
func newSweeper(c *core, every time.Duration, base context.Context) *Sweeper {
	s := &Sweeper{core: c}
	if every == 0 {
		every = DefaultSearchSweep
	}
	if every > 0 {
		s.loop = newLoop(base, every, func(ctx context.Context) {
			ctx, cancel := context.WithTimeout(ctx, sweepTimeout)
			defer cancel()
			s.sweep(ctx)
		})
	}
	return s
}

// Start starts the sweeper's loop.
func (s *Sweeper) Start() {
	if s.loop != nil {
		s.loop.start()
	}
}

// Stop stops the loop and waits for its sweep in progress (see Part.Stop).
func (s *Sweeper) Stop(ctx context.Context) error {
	if s.loop == nil {
		return nil
	}
	return s.loop.halt(ctx)
}

// sweep takes the searches that ended by themselves and tells each of their people,
// in the search's message (a new message for a search that kept none), that nobody came,
// with a button to search again. It returns how many it told.
func (s *Sweeper) sweep(ctx context.Context) int {
	ended, err := s.svc.ExpireSearches(ctx, sweepBatch)
	if err != nil {
		s.log.Warn("expire searches", "err", s.scrub(err))
	}
	for _, se := range ended {
		w := se.Waiter
		if w.ChatID == 0 {
			continue
		}
		c := present.SearchExpired(normLang(w.Lang), se.Size)
		if w.MsgID != 0 {
			err = s.edit(ctx, game.MessageRef{ChatID: w.ChatID, MessageID: w.MsgID}, c)
		} else {
			_, err = s.sendText(ctx, w.ChatID, c.Text, c.Keyboard)
		}
		if err != nil {
			s.log.Warn("search expired", "user", w.UserID, "err", s.scrub(err))
		}
	}
	return len(ended)
}

// searchShown returns the message that shows userID's search while it waits (and the
// language of that message), so that the caller can say there, once another game has taken
// the user out of the queue (game.Service starts and joins leave it), that the search
// stopped. ok is false when the user waits for nothing, or the search keeps no message.
func (pl *play) searchShown(ctx context.Context, userID int64) (ref game.MessageRef, lang string, ok bool) {
	se, err := pl.svc.Searching(ctx, userID)
	if err != nil || se == nil || se.Waiter.MsgID == 0 || se.Waiter.ChatID == 0 {
		return game.MessageRef{}, "", false
	}
	return game.MessageRef{ChatID: se.Waiter.ChatID, MessageID: se.Waiter.MsgID}, normLang(se.Waiter.Lang), true
}

// searchLeft tells the search message ref (from searchShown) that the search stopped because
// the user went into another game; its button goes.
func (pl *play) searchLeft(ctx context.Context, ref game.MessageRef, lang string) {
	if err := pl.edit(ctx, ref, present.SearchLeft(lang)); err != nil {
		pl.log.Warn("search left", "chat", ref.ChatID, "err", pl.scrub(err))
	}
}
