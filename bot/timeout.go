package bot

import (
	"context"
	"time"

	"github.com/go-telegram/bot/models"
)

// DefaultHandlerTimeout bounds the handling of one update unless Options.HandlerTimeout says
// otherwise.
const DefaultHandlerTimeout = time.Minute

// withTimeout is the middleware that gives each update's handling a deadline d from its start.
func withTimeout(d time.Duration) UpdateMiddleware {
	return func(next UpdateHandler) UpdateHandler {
		return func(ctx context.Context, u *models.Update) {
			ctx, cancel := context.WithTimeout(ctx, d)
			defer cancel()
			next(ctx, u)
		}
	}
}
