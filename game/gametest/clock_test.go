package gametest_test

import (
	"testing"
	"time"

	"github.com/reversibot/reversi/game/gametest"
)

var start = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

// fired reports whether ch has received (without waiting) and what.
func fired(ch <-chan time.Time) (time.Time, bool) {
	select {
	case at := <-ch:
		return at, true
	default:
		return time.Time{}, false
	}
}

// Timers fire when the clock is moved to or past their due time, not before, and only once.
func TestClockTimersFireWhenMoved(t *testing.T) {
	c := gametest.NewClock(start)
	one, _ := c.Timer(time.Second)
	three, _ := c.Timer(3 * time.Second)
	if made, pending := c.Timers(); made != 2 || pending != 2 {
		t.Fatalf("Timers = %d, %d; want 2, 2", made, pending)
	}
	c.Add(999 * time.Millisecond)
	if _, ok := fired(one); ok {
		t.Fatal("a 1s timer fired at 999ms")
	}
	c.Add(time.Millisecond)
	if at, ok := fired(one); !ok || !at.Equal(start.Add(time.Second)) {
		t.Fatalf("the 1s timer at 1s: %v, %v; want fired with the clock's time", at, ok)
	}
	if _, ok := fired(three); ok {
		t.Fatal("the 3s timer fired at 1s")
	}
	c.Add(5 * time.Second)
	if at, ok := fired(three); !ok || !at.Equal(start.Add(6*time.Second)) {
		t.Fatalf("the 3s timer at 6s: %v, %v", at, ok)
	}
	c.Add(time.Hour)
	if _, ok := fired(one); ok {
		t.Fatal("a timer fired twice")
	}
	if made, pending := c.Timers(); made != 2 || pending != 0 {
		t.Fatalf("Timers = %d, %d; want 2, 0", made, pending)
	}
	if got := c.Now(); !got.Equal(start.Add(time.Hour + 6*time.Second)) {
		t.Fatalf("Now = %v", got)
	}
}

// A stopped timer never fires; stop reports whether it was still waiting. A timer of no
// duration has fired when Timer returns.
func TestClockTimerStopAndZero(t *testing.T) {
	c := gametest.NewClock(start)
	ch, stop := c.Timer(time.Second)
	if !stop() {
		t.Fatal("stop of a waiting timer = false")
	}
	if stop() {
		t.Fatal("a second stop = true")
	}
	c.Add(time.Second)
	if _, ok := fired(ch); ok {
		t.Fatal("a stopped timer fired")
	}
	ch, stop = c.Timer(time.Second)
	c.Add(time.Second)
	if stop() {
		t.Fatal("stop of a fired timer = true")
	}
	if _, ok := fired(ch); !ok {
		t.Fatal("stop after firing took the value back")
	}
	now, _ := c.Timer(0)
	if _, ok := fired(now); !ok {
		t.Fatal("a timer of 0 has not fired")
	}
	if made, pending := c.Timers(); made != 3 || pending != 0 {
		t.Fatalf("Timers = %d, %d; want 3, 0", made, pending)
	}
}

// With AutoAdvance a timer moves the clock to its due time and fires at once, and so does a
// timer made earlier that is due by then.
func TestClockAutoAdvance(t *testing.T) {
	c := gametest.NewClock(start)
	early, _ := c.Timer(2 * time.Second)
	c.AutoAdvance()
	late, _ := c.Timer(5 * time.Second)
	if _, ok := fired(late); !ok {
		t.Fatal("the timer made after AutoAdvance did not fire at once")
	}
	if _, ok := fired(early); !ok {
		t.Fatal("the earlier timer due by then did not fire")
	}
	if got := c.Now(); !got.Equal(start.Add(5 * time.Second)) {
		t.Fatalf("Now = %v, want 5s on", got.Sub(start))
	}
}

// AwaitTimers returns once another goroutine's timer waits, with its due time; Changed is
// closed when the clock moves.
func TestClockAwaitTimers(t *testing.T) {
	c := gametest.NewClock(start)
	if next := c.AwaitTimers(t, 0, 0); !next.Equal(start) {
		t.Fatalf("AwaitTimers with none waiting = %v, want the clock's time", next)
	}
	done := make(chan time.Time)
	go func() {
		ch, _ := c.Timer(7 * time.Second)
		done <- <-ch
	}()
	if next := c.AwaitTimers(t, 1, 1); !next.Equal(start.Add(7 * time.Second)) {
		t.Fatalf("AwaitTimers = %v, want 7s on", next.Sub(start))
	}
	changed := c.Changed()
	c.Add(7 * time.Second)
	select {
	case <-changed:
	default:
		t.Fatal("Changed not closed after Add")
	}
	if at := gametest.Receive(t, done, "the timer never fired"); !at.Equal(start.Add(7 * time.Second)) {
		t.Fatalf("fired at %v", at)
	}
}
