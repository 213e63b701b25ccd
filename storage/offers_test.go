package storage_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/storage/storagetest"
)

// TestOfferExpiries: an offer's expiry is claimed once it is due and never before, by one
// claimer only; a new offer of the same game replaces its due time (one entry per game); the
// offers' set is not the reminders' set.
func TestOfferExpiries(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	for _, id := range []string{"a", "b"} {
		if err := s.ScheduleOfferExpiry(ctx, id, t0.Add(10*time.Minute)); err != nil {
			t.Fatalf("schedule %s: %v", id, err)
		}
	}
	// b's offer was withdrawn and made again: it expires later.
	if err := s.ScheduleOfferExpiry(ctx, "b", t0.Add(20*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if ids, _, err := s.ClaimReminders(ctx, t0.Add(time.Hour), 10); err != nil || len(ids) != 0 {
		t.Fatalf("the reminders claimed offers: %v, %v", ids, err)
	}
	if ids, _, err := s.ClaimOfferExpiries(ctx, t0.Add(10*time.Minute-time.Millisecond), 10); err != nil || len(ids) != 0 {
		t.Fatalf("claim before due = %v, %v", ids, err)
	}
	if ids, due, err := s.ClaimOfferExpiries(ctx, t0.Add(10*time.Minute), 10); err != nil || !slices.Equal(ids, []string{"a"}) ||
		len(due) != 1 || !due[0].Equal(t0.Add(10*time.Minute)) {
		t.Fatalf("claim when a is due = %v %v, %v", ids, due, err)
	}
	if ids, _, _ := s.ClaimOfferExpiries(ctx, t0.Add(15*time.Minute), 10); len(ids) != 0 {
		t.Fatalf("a claimed twice, or b early: %v", ids)
	}
	if ids, _, _ := s.ClaimOfferExpiries(ctx, t0.Add(time.Hour), 10); !slices.Equal(ids, []string{"b"}) {
		t.Fatalf("claim when b is due = %v", ids)
	}
	if ids, _, _ := s.ClaimOfferExpiries(ctx, t0.Add(time.Hour), 10); len(ids) != 0 {
		t.Fatalf("claimed again = %v", ids)
	}
	if ids, _, _ := s.ClaimOfferExpiries(ctx, t0.Add(time.Hour), 0); ids != nil {
		t.Fatalf("claim of none = %v", ids)
	}
	if err := s.ScheduleOfferExpiry(ctx, "", t0); !errors.Is(err, game.ErrInvalid) {
		t.Errorf("schedule without a game: %v, want ErrInvalid", err)
	}
}

// TestOfferExpiriesClaimedOnce: claimers racing (as bot processes on one Redis do) get each
// due offer exactly once between them, and none not yet due.
func TestOfferExpiriesClaimedOnce(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	const games, late = 200, 10
	for i := range games + late {
		due := t0.Add(time.Duration(i) * time.Millisecond)
		if i >= games {
			due = t0.Add(time.Hour)
		}
		if err := s.ScheduleOfferExpiry(ctx, fmt.Sprint("g", i), due); err != nil {
			t.Fatal(err)
		}
	}
	seen := claimRacing(t, func() ([]string, error) {
		ids, _, err := s.ClaimOfferExpiries(ctx, t0.Add(time.Second), 7)
		return ids, err
	})
	if len(seen) != games {
		t.Fatalf("%d offers claimed, want the %d due", len(seen), games)
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("%s claimed %d times", id, n)
		}
	}
}
