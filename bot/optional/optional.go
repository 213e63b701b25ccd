// Package optional runs the store calls a step can do without (a board style, an update's
// dedupe mark, a shared budget, pacing) so that a store that fails or stops answering costs a
// step little time: each call is bounded by a short timeout, a kind of call that failed is not
// tried again for a while (its caller uses its default meanwhile), and a failing kind is
// logged once per outage, not once per call.
package optional

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// Defaults of a Guard.
const (
	// DefaultTimeout bounds one call: far above a healthy Redis's answer (well under a
	// millisecond on a LAN), far below the seconds a dead node's connection takes to fail.
	DefaultTimeout = 250 * time.Millisecond
	// DefaultRest is how long a kind of call that failed is not tried again.
	DefaultRest = 2 * time.Second
)

// Guard runs optional calls by kind. The zero value is not usable: use New. Safe for
// concurrent use.
type Guard struct {
	log     *slog.Logger
	now     func() time.Time
	timeout time.Duration
	rest    time.Duration

	mu    sync.Mutex
	kinds map[string]*kind
}

// kind is the state of one kind of call.
type kind struct {
	until  time.Time // not tried before then
	failed int64     // failures (and calls skipped) since it last worked
}

// New returns a Guard that logs to log (nil: nowhere) with DefaultTimeout and DefaultRest on
// the wall clock.
func New(log *slog.Logger) *Guard {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Guard{log: log, now: time.Now, timeout: DefaultTimeout, rest: DefaultRest, kinds: map[string]*kind{}}
}

// WithTiming returns g with another timeout, rest and clock (nil: the wall clock), for tests.
func (g *Guard) WithTiming(timeout, rest time.Duration, now func() time.Time) *Guard {
	if now == nil {
		now = time.Now
	}
	return &Guard{log: g.log, now: now, timeout: timeout, rest: rest, kinds: map[string]*kind{}}
}

// Do calls fn with ctx bounded by the Guard's timeout and reports whether it succeeded. When a
// call of the same kind failed less than the rest ago, fn is not called and Do reports false:
// the caller goes on with its default. The first failure of a run is logged (at warning
// level, with err), and the first success after it (how many calls failed or were skipped).
func (g *Guard) Do(ctx context.Context, name string, fn func(context.Context) error) bool {
	if g == nil {
		return fn(ctx) == nil
	}
	g.mu.Lock()
	k := g.kinds[name]
	if k == nil {
		k = &kind{}
		g.kinds[name] = k
	}
	if g.now().Before(k.until) {
		k.failed++
		g.mu.Unlock()
		return false
	}
	g.mu.Unlock()
	cctx, cancel := context.WithTimeout(ctx, g.timeout)
	err := fn(cctx)
	cancel()
	if err != nil && ctx.Err() != nil {
		return false // the caller's own end: says nothing of the store
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if err != nil {
		if k.failed == 0 {
			g.log.Warn("optional store call failed: its default is used until it answers", "kind", name, "err", err)
		}
		k.failed++
		k.until = g.now().Add(g.rest)
		return false
	}
	if k.failed > 0 {
		g.log.Info("optional store call answers again", "kind", name, "failed_or_skipped", k.failed)
		k.failed = 0
	}
	return true
}
