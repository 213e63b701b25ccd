package botapi

import (
	"context"
	"errors"
	"time"

	tgbot "github.com/go-telegram/bot"
)

// Limits of trying a call again.
const (
	// MaxRetries is how often a call that met a 429 is tried again.
	MaxRetries = 4
	// MaxRetryAfter is the longest wait for one retry_after: a longer one is cut to it.
	MaxRetryAfter = 60 * time.Second
	// transientRetries is how often a call safe to repeat is tried again after a 5xx or a
	// network error, waiting transientBackoff, then twice as long.
	transientRetries = 2
	transientBackoff = 200 * time.Millisecond
)

// Retry runs fn, a step that is safe to repeat and makes Bot API calls with c.Once() (say,
// drawing a board from the store and editing the message), and runs it again as c's calls
// are tried again: after a 429 once retry_after has passed, after a 5xx or a network error
// after a short backoff. It gives up when ctx ends (or would end before the wait does),
// returning fn's last error. An error that is no *Error of a Client (a store's) is returned
// at once. A Once view runs fn once.
func (c *Client) Retry(ctx context.Context, fn func() error) error {
	return c.retry(ctx, true, fn)
}

// retry runs fn and again as long as its error allows (a 5xx or a network error only when
// safe).
func (c *Client) retry(ctx context.Context, safe bool, fn func() error) error {
	for attempt := 0; ; attempt++ {
		err := fn()
		if err == nil || c.once || ctx.Err() != nil {
			return err
		}
		wait, again := retryWait(err, attempt, safe)
		var stop <-chan struct{} // a 429's wait is for budget: a stopping process does not wait
		if KindOf(err) == KindTooManyRequests {
			stop = c.stop
		}
		if !again || !sleep(ctx, stop, wait) {
			return err
		}
	}
}

// retryWait returns how long to wait before the retry after the attempt (0 the first) failed
// with err, and whether to try again at all.
func retryWait(err error, attempt int, safe bool) (time.Duration, bool) {
	var tooMany *tgbot.TooManyRequestsError
	if errors.As(err, &tooMany) {
		return min(time.Duration(tooMany.RetryAfter)*time.Second, MaxRetryAfter), attempt < MaxRetries
	}
	var e *Error
	if !safe || attempt >= transientRetries || !errors.As(err, &e) {
		return 0, false
	}
	switch e.Kind {
	case KindServer, KindNetwork:
		return transientBackoff << attempt, true
	}
	return 0, false
}

// sleep waits for d unless ctx ends or stop is closed first, or ctx would end before d has
// passed; it reports whether it waited.
func sleep(ctx context.Context, stop <-chan struct{}, d time.Duration) bool {
	if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < d {
		return false
	}
	select {
	case <-stop:
		return false
	default:
	}
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-stop:
		return false
	case <-t.C:
		return true
	}
}
