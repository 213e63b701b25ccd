package bot

import (
	"context"
	"log/slog"
	"time"

	"github.com/go-telegram/bot/models"
)

// Outcomes of a handled update, in its log line and its metrics.
const (
	outcomeOK         = "ok"          // handled
	outcomeIgnored    = "ignored"     // nothing for this bot to do
	outcomeError      = "error"       // the handler failed or panicked
	outcomeDuplicate  = "duplicate"   // seen before (dedupe)
	outcomeOverBudget = "over_budget" // refused by the shared budget
)

// outcome is what became of one update. The outermost middleware that wants it (log,
// metrics) puts one in the update's context; the middlewares inside and the handler set it.
// Only the update's own goroutine touches it.
type outcome struct {
	name string
	err  error
}

// outcomeKey is the context key of an update's outcome.
type outcomeKey struct{}

// trackOutcome returns ctx with an outcome ("ok" until set), or ctx and the outcome it already
// carries.
func trackOutcome(ctx context.Context) (context.Context, *outcome) {
	if o, ok := ctx.Value(outcomeKey{}).(*outcome); ok {
		return ctx, o
	}
	o := &outcome{name: outcomeOK}
	return context.WithValue(ctx, outcomeKey{}, o), o
}

// setOutcome records the update's outcome and error, if ctx tracks one.
func setOutcome(ctx context.Context, name string, err error) {
	if o, ok := ctx.Value(outcomeKey{}).(*outcome); ok {
		o.name, o.err = name, err
	}
}

// logUpdates is the middleware that writes one line per handled update: its id, kind, user,
// outcome and how long it took, at Warn with the error (redacted) when there was one, at Info
// otherwise.
func logUpdates(log *slog.Logger, redact func(error) string) UpdateMiddleware {
	return func(next UpdateHandler) UpdateHandler {
		return func(ctx context.Context, u *models.Update) {
			start := time.Now()
			ctx, o := trackOutcome(ctx)
			next(ctx, u)
			attrs := []any{"update", u.ID, "kind", updateKind(u), "outcome", o.name,
				"took", time.Since(start).Round(time.Microsecond)}
			if from := updateFrom(u); from != 0 {
				attrs = append(attrs, "user", from)
			}
			if o.err != nil {
				attrs = append(attrs, "err", redact(o.err))
				log.Warn("update", attrs...)
				return
			}
			log.Info("update", attrs...)
		}
	}
}
