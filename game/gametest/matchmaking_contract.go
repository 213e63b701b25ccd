package gametest

import (
	"testing"
	"time"

	"github.com/reversibot/reversi/game"
)

// TestMatchmaking checks that the stores newStore makes over the clock c keep the contract of
// game.Matchmaking (the store must read its time from c.Now and use game.DefaultQueueTTL): a
// waiter is paired with the longest waiting other person, never with itself, and handed to one
// caller only among racing ones; a new entry replaces the person's earlier one; Requeue and
// LeaveQueue; and the searches (testSearches).
func TestMatchmaking(t *testing.T, newStore func(t *testing.T, c *Clock) game.Matchmaking) {
	t.Helper()
	tests := []struct {
		name string
		run  func(t *testing.T, s game.Matchmaking, c *Clock)
	}{
		{"Queue", func(t *testing.T, s game.Matchmaking, _ *Clock) { testQueue(t, s) }},
		{"RacingEnqueues", func(t *testing.T, s game.Matchmaking, _ *Clock) { testRacingEnqueues(t, s) }},
		{"Invalid", func(t *testing.T, s game.Matchmaking, _ *Clock) { testQueueInvalid(t, s) }},
		{"Searches", testSearches},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := NewClock(time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC))
			tc.run(t, newStore(t, c), c)
		})
	}
}

func testQueue(t *testing.T, s game.Matchmaking) {
	w := func(u int64) game.Waiter { return game.Waiter{UserID: u, ChatID: u, Name: "W", Lang: "en"} }
	if opp, err := s.Enqueue(bg, 8, w(1)); err != nil || opp != nil {
		t.Fatalf("first Enqueue = %v, %v; want queued", opp, err)
	}
	if opp, err := s.Enqueue(bg, 8, w(1)); err != nil || opp != nil {
		t.Fatalf("Enqueue of the same user again = %v, %v; never paired with itself", opp, err)
	}
	if opp, err := s.Enqueue(bg, 10, w(2)); err != nil || opp != nil {
		t.Fatalf("Enqueue for another size = %v, %v; want queued", opp, err)
	}
	opp, err := s.Enqueue(bg, 8, w(3))
	if err != nil || opp == nil || *opp != w(1) {
		t.Fatalf("Enqueue with someone waiting = %v, %v; want user 1", opp, err)
	}
	// Both left the queue: 3 was not queued, 1 was taken.
	if ok, err := s.LeaveQueue(bg, 1); err != nil || ok {
		t.Fatalf("LeaveQueue of a paired user = %v, %v", ok, err)
	}
	if ok, err := s.LeaveQueue(bg, 3); err != nil || ok {
		t.Fatalf("LeaveQueue of a user Enqueue paired at once = %v, %v", ok, err)
	}
	// A new entry replaces the user's entry for another size.
	if opp, err := s.Enqueue(bg, 8, w(2)); err != nil || opp != nil {
		t.Fatalf("Enqueue of user 2 for 8×8 = %v, %v", opp, err)
	}
	if opp, err := s.Enqueue(bg, 10, w(4)); err != nil || opp != nil {
		t.Fatalf("Enqueue for 10×10 found %v (%v) though user 2 moved to 8×8", opp, err)
	}
	if ok, err := s.Requeue(bg, 8, w(2)); err != nil || ok {
		t.Fatalf("Requeue of a user who waits = %v, %v; want false", ok, err)
	}
	if ok, err := s.LeaveQueue(bg, 2); err != nil || !ok {
		t.Fatalf("LeaveQueue of a waiting user = %v, %v", ok, err)
	}
	if ok, err := s.Requeue(bg, 8, w(2)); err != nil || !ok {
		t.Fatalf("Requeue = %v, %v; want true", ok, err)
	}
	if opp, err := s.Enqueue(bg, 8, w(5)); err != nil || opp == nil || opp.UserID != 2 {
		t.Fatalf("Enqueue after a Requeue = %v, %v; want user 2", opp, err)
	}
}

func testRacingEnqueues(t *testing.T, s game.Matchmaking) {
	const n = 10
	got := make([]*game.Waiter, n)
	errs := race(n, func(i int) error {
		u := int64(100 + i)
		opp, err := s.Enqueue(bg, 8, game.Waiter{UserID: u, ChatID: u})
		got[i] = opp
		return err
	})
	for _, err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	taken := map[int64]int64{}
	for i, opp := range got {
		if opp == nil {
			continue
		}
		u := int64(100 + i)
		if opp.UserID == u {
			t.Fatalf("user %d was paired with itself", u)
		}
		if by, ok := taken[opp.UserID]; ok {
			t.Fatalf("user %d was handed to %d and %d", opp.UserID, by, u)
		}
		taken[opp.UserID] = u
	}
	if len(taken) != n/2 {
		t.Fatalf("%d pairs of %d racing users, want %d", len(taken), n, n/2)
	}
}

func testQueueInvalid(t *testing.T, s game.Matchmaking) {
	_, err := s.Enqueue(bg, 9, game.Waiter{UserID: 1})
	wantCode(t, "Enqueue for size 9", err, game.ErrInvalid)
	_, err = s.Enqueue(bg, 8, game.Waiter{})
	wantCode(t, "Enqueue without a user", err, game.ErrInvalid)
}
