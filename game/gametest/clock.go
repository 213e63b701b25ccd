package gametest

import (
	"slices"
	"sync"
	"testing"
	"time"
)

// Clock is the one virtual clock of the tests, safe for concurrent use. Its time moves only
// when the test moves it (Add), and the timers made on it (Timer) fire when it is moved to or
// past their due time. Pass its Now where a func() time.Time is injected (store, service, bot,
// Mini App, the fake Bot API), and the Clock itself where a botapi.Clock is.
//
// A test learns what the code under test waits for from the timers it made: Timers counts
// them, AwaitTimers blocks until they are as the test expects, and Changed tells when they may
// have changed. Tests synchronise on that state, never on real time.
type Clock struct {
	mu      sync.Mutex
	now     time.Time
	timers  []*clockTimer // waiting, in the order made
	made    int           // timers made in all
	auto    bool          // AutoAdvance
	changed chan struct{} // closed (and replaced) whenever the time or the timers change
}

// clockTimer is a timer made on a Clock.
type clockTimer struct {
	at time.Time
	c  chan time.Time
}

// NewClock returns a Clock that reads t until it is moved.
func NewClock(t time.Time) *Clock { return &Clock{now: t, changed: make(chan struct{})} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Add moves the clock on by d and fires, in the order they are due, the timers due by then.
func (c *Clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.moveTo(c.now.Add(d))
}

// AutoAdvance makes every timer made from now on move the clock on to when it is due, so that
// it fires as soon as it is made: a loop that rests between its calls moves the time on by
// its rests, one that does not leaves it standing.
func (c *Clock) AutoAdvance() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.auto = true
}

// Timer returns a channel that receives the clock's time once the clock has been moved d on
// from now, and a func that stops the timer and reports whether it was still waiting. A timer
// of d <= 0 has fired when Timer returns. Its signature is botapi.Clock's.
func (c *Clock) Timer(d time.Duration) (<-chan time.Time, func() bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &clockTimer{at: c.now.Add(d), c: make(chan time.Time, 1)}
	c.made++
	c.timers = append(c.timers, t)
	if c.auto && d > 0 {
		c.moveTo(t.at)
	} else {
		c.moveTo(c.now) // fires t when d <= 0, and tells Changed
	}
	return t.c, func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		i := slices.Index(c.timers, t)
		if i < 0 {
			return false
		}
		c.timers = slices.Delete(c.timers, i, i+1)
		c.notify()
		return true
	}
}

// moveTo sets the time to now and fires the timers due by then, earliest first (those due
// together in the order made). c.mu is held.
func (c *Clock) moveTo(now time.Time) {
	c.now = now
	due := make([]*clockTimer, 0, len(c.timers))
	kept := c.timers[:0]
	for _, t := range c.timers {
		if t.at.After(now) {
			kept = append(kept, t)
		} else {
			due = append(due, t)
		}
	}
	clear(c.timers[len(kept):])
	c.timers = kept
	slices.SortStableFunc(due, func(a, b *clockTimer) int { return a.at.Compare(b.at) })
	for _, t := range due {
		t.c <- now // buffered for one, and fired only once
	}
	c.notify()
}

// notify closes the channel Changed gave out. c.mu is held.
func (c *Clock) notify() {
	close(c.changed)
	c.changed = make(chan struct{})
}

// Changed returns a channel that is closed the next time the clock is moved or a timer is
// made, fires or is stopped. Read Timers after taking it, then wait on it: no change is
// missed.
func (c *Clock) Changed() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.changed
}

// Timers returns how many timers were made on the clock in all and how many of them are still
// waiting (neither fired nor stopped).
func (c *Clock) Timers() (made, pending int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.made, len(c.timers)
}

// AwaitTimers blocks until at least made timers were made in all and exactly pending of them
// are waiting, and returns when the earliest waiting one is due (the clock's time when none
// is). It fails the test when that takes more than 20 s of real time (a failing guard).
func (c *Clock) AwaitTimers(t testing.TB, made, pending int) time.Time {
	t.Helper()
	guard := time.NewTimer(guardFor)
	defer guard.Stop()
	for {
		c.mu.Lock()
		if c.made >= made && len(c.timers) == pending {
			next := c.now
			for i, x := range c.timers {
				if i == 0 || x.at.Before(next) {
					next = x.at
				}
			}
			c.mu.Unlock()
			return next
		}
		changed := c.changed
		c.mu.Unlock()
		select {
		case <-changed:
		case <-guard.C:
			m, p := c.Timers()
			t.Fatalf("timers: %d made, %d waiting; want at least %d made, %d waiting", m, p, made, pending)
		}
	}
}
