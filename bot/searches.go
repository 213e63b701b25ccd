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

// startSweeper runs sweepSearches every interval until Shutdown (stopSweeper). Every process
// sweeps: the store hands each ended search to one of them (game.Service.ExpireSearches).
func (b *Bot) startSweeper(every time.Duration) {
	b.sweepStop, b.sweepDone = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(b.sweepDone)
		b.everyTick(every, b.sweepStop, func() {
			ctx, cancel := context.WithTimeout(b.base, sweepTimeout)
			defer cancel()
			b.sweepSearches(ctx)
		})
	}()
}

// stopSweeper stops the sweeper (if it runs) and waits for its sweep in progress.
func (b *Bot) stopSweeper() {
	if b.sweepStop == nil {
		return
	}
	b.sweepOnce.Do(func() { close(b.sweepStop) })
	<-b.sweepDone
}

// sweepSearches takes the searches that ended by themselves and tells each of their people,
// in the search's message (a new message for a search that kept none), that nobody came,
// with a button to search again. It returns how many it told.
func (b *Bot) sweepSearches(ctx context.Context) int {
	ended, err := b.svc.ExpireSearches(ctx, sweepBatch)
	if err != nil {
		b.log.Warn("expire searches", "err", b.scrub(err))
	}
	for _, se := range ended {
		w := se.Waiter
		if w.ChatID == 0 {
			continue
		}
		c := present.SearchExpired(normLang(w.Lang), se.Size)
		if w.MsgID != 0 {
			err = b.edit(ctx, game.MessageRef{ChatID: w.ChatID, MessageID: w.MsgID}, c)
		} else {
			_, err = b.sendText(ctx, w.ChatID, c.Text, c.Keyboard)
		}
		if err != nil {
			b.log.Warn("search expired", "user", w.UserID, "err", b.scrub(err))
		}
	}
	return len(ended)
}

// searchShown returns the message that shows userID's search while it waits (and the
// language of that message), so that the caller can say there, once another game has taken
// the user out of the queue (game.Service starts and joins leave it), that the search
// stopped. ok is false when the user waits for nothing, or the search keeps no message.
func (pl *play) searchShown(ctx context.Context, userID int64) (ref game.MessageRef, lang string, ok bool) {
	se, err := pl.bot.svc.Searching(ctx, userID)
	if err != nil || se == nil || se.Waiter.MsgID == 0 || se.Waiter.ChatID == 0 {
		return game.MessageRef{}, "", false
	}
	return game.MessageRef{ChatID: se.Waiter.ChatID, MessageID: se.Waiter.MsgID}, normLang(se.Waiter.Lang), true
}

// searchLeft tells the search message ref (from searchShown) that the search stopped because
// the user went into another game; its button goes.
func (pl *play) searchLeft(ctx context.Context, ref game.MessageRef, lang string) {
	if err := pl.bot.edit(ctx, ref, present.SearchLeft(lang)); err != nil {
		pl.bot.log.Warn("search left", "chat", ref.ChatID, "err", pl.bot.scrub(err))
	}
}
