package telegram

import (
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// admitN admits n updates of user id at now and counts the verdicts, ending each admitted one.
func admitN(u *userBudgets, id int64, now time.Time, n int) (ok, notices, drops int) {
	for range n {
		s, v := u.admit(id, now, true)
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
		s, v := u.admit(1, later, false)
		if v == admitted && i < 100 {
			u.done(s)
			continue
		}
		if v != dropped {
			t.Fatalf("over budget, no notice possible: %v, want dropped", v)
		}
		break
	}
	if _, v := u.admit(1, later, true); v != noticed {
		t.Fatalf("then one that can carry it: %v, want noticed", v)
	}
	// Another user is untouched.
	if ok, _, _ := admitN(u, 2, t0, 20); ok != 20 {
		t.Fatalf("another user admitted %d of 20", ok)
	}
}

func TestUserBudgetInFlight(t *testing.T) {
	u := newUserBudgets(Budget{Rate: 5, Per: time.Second, Burst: 20, InFlight: 2})
	a, v1 := u.admit(1, t0, true)
	_, v2 := u.admit(1, t0, true)
	_, v3 := u.admit(1, t0, true)
	if v1 != admitted || v2 != admitted || v3 == admitted {
		t.Fatalf("three at once with InFlight 2: %v %v %v; want the third refused", v1, v2, v3)
	}
	u.done(a)
	if _, v := u.admit(1, t0, true); v != admitted {
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
	s, _ := u.admit(busy, t0, true)
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
		s, v := u.admit(int64(i&1023), t0, true)
		if v == admitted {
			u.done(s)
		}
	}
}
