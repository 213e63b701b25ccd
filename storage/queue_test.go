package storage_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/storage/storagetest"
)

func TestEnqueuePairs(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	a := game.Waiter{UserID: 1, ChatID: 1, Name: "Ann", Lang: "en"}
	b := game.Waiter{UserID: 2, ChatID: 2, Name: "Бо", Lang: "ru"}
	c := game.Waiter{UserID: 3, ChatID: 3, Name: "Cy"}

	steps := []struct {
		size int
		w    game.Waiter
		want *game.Waiter
	}{
		{8, a, nil},
		{8, a, nil},  // again: never paired with self
		{10, b, nil}, // other size: no pairing
		{8, c, &a},   // pairs with a, who leaves the queue
		{8, b, nil},  // b moves to size 8 (and out of 10); a is gone
		{10, a, nil}, // b no longer waits for 10
		{8, a, &b},
	}
	for i, st := range steps {
		got, err := s.Enqueue(ctx, st.size, st.w)
		if err != nil {
			t.Fatalf("step %d: Enqueue: %v", i, err)
		}
		if (got == nil) != (st.want == nil) || got != nil && *got != *st.want {
			t.Fatalf("step %d: Enqueue(%d, %s) = %+v, want %+v", i, st.size, st.w.Name, got, st.want)
		}
	}
	// The last step paired a, so a waits nowhere.
	if left, err := s.LeaveQueue(ctx, a.UserID); err != nil || left {
		t.Errorf("LeaveQueue(a) = %v, %v; want false (a was paired)", left, err)
	}
	if _, err := s.Enqueue(ctx, 12, c); err != nil {
		t.Fatal(err)
	}
	if left, err := s.LeaveQueue(ctx, c.UserID); err != nil || !left {
		t.Errorf("LeaveQueue(c) = %v, %v; want true", left, err)
	}
	if got, err := s.Enqueue(ctx, 12, a); err != nil || got != nil {
		t.Errorf("Enqueue after c left = %+v, %v; want queued", got, err)
	}
	if _, err := s.Enqueue(ctx, 9, a); !errors.Is(err, game.ErrInvalid) {
		t.Errorf("Enqueue(size 9) = %v, want ErrInvalid", err)
	}
}

// TestEnqueueRace: 100 people join one queue at once; they must form exactly 50 pairs,
// everyone in exactly one pair.
func TestEnqueueRace(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	const n = 100
	var (
		mu      sync.Mutex
		partner = make(map[int64]int64)
	)
	atOnce(n, func(i int) {
		w := game.Waiter{UserID: int64(1000 + i), ChatID: int64(1000 + i)}
		opp, err := s.Enqueue(ctx, 8, w)
		if err != nil {
			t.Error(err)
			return
		}
		if opp == nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		for _, id := range []int64{w.UserID, opp.UserID} {
			if _, dup := partner[id]; dup {
				t.Errorf("user %d paired twice", id)
			}
		}
		partner[w.UserID], partner[opp.UserID] = opp.UserID, w.UserID
	})
	if len(partner) != n {
		t.Fatalf("%d of %d people paired", len(partner), n)
	}
	for a, b := range partner {
		if a == b || partner[b] != a {
			t.Fatalf("bad pair %d-%d", a, b)
		}
	}
}

func TestFirstSeen(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	var wg sync.WaitGroup
	var mu sync.Mutex
	firsts := 0
	for range 50 {
		wg.Go(func() {
			ok, err := s.FirstSeen(ctx, 123456)
			if err != nil {
				t.Error(err)
			}
			if ok {
				mu.Lock()
				firsts++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if firsts != 1 {
		t.Fatalf("FirstSeen true %d times, want once", firsts)
	}
	if ok, err := s.FirstSeen(ctx, 123457); err != nil || !ok {
		t.Fatalf("FirstSeen(new id) = %v, %v; want true", ok, err)
	}
}
