package bot

import (
	"context"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/game/gametest"
)

var t0 = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// admitN admits n updates of user id at now and counts the verdicts, ending each admitted one.
func admitN(u *userBudgets, id int64, now time.Time, n int) (ok, notices, drops int) {
	for range n {
		s, v := u.admit(id, now, byMessage)
		switch v {
		case admitted:
			ok++
			u.done(s)
		case noticed:
			notices++
		case dropped:
			drops++
		}
	}
	return ok, notices, drops
}

func TestUserBudgetBurstRefillNotice(t *testing.T) {
	u := newUserBudgets(Budget{Rate: 5, Per: time.Second, Burst: 20})
	if ok, n, d := admitN(u, 1, t0, 100); ok != 20 || n != 1 || d != 79 {
		t.Fatalf("100 at once: %d admitted, %d noticed, %d dropped; want 20, 1, 79", ok, n, d)
	}
	// A second later: five more, and no notice before NoticeEvery has passed.
	if ok, n, _ := admitN(u, 1, t0.Add(time.Second), 100); ok != 5 || n != 0 {
		t.Fatalf("a second later: %d admitted, %d noticed; want 5, 0", ok, n)
	}
	if _, n, _ := admitN(u, 1, t0.Add(DefaultNoticeEvery), 100); n != 1 {
		t.Fatalf("after NoticeEvery: %d notices, want 1", n)
	}
	// An update that cannot carry the answer does not start the window.
	later := t0.Add(2 * DefaultNoticeEvery)
	for i := 0; ; i++ {
		s, v := u.admit(1, later, mute)
		if v == admitted && i < 100 {
			u.done(s)
			continue
		}
		if v != dropped {
			t.Fatalf("over budget, no notice possible: %v, want dropped", v)
		}
		break
	}
	if _, v := u.admit(1, later, byMessage); v != noticed {
		t.Fatalf("then one that can carry it: %v, want noticed", v)
	}
	// Another user is untouched.
	if ok, _, _ := admitN(u, 2, t0, 20); ok != 20 {
		t.Fatalf("another user admitted %d of 20", ok)
	}
}

func TestUserBudgetInFlight(t *testing.T) {
	u := newUserBudgets(Budget{Rate: 5, Per: time.Second, Burst: 20, InFlight: 2})
	a, v1 := u.admit(1, t0, byMessage)
	_, v2 := u.admit(1, t0, byMessage)
	_, v3 := u.admit(1, t0, byMessage)
	if v1 != admitted || v2 != admitted || v3 == admitted {
		t.Fatalf("three at once with InFlight 2: %v %v %v; want the third refused", v1, v2, v3)
	}
	u.done(a)
	if _, v := u.admit(1, t0, byMessage); v != admitted {
		t.Fatalf("after one ended: %v, want admitted", v)
	}
}

// Memory stays bounded however many user ids come, and idle users are forgotten.
func TestUserBudgetBounded(t *testing.T) {
	u := newUserBudgets(Budget{Rate: 5, Per: time.Second, Burst: 20, Users: 1024})
	for id := range int64(200000) {
		admitN(u, id, t0, 1)
	}
	if n := u.size(); n > 1024 {
		t.Fatalf("%d users remembered, want at most 1024", n)
	}
	// Idle past a full refill and the notice window, users are forgotten as new ones come:
	// two for each new one, so the map shrinks by one each time.
	later := t0.Add(u.forget)
	for id := range int64(100) {
		admitN(u, 1e9+id, later, 1)
	}
	if n := u.size(); n > 1024-100 {
		t.Fatalf("%d users remembered after 100 new ones came to 1024 idle ones, want at most %d", n, 1024-100)
	}
}

// An idle user is forgotten when a new one comes, unless an update of theirs is in flight.
func TestUserBudgetForgetsIdle(t *testing.T) {
	u := newUserBudgets(DefaultBudget)
	const busy, idle, late = 3, 3 + budgetShards, 3 + 2*budgetShards // one shard
	s, _ := u.admit(busy, t0, byMessage)
	admitN(u, idle, t0, 1)
	admitN(u, late, t0.Add(u.forget), 1)
	if _, ok := u.shard(busy).m[busy]; !ok {
		t.Error("a user with an update in flight was forgotten for being idle")
	}
	if _, ok := u.shard(idle).m[idle]; ok {
		t.Error("an idle user was not forgotten")
	}
	u.done(s)
}

func BenchmarkUserBudgetAdmit(b *testing.B) {
	u := newUserBudgets(DefaultBudget)
	b.ReportAllocs()
	for i := range b.N {
		s, v := u.admit(int64(i&1023), t0, byMessage)
		if v == admitted {
			u.done(s)
		}
	}
}

// sharedRoom is a RateLimiter with room for a number of updates in all.
type sharedRoom struct {
	room, calls int
}

func (s *sharedRoom) AllowUpdate(context.Context, int64, int, time.Duration, int) (bool, time.Duration, error) {
	s.calls++
	if s.room > 0 {
		s.room--
		return true, 0, nil
	}
	return false, time.Second, nil
}

// The budget's two halves: admit refuses beyond the burst (one notice, the rest dropped), the
// middleware refuses what the shared limiter refuses, noticing at most once per window.
func TestBudgetHalves(t *testing.T) {
	clock := gametest.NewClock(t0)
	var notices []int64
	notify := func(_ context.Context, u *models.Update) error { notices = append(notices, u.ID); return nil }
	newG := func(burst int, shared RateLimiter) *budget {
		return newBudget(Budget{Rate: 1, Per: time.Hour, Burst: burst}, shared, notify, clock.Now,
			discard, nil, func(err error) string { return err.Error() })
	}

	// This process's half: the burst, then one notice verdict (which the Intake sends) and drops.
	g := newG(3, nil)
	verdicts := map[verdict]int{}
	for i := range 10 {
		_, v := g.admit(tapUpdate(int64(100+i), 9))
		verdicts[v]++
	}
	if verdicts[admitted] != 3 || verdicts[noticed] != 1 || verdicts[dropped] != 6 {
		t.Fatalf("10 taps at once with a burst of 3: %v; want 3 admitted, 1 noticed, 6 dropped", verdicts)
	}

	// The shared half, behind a per-process half with room.
	shared := &sharedRoom{room: 2}
	g = newG(100, shared)
	var c counter
	h := g.middleware(c.handle)
	run := func(id int64) string {
		f, v := g.admit(tapUpdate(id, 9))
		if v != admitted {
			t.Fatalf("update %d: %v by this process's half", id, v)
		}
		defer g.done(f)
		ctx, o := trackOutcome(withFlight(context.Background(), f))
		h(ctx, tapUpdate(id, 9))
		return o.name
	}
	var outcomes []string
	for i := range 5 {
		outcomes = append(outcomes, run(int64(i)))
	}
	if c.calls() != 2 || outcomes[1] != outcomeOK || outcomes[2] != outcomeOverBudget || g.overBudget.Load() != 3 {
		t.Fatalf("shared room for 2 of 5: %d handled, outcomes %v, %d over budget; want 2, 3 over budget", c.calls(), outcomes, g.overBudget.Load())
	}
	if len(notices) != 1 || notices[0] != 2 {
		t.Fatalf("notices %v, want one, for the first update over the shared budget (2)", notices)
	}
	clock.Add(DefaultTapNoticeEvery / 2)
	run(10)
	clock.Add(DefaultTapNoticeEvery / 2)
	run(11)
	run(12)
	if len(notices) != 2 || notices[1] != 11 || g.notices.Load() != 2 {
		t.Fatalf("notices %v, want a second one once the window passed, for 11", notices)
	}
	// An update that admit did not see (ProcessUpdate) does not touch the shared limiter.
	calls := shared.calls
	h(context.Background(), tapUpdate(300, 9))
	if shared.calls != calls || c.calls() != 3 {
		t.Fatalf("an update without admission: %d shared calls, %d handled; want none, 3", shared.calls-calls, c.calls())
	}
	// Nobody known: admitted without a budget.
	if f, v := g.admit(&models.Update{ID: 1, InlineQuery: &models.InlineQuery{}}); f != nil || v != admitted {
		t.Fatalf("update of nobody: %v, %v; want admitted without a budget", f, v)
	}
}
