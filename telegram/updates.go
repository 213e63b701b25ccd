package telegram

import (
	"context"
	"time"

	"github.com/reversibot/reversi/telegram/botapi"
)

// allowedUpdates are the kinds of update the bot asks Telegram for.
var allowedUpdates = []string{"message", "callback_query", "inline_query", "chosen_inline_result"}

// Waits after a failed getUpdates: the first, and the most.
const (
	firstPollBackoff = 100 * time.Millisecond
	maxPollBackoff   = 5 * time.Second
)

// poll takes updates by long polling and dispatches each, until ctx ends or the bot shuts
// down. While every handler is busy it waits (and takes no more updates). An update is
// confirmed to Telegram (by the offset of the next getUpdates) only after dispatch took it,
// so a stop never drops a confirmed update. A failed getUpdates is logged and tried again
// after a wait that doubles up to maxPollBackoff.
func (b *Bot) poll(ctx context.Context) {
	var offset int64
	var backoff time.Duration
	for ctx.Err() == nil {
		if backoff > 0 {
			t := time.NewTimer(backoff)
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
		}
		ups, next, err := b.api.GetUpdates(ctx, botapi.GetUpdatesParams{Offset: offset,
			Timeout: int((pollTimeout - time.Second) / time.Second), AllowedUpdates: allowedUpdates})
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			b.log.Warn("telegram", "err", b.scrub(err))
			backoff = min(max(2*backoff, firstPollBackoff), maxPollBackoff)
			continue
		}
		backoff = 0
		for _, u := range ups {
			if b.dispatch(ctx, u) != taken {
				return // shut down, or stopped while waiting for a handler
			}
		}
		offset = next
	}
}
