package bot

import (
	"context"

	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/optional"
)

// Deduper remembers which update ids have been seen (storage.Store implements it, shared by
// every bot process): FirstSeen reports true exactly once for each id.
type Deduper interface {
	FirstSeen(ctx context.Context, updateID int64) (bool, error)
}

// dedupe is the middleware that lets each update id through at most once: a repeat (a
// webhook retry, an update another process took) has the outcome duplicate and goes no
// further. An update without an id goes on, and so does one whose FirstSeen failed or did not
// answer in time (opt, which logs it): a dedupe mark is not worth a move, and an update
// handled twice is the lesser evil (at least once rather than at most once), since every game
// step is a compare-and-set that a repeat cannot apply twice.
func dedupe(d Deduper, opt *optional.Guard) UpdateMiddleware {
	return func(next UpdateHandler) UpdateHandler {
		return func(ctx context.Context, u *models.Update) {
			if u.ID != 0 {
				first := true
				if opt.Do(ctx, "dedupe", func(ctx context.Context) (err error) {
					first, err = d.FirstSeen(ctx, u.ID)
					return err
				}) && !first {
					setOutcome(ctx, outcomeDuplicate, nil)
					return
				}
			}
			next(ctx, u)
		}
	}
}
