package botapi

import (
	"context"
	"sync"
	"time"
)

// LocalBudgets are Budgets kept in this process only: for tests and a bot that runs as one
// process. Each budget is a GCRA on the Clock (exact, no floating point), like
// storage.PaceBudgets in Redis. It is safe for concurrent use; budgets that are full again
// and not held are forgotten from time to time, so its memory follows the chats that are
// active.
type LocalBudgets struct {
	clock Clock

	mu    sync.Mutex
	m     map[string]*localBudget
	takes int // Take calls since the last sweep
}

// localBudget is one budget's state.
type localBudget struct {
	tat  time.Time // theoretical arrival time: the budget is full again at tat
	hold time.Time // Take refuses until then
}

// sweepEvery is how many Take calls go between sweeps of the budgets that are full again.
const sweepEvery = 1024

// NewLocalBudgets returns empty LocalBudgets on the clock (nil: the real time).
func NewLocalBudgets(clock Clock) *LocalBudgets {
	if clock == nil {
		clock = systemClock{}
	}
	return &LocalBudgets{clock: clock, m: map[string]*localBudget{}}
}

// Take spends one unit of the budget key (burst at once, then rate per per) and returns 0, or,
// when the budget is held or has no room, spends nothing and returns how long until it may
// have room. A budget without a positive rate, per and burst allows everything. It never fails.
func (b *LocalBudgets) Take(_ context.Context, key string, rate int, per time.Duration, burst int) (time.Duration, error) {
	if rate <= 0 || per <= 0 || burst <= 0 {
		return 0, nil
	}
	now := b.clock.Now()
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sweep(now)
	s := b.m[key]
	if s == nil {
		s = &localBudget{}
		b.m[key] = s
	}
	if now.Before(s.hold) {
		return s.hold.Sub(now), nil
	}
	interval := per / time.Duration(rate)
	tat := s.tat
	if tat.Before(now) {
		tat = now
	}
	// Room for one more while tat stays within burst-1 intervals ahead of now.
	if ahead := tat.Sub(now) - time.Duration(burst-1)*interval; ahead > 0 {
		return ahead, nil
	}
	s.tat = tat.Add(interval)
	return 0, nil
}

// Hold lets Take refuse the budget key for d from now; a longer hold already in place stays.
// It never fails.
func (b *LocalBudgets) Hold(_ context.Context, key string, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	until := b.clock.Now().Add(d)
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.m[key]
	if s == nil {
		s = &localBudget{}
		b.m[key] = s
	}
	if until.After(s.hold) {
		s.hold = until
	}
	return nil
}

// sweep forgets, every sweepEvery calls, the budgets that are full again and not held. b.mu
// is held.
func (b *LocalBudgets) sweep(now time.Time) {
	if b.takes++; b.takes < sweepEvery {
		return
	}
	b.takes = 0
	for k, s := range b.m {
		if !now.Before(s.tat) && !now.Before(s.hold) {
			delete(b.m, k)
		}
	}
}
