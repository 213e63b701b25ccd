package storage_test

import (
	"context"
	"testing"
	"time"

	"github.com/reversibot/reversi/storage"
	"github.com/reversibot/reversi/storage/storagetest"
)

// takePace calls Take n times on key with a budget of burst 2 refilled once an hour and
// returns how many were allowed.
func takePace(t *testing.T, b *storage.PaceBudgets, key string, n int) int {
	t.Helper()
	allowed := 0
	for range n {
		wait, err := b.Take(context.Background(), key, 1, time.Hour, 2)
		if err != nil {
			t.Fatalf("Take: %v", err)
		}
		if wait == 0 {
			allowed++
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
	wait, err := b.PaceBudgets().Take(ctx, "p:1", 1, time.Second, 3)
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
	if wait, err := s.PaceBudgets().Take(ctx, "i:abc", 1, time.Second, 1); err != nil || wait != 0 {
		t.Fatalf("Take after the hold = %v, %v; want 0, nil", wait, err)
	}
}
