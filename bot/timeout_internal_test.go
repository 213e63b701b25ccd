package bot

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"
)

func TestTimeoutCancels(t *testing.T) {
	var inner context.Context
	h := withTimeout(time.Hour)(func(ctx context.Context, _ *models.Update) {
		inner = ctx
		dl, ok := ctx.Deadline()
		if !ok || time.Until(dl) > time.Hour {
			t.Errorf("deadline %v (%v), want one within an hour", dl, ok)
		}
	})
	h(context.Background(), tapUpdate(1, 1))
	// The deadline's context ends with the handling, so nothing it started outlives it.
	if !errors.Is(inner.Err(), context.Canceled) {
		t.Fatalf("after the handler: %v, want canceled", inner.Err())
	}
	// A deadline that passes ends the handler's context with DeadlineExceeded.
	withTimeout(time.Nanosecond)(func(ctx context.Context, _ *models.Update) {
		<-ctx.Done()
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			t.Errorf("%v, want deadline exceeded", ctx.Err())
		}
	})(context.Background(), tapUpdate(2, 1))
}
