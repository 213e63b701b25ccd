package bot

import (
	"context"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/metrics"
)

// countUpdates is the middleware that counts each handled update by kind and outcome and
// records how long it took (m nil: records nothing).
func countUpdates(m *metrics.Metrics) UpdateMiddleware {
	return func(next UpdateHandler) UpdateHandler {
		return func(ctx context.Context, u *models.Update) {
			start := time.Now()
			ctx, o := trackOutcome(ctx)
			next(ctx, u)
			m.Update(updateKind(u), o.name, time.Since(start))
		}
	}
}
