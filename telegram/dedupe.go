package telegram

import (
	"context"
	"log/slog"

	"github.com/go-telegram/bot/models"
)

// Deduper remembers which update ids have been seen (storage.Store implements it, shared by
// every bot process): FirstSeen reports true exactly once for each id.
type Deduper interface {
	FirstSeen(ctx context.Context, updateID int64) (bool, error)
}

// dedupe is the middleware that lets each update id through at most once: a repeat (a
// webhook retry, an update another process took) has the outcome duplicate and goes no
// further. An update without an id goes on, and so does one whose FirstSeen failed (logged):
// without the store nothing can be applied anyway, and the handler tells the user so.
func dedupe(d Deduper, log *slog.Logger) Middleware {
	return func(next HandlerFunc) HandlerFunc {
		return func(ctx context.Context, u *models.Update) {
			if u.ID != 0 {
				first, err := d.FirstSeen(ctx, u.ID)
				if err != nil {
					log.Warn("dedupe", "update", u.ID, "err", err)
				} else if !first {
					setOutcome(ctx, outcomeDuplicate, nil)
					return
				}
			}
			next(ctx, u)
		}
	}
}
