package botapi

import (
	"context"
	"slices"
	"sync"
	"time"
)

// LocalBudgets are Budgets kept in this process only: for tests and a bot that runs as one
// process. Each budget is a GCRA and a log of its calls on the Clock (exact, no floating
// point), like storage.PaceBudgets in Redis. It is safe for concurrent use; budgets that are
// full again, hold no call and are not held are forgotten from time to time, so its memory
// follows the chats that are active.
type LocalBudgets struct {
	clock Clock

	mu    sync.Mutex
	m     map[string]*localBudget
	takes int // Take calls since the last sweep
}

// localBudget is one budget's state.
type localBudget struct {
	tat   time.Time            // theoretical arrival time: the GCRA is full again at tat
	hold  time.Time            // Take refuses until then
	per   time.Duration        // the longest window of the last Take
	ended []time.Time          // when the answered calls ended, in order, within the longest window
	open  map[string]time.Time // the calls in flight: when each went
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

// Take spends one unit of the budget key on the call id (see Limit for what rate, per and
// burst allow) and returns 0, or, when the budget is held or has no room, spends nothing and
// returns how long until it may have room. The call counts as in flight until End, or until
// PaceOpenFor has passed. A budget without a positive rate, per and burst allows everything.
// It never fails.
func (b *LocalBudgets) Take(_ context.Context, key, id string, rate int, per time.Duration, burst int) (time.Duration, error) {
	if rate <= 0 || per <= 0 || burst <= 0 {
		return 0, nil
	}
	now := b.clock.Now()
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sweep(now)
	s := b.budget(key)
	if now.Before(s.hold) {
		return s.hold.Sub(now), nil
	}
	interval := paceInterval(rate, per)
	tat := later(s.tat, now)
	// The GCRA has room for one more while tat stays within burst-1 intervals ahead of now.
	wait := tat.Sub(now) - time.Duration(burst-1)*interval
	s.per = per
	s.age(now)
	for _, w := range paceWindows(rate, per, burst) {
		wait = max(wait, s.room(now, w))
	}
	if wait > 0 {
		return wait, nil
	}
	s.spend(id, tat.Add(interval), now)
	return 0, nil
}

// Note counts the call id in the budget key as Take would have, room or not: a call that
// other budgets gave their unit (FallbackBudgets keeps its local budgets up to date so).
func (b *LocalBudgets) Note(key, id string, rate int, per time.Duration, burst int) {
	if rate <= 0 || per <= 0 || burst <= 0 {
		return
	}
	now := b.clock.Now()
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.budget(key)
	s.per = per
	s.age(now)
	s.spend(id, later(s.tat, now).Add(paceInterval(rate, per)), now)
}

// spend records the call id, in flight from now, with the GCRA full again at tat.
func (s *localBudget) spend(id string, tat, now time.Time) {
	s.tat = tat
	if s.open == nil {
		s.open = map[string]time.Time{}
	}
	s.open[id] = now
}

// End ends the call id of the budget key: answered, it counts in each window that holds now
// until that window has passed; not answered (never made), it no longer counts. An unknown id
// (ended already, or in flight longer than PaceOpenFor) is ignored. It never fails.
func (b *LocalBudgets) End(_ context.Context, key, id string, answered bool) error {
	now := b.clock.Now()
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.m[key]
	if s == nil {
		return nil
	}
	if _, ok := s.open[id]; !ok {
		return nil
	}
	delete(s.open, id)
	if answered {
		s.addEnded(now)
	}
	return nil
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
	s := b.budget(key)
	if until.After(s.hold) {
		s.hold = until
	}
	return nil
}

// budget returns the state of the budget key, new if need be. b.mu is held.
func (b *LocalBudgets) budget(key string) *localBudget {
	s := b.m[key]
	if s == nil {
		s = &localBudget{}
		b.m[key] = s
	}
	return s
}

// age counts the calls in flight for PaceOpenFor as ended then, and forgets the calls that
// ended the longest window or longer ago.
func (s *localBudget) age(now time.Time) {
	for id, went := range s.open {
		if end := went.Add(PaceOpenFor); !end.After(now) {
			delete(s.open, id)
			s.addEnded(end)
		}
	}
	i := 0
	for i < len(s.ended) && now.Sub(s.ended[i]) >= s.per {
		i++
	}
	if i > 0 {
		s.ended = append(s.ended[:0], s.ended[i:]...)
	}
}

// addEnded logs a call that ended at t, keeping the log in order.
func (s *localBudget) addEnded(t time.Time) {
	i := len(s.ended)
	for i > 0 && s.ended[i-1].After(t) {
		i--
	}
	s.ended = slices.Insert(s.ended, i, t)
}

// room returns how long until the window w has room for one more call at now (0: it has):
// the calls that count are those in flight and those that ended less than w.Per ago.
func (s *localBudget) room(now time.Time, w paceWindow) time.Duration {
	first, _ := slices.BinarySearchFunc(s.ended, now.Add(-w.per), func(e, t time.Time) int {
		if e.After(t) {
			return 1
		}
		return -1
	})
	inWindow := len(s.ended) - first
	c := inWindow + len(s.open)
	if c < w.n {
		return 0
	}
	// The window has room once c-n+1 of its calls have left it: the ended ones leave in
	// order, before any call in flight, which cannot leave before w.Per from now.
	k := first + c - w.n
	if k >= len(s.ended) {
		return w.per
	}
	return s.ended[k].Add(w.per).Sub(now)
}

// idle reports whether the budget is as good as new at now: full, not held, with no call
// that counts.
func (s *localBudget) idle(now time.Time) bool {
	return !now.Before(s.tat) && !now.Before(s.hold) && len(s.open) == 0 && len(s.ended) == 0
}

// sweep forgets, every sweepEvery calls, the budgets that are as good as new. b.mu is held.
func (b *LocalBudgets) sweep(now time.Time) {
	if b.takes++; b.takes < sweepEvery {
		return
	}
	b.takes = 0
	for k, s := range b.m {
		s.age(now)
		if s.idle(now) {
			delete(b.m, k)
		}
	}
}

// later returns the later of a and b.
func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
