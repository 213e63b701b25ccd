package gametest

import (
	"testing"
	"time"

	"github.com/reversibot/reversi/game"
)

// testSearches checks the matchmaking searches of s over the clock c (TestMatchmaking):
// Searching shows a
// search while it waits, with its size, message and deadline; a newer search of the same
// person replaces it; past the deadline it waits no longer (LeaveQueue, Enqueue and Searching
// pass it by) and ExpireSearches hands it out once, up to its max at a time.
func testSearches(t *testing.T, s game.Matchmaking, c *Clock) {
	w := func(u int64, msg int) game.Waiter {
		return game.Waiter{UserID: u, ChatID: u, Name: "W", Lang: "ru", MsgID: msg}
	}
	if se, err := s.Searching(bg, 1); err != nil || se != nil {
		t.Fatalf("Searching of nobody = %+v, %v", se, err)
	}
	if opp, err := s.Enqueue(bg, 8, w(1, 11)); err != nil || opp != nil {
		t.Fatalf("Enqueue = %v, %v", opp, err)
	}
	start := c.Now()
	se, err := s.Searching(bg, 1)
	if err != nil || se == nil || se.Size != 8 || se.Waiter != w(1, 11) || !se.Until.Equal(start.Add(game.DefaultQueueTTL)) {
		t.Fatalf("Searching = %+v, %v; want 8×8, message 11, until %v", se, err, start.Add(game.DefaultQueueTTL))
	}
	c.Add(time.Minute)
	if opp, err := s.Enqueue(bg, 10, w(1, 11)); err != nil || opp != nil {
		t.Fatalf("Enqueue for another size = %v, %v", opp, err)
	}
	if se, _ := s.Searching(bg, 1); se == nil || se.Size != 10 || !se.Until.Equal(c.Now().Add(game.DefaultQueueTTL)) {
		t.Fatalf("a newer search did not replace the first: %+v", se)
	}
	if got, err := s.ExpireSearches(bg, 10); err != nil || len(got) != 0 {
		t.Fatalf("ExpireSearches before any deadline = %+v, %v", got, err)
	}
	// Users 2 and 3 wait on 12×12 and 16×16; the deadlines pass for all three.
	for _, q := range []struct {
		u    int64
		size int
	}{{2, 12}, {3, 16}} {
		if opp, err := s.Enqueue(bg, q.size, w(q.u, int(q.u)*10)); err != nil || opp != nil {
			t.Fatalf("Enqueue of %d = %v, %v", q.u, opp, err)
		}
	}
	c.Add(game.DefaultQueueTTL)
	if se, err := s.Searching(bg, 1); err != nil || se != nil {
		t.Fatalf("Searching past the deadline = %+v, %v", se, err)
	}
	if ok, err := s.LeaveQueue(bg, 2); err != nil || ok {
		t.Fatalf("LeaveQueue past the deadline = %v, %v; want false", ok, err)
	}
	if opp, err := s.Enqueue(bg, 10, w(4, 40)); err != nil || opp != nil {
		t.Fatalf("Enqueue found %+v (%v) past its deadline", opp, err)
	}
	got, err := s.ExpireSearches(bg, 2)
	if err != nil || len(got) != 2 {
		t.Fatalf("ExpireSearches(2) = %+v, %v; want two", got, err)
	}
	more, err := s.ExpireSearches(bg, 2)
	if err != nil || len(more) != 1 {
		t.Fatalf("ExpireSearches again = %+v, %v; want the third", more, err)
	}
	seen := map[int64]game.Search{}
	for _, se := range append(got, more...) {
		seen[se.Waiter.UserID] = se
	}
	for u, size := range map[int64]int{1: 10, 2: 12, 3: 16} {
		se, ok := seen[u]
		if !ok || se.Size != size || se.Waiter != w(u, map[int64]int{1: 11, 2: 20, 3: 30}[u]) || se.Until.After(c.Now()) {
			t.Errorf("expired search of %d = %+v (%v); want %d×%d, its message, a deadline passed", u, se, ok, size, size)
		}
	}
	if again, err := s.ExpireSearches(bg, 10); err != nil || len(again) != 0 {
		t.Fatalf("ExpireSearches handed out again: %+v, %v", again, err)
	}
	// User 4, queued later, still waits; a search ended is none.
	if se, _ := s.Searching(bg, 4); se == nil {
		t.Fatal("user 4's search is gone")
	}
	if ok, err := s.LeaveQueue(bg, 4); err != nil || !ok {
		t.Fatalf("LeaveQueue of a waiting user = %v, %v", ok, err)
	}
	if ok, err := s.Requeue(bg, 8, w(1, 11)); err != nil || !ok {
		t.Fatalf("Requeue after the search expired = %v, %v; want queued", ok, err)
	}
	if se, _ := s.Searching(bg, 1); se == nil || se.Size != 8 {
		t.Fatalf("Searching after Requeue = %+v", se)
	}
}
