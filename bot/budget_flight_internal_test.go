package bot

import (
	"context"
	"testing"
	"time"

	"github.com/reversibot/reversi/bot/botapi"
	"github.com/reversibot/reversi/game/gametest"
)

// counts returns user id's updates at work and waiting for pacing.
func (u *userBudgets) counts(id int64) (inFlight, pacing int) {
	sh := u.shard(id)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	s := sh.m[id]
	return s.inFlight, s.pacing
}

// An update waiting for pacing does not count against its user's InFlight: while two wait,
// two more are admitted; the waiters count again when their waits end (over the bound, which
// then holds for new updates); and a flight counts no more once it ended, whatever its hook
// is told after.
func TestFlightPacing(t *testing.T) {
	g := newBudget(Budget{Rate: 100, Per: time.Second, Burst: 100, InFlight: 2}, nil, nil,
		gametest.NewClock(t0).Now, discard, nil, nil)
	admit := func() (*flight, verdict) { return g.admit(tapUpdate(1, 7)) }
	a, _ := admit()
	b, _ := admit()
	if _, v := admit(); v == admitted {
		t.Fatal("a third update admitted with two at work and InFlight 2")
	}
	doneA, doneB := a.paced(), b.paced()
	doneA2 := a.paced() // a second send of a's handler waits too
	if n, p := g.users.counts(7); n != 0 || p != 2 {
		t.Fatalf("two updates waiting for pacing: %d at work, %d waiting; want 0, 2", n, p)
	}
	c, v1 := admit()
	d, v2 := admit()
	if v1 != admitted || v2 != admitted {
		t.Fatalf("while two wait for pacing: %v, %v; want two more admitted", v1, v2)
	}
	doneA()
	if n, p := g.users.counts(7); n != 2 || p != 2 {
		t.Fatalf("one of a's two waits ended: %d at work, %d waiting; want 2, 2", n, p)
	}
	doneA2()
	doneB()
	if n, p := g.users.counts(7); n != 4 || p != 0 {
		t.Fatalf("the waits ended: %d at work, %d waiting; want 4, 0", n, p)
	}
	if _, v := admit(); v == admitted {
		t.Fatal("admitted with four at work")
	}
	// d ends while it waits; its hook's later calls change nothing.
	doneD := d.paced()
	g.done(d)
	doneD()
	if d.paced() != nil {
		t.Fatal("an ended flight's hook gave a func to call")
	}
	g.done(d)
	for _, f := range []*flight{a, b, c} {
		g.done(f)
	}
	if n, p := g.users.counts(7); n != 0 || p != 0 {
		t.Fatalf("all ended: %d at work, %d waiting; want 0, 0", n, p)
	}
}

// The flight of an admitted update reaches the pacing through the handler's context: a Wait
// made with it frees the user's slot while it waits, and takes it again when it returns.
func TestFlightInContext(t *testing.T) {
	g := newBudget(Budget{Rate: 100, Per: time.Second, Burst: 100, InFlight: 1}, nil, nil,
		gametest.NewClock(t0).Now, discard, nil, nil)
	f, _ := g.admit(tapUpdate(1, 8))
	ctx := withFlight(context.Background(), f)
	if flightOf(ctx) != f {
		t.Fatal("the flight is not in its context")
	}
	clock := gametest.NewClock(t0)
	p := botapi.NewPacer(botapi.PaceOptions{Clock: clock,
		Limits: botapi.PaceLimits{Private: botapi.Limit{Rate: 1, Per: time.Hour, Burst: 1}}})
	chat := botapi.ChatOf(8)
	if _, err := p.Wait(ctx, chat, botapi.PaceBoard); err != nil { // the burst: at once
		t.Fatal(err)
	}
	if _, v := g.admit(tapUpdate(2, 8)); v == admitted {
		t.Fatal("a second update admitted while the first works, with InFlight 1")
	}
	wctx, cancel := context.WithCancel(ctx)
	waiting := make(chan error, 1)
	go func() { _, err := p.Wait(wctx, chat, botapi.PaceBoard); waiting <- err }()
	clock.AwaitTimers(t, 1, 1) // the second Wait waits for the chat's budget
	second, v := g.admit(tapUpdate(3, 8))
	if v != admitted {
		t.Fatalf("while the first waits for pacing: %v, want admitted", v)
	}
	g.done(second)
	cancel()
	<-waiting
	if n, p := g.users.counts(8); n != 1 || p != 0 {
		t.Fatalf("after the Wait: %d at work, %d waiting; want 1, 0", n, p)
	}
	g.done(f)
}

// Taps over the budget get a "slow down" toast once per TapNoticeEvery, whatever became of
// the user's messages; messages keep their own window.
func TestUserBudgetTapNotices(t *testing.T) {
	u := newUserBudgets(Budget{Rate: 5, Per: time.Second, Burst: 20})
	taps := func(now time.Time, n int) (ok, toasts int) {
		for range n {
			s, v := u.admit(1, now, byToast)
			switch v {
			case admitted:
				ok++
				u.done(s)
			case noticed:
				toasts++
			}
		}
		return ok, toasts
	}
	if _, v := u.admit(1, t0, byMessage); v != admitted {
		t.Fatalf("a first message: %v", v)
	}
	if ok, n := taps(t0, 100); ok != 19 || n != 1 {
		t.Fatalf("100 taps at once: %d admitted, %d toasts; want 19, 1", ok, n)
	}
	if _, v := u.admit(1, t0, byMessage); v != noticed {
		t.Fatalf("a message over budget after a toast: %v, want noticed (its own window)", v)
	}
	for i := 1; i <= 12; i++ {
		now := t0.Add(time.Duration(i) * DefaultTapNoticeEvery)
		// A second on, the bucket has 5 more and the toast window opened again.
		if ok, n := taps(now, 50); ok != 5 || n != 1 {
			t.Fatalf("second %d: %d taps admitted, %d toasts; want 5, 1", i, ok, n)
		}
	}
}
