package storage_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"

	"github.com/reversibot/reversi/storage"
	"github.com/reversibot/reversi/storage/storagetest"
)

// takePace calls Take n times on key with a budget of burst 2 refilled once an hour, ending
// each call it lets go at once, and returns how many were allowed.
func takePace(t *testing.T, b *storage.PaceBudgets, key string, n int) int {
	t.Helper()
	ctx := context.Background()
	allowed := 0
	for i := range n {
		id := fmt.Sprintf("%s-%d-%d", t.Name(), allowed, i)
		wait, err := b.Take(ctx, key, id, 1, time.Hour, 2)
		if err != nil {
			t.Fatalf("Take: %v", err)
		}
		if wait == 0 {
			allowed++
			if err := b.End(ctx, key, id, true); err != nil {
				t.Fatalf("End: %v", err)
			}
		} else if wait < time.Minute {
			t.Errorf("refused with wait %v, want about the hour's refill", wait)
		}
	}
	return allowed
}

// Two processes (two stores on their own connections, one Redis and prefix) spend one budget,
// and another key's budget is its own.
func TestPaceBudgetsShared(t *testing.T) {
	a, b := storagetest.NewPair(t)
	got := takePace(t, a.PaceBudgets(), "g:-5", 1) + takePace(t, b.PaceBudgets(), "g:-5", 3)
	if got != 2 {
		t.Fatalf("two stores allowed %d in all, want the one budget's burst 2", got)
	}
	if got := takePace(t, b.PaceBudgets(), "g:-6", 1); got != 1 {
		t.Fatalf("another chat allowed %d of 1", got)
	}
}

// A hold refuses the budget until it ends, in every process, and a shorter hold does not
// cut a longer one.
func TestPaceBudgetsHold(t *testing.T) {
	a, b := storagetest.NewPair(t)
	ctx := context.Background()
	if err := a.PaceBudgets().Hold(ctx, "p:1", 30*time.Second); err != nil {
		t.Fatal(err)
	}
	if err := a.PaceBudgets().Hold(ctx, "p:1", time.Second); err != nil {
		t.Fatal(err)
	}
	wait, err := b.PaceBudgets().Take(ctx, "p:1", "x", 1, time.Second, 3)
	if err != nil {
		t.Fatal(err)
	}
	if wait <= 20*time.Second || wait > 30*time.Second {
		t.Fatalf("Take on a held budget waits %v, want the 30 s hold", wait)
	}
	if got := takePace(t, b.PaceBudgets(), "p:2", 1); got != 1 {
		t.Fatalf("another chat allowed %d of 1 while p:1 is held", got)
	}
}

// A held budget is free again when its hold ends (the embedded Redis's clock is moved).
func TestPaceBudgetsHoldEnds(t *testing.T) {
	s, m := storagetest.NewEmbedded(t)
	ctx := context.Background()
	if err := s.PaceBudgets().Hold(ctx, "i:abc", 5*time.Second); err != nil {
		t.Fatal(err)
	}
	m.FastForward(6 * time.Second)
	if wait, err := s.PaceBudgets().Take(ctx, "i:abc", "x", 1, time.Second, 1); err != nil || wait != 0 {
		t.Fatalf("Take after the hold = %v, %v; want 0, nil", wait, err)
	}
}

// redisClock moves the embedded Redis's clock (TIME, which the budgets go by). It is no fake of
// a clock the code under test is given, so it is not gametest.Clock: PaceBudgets reads the
// time from the server inside its scripts, and the only way to move that time is the
// embedded server's own (miniredis SetTime).
type redisClock struct {
	m   *miniredis.Miniredis
	now time.Time
}

func newRedisClock(m *miniredis.Miniredis) *redisClock {
	c := &redisClock{m: m, now: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}
	m.SetTime(c.now)
	return c
}

func (c *redisClock) advance(d time.Duration) { c.now = c.now.Add(d); c.m.SetTime(c.now) }

// take is Take of a group's budget (twenty a minute, a burst of three) that fails the test on
// an error.
func take(t *testing.T, b *storage.PaceBudgets, id string) time.Duration {
	t.Helper()
	wait, err := b.Take(context.Background(), "g:-1", id, 20, time.Minute, 3)
	if err != nil {
		t.Fatal(err)
	}
	return wait
}

// end is End that fails the test on an error.
func end(t *testing.T, b *storage.PaceBudgets, id string, answered bool) {
	t.Helper()
	if err := b.End(context.Background(), "g:-1", id, answered); err != nil {
		t.Fatal(err)
	}
}

// A group's budget lets twenty calls go in any minute, wherever it starts, though its rate
// with the burst on top would let 23 go in the first: three at once, then one every three
// seconds, and the 21st waits until the first three have left the minute.
func TestPaceBudgetsWindow(t *testing.T) {
	s, m := storagetest.NewEmbedded(t)
	c := newRedisClock(m)
	b := s.PaceBudgets()
	sent := 0
	for i := 0; sent < 20; i++ {
		id := fmt.Sprint("call", i)
		wait := take(t, b, id)
		if wait == 0 {
			end(t, b, id, true)
			sent++
			continue
		}
		if sent < 3 || wait != 3*time.Second {
			t.Fatalf("call %d waits %v after %d went, want the rate's 3s after the burst", i, wait, sent)
		}
		c.advance(wait)
	}
	if at := c.now.Sub(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)); at != 51*time.Second {
		t.Fatalf("the 20th call went at %v, want 51s", at)
	}
	c.advance(3 * time.Second) // the rate has room again; the minute has not
	if wait := take(t, b, "21st"); wait != 6*time.Second {
		t.Fatalf("the 21st call within the minute waits %v, want 6s (until the burst leaves it)", wait)
	}
	c.advance(6 * time.Second)
	if wait := take(t, b, "21st"); wait != 0 {
		t.Fatalf("the 21st call a minute after the first waits %v", wait)
	}
}

// A call counts from Take until End: while it is in flight it holds its place in every
// window, however long; answered, it leaves each window a window after its end; never made,
// it leaves at once. A call whose End never comes counts as ended a minute after it went.
func TestPaceBudgetsCallsInFlight(t *testing.T) {
	s, m := storagetest.NewEmbedded(t)
	c := newRedisClock(m)
	b := s.PaceBudgets()
	ctx := context.Background()
	takeOne := func(id string) time.Duration { // one call in any second
		t.Helper()
		wait, err := b.Take(ctx, "p:1", id, 1, time.Second, 1)
		if err != nil {
			t.Fatal(err)
		}
		return wait
	}
	if wait := takeOne("a"); wait != 0 {
		t.Fatalf("first call waits %v", wait)
	}
	c.advance(5 * time.Second)
	if wait := takeOne("b"); wait != time.Second {
		t.Fatalf("a call while another is in flight waits %v, want a window (1s) before it looks again", wait)
	}
	if err := b.End(ctx, "p:1", "a", true); err != nil {
		t.Fatal(err)
	}
	c.advance(999 * time.Millisecond)
	if wait := takeOne("b"); wait != time.Millisecond {
		t.Fatalf("a call 999ms after the last one was answered waits %v, want 1ms", wait)
	}
	c.advance(time.Millisecond)
	if wait := takeOne("b"); wait != 0 {
		t.Fatalf("a call a second after the last one was answered waits %v", wait)
	}
	// b is never made: it no longer counts.
	if err := b.End(ctx, "p:1", "b", false); err != nil {
		t.Fatal(err)
	}
	c.advance(time.Second) // the GCRA's interval
	if wait := takeOne("c"); wait != 0 {
		t.Fatalf("a call after one given back waits %v", wait)
	}
	// c never ends (its process died): it counts as in flight until 5 s after it went, then
	// as ended then, for the window.
	c.advance(4 * time.Second)
	if wait := takeOne("d"); wait != time.Second {
		t.Fatalf("a call 4s after one left in flight waits %v, want 1s", wait)
	}
	c.advance(1999 * time.Millisecond)
	if wait := takeOne("d"); wait != time.Millisecond {
		t.Fatalf("a call 5.999s after one left in flight waits %v, want 1ms", wait)
	}
	c.advance(time.Millisecond)
	if wait := takeOne("d"); wait != 0 {
		t.Fatalf("a call 6s after one left in flight waits %v", wait)
	}
}
