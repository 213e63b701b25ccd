package gametest

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/reversibot/reversi/game"
)

// TestReminders checks that the stores newStore makes keep the contract of game.Reminders: a
// reminder is claimed once it is due and never before, by one claimer only among racing ones;
// scheduling a game again moves its reminder (one per game), cancelling drops it; the message
// last sent is swapped, and handed back (and forgotten) by the next schedule or cancel.
func TestReminders(t *testing.T, newStore func(t *testing.T) game.Reminders) {
	t.Helper()
	t.Run("DueAndMessages", func(t *testing.T) { testReminders(t, newStore(t)) })
	t.Run("ClaimedOnce", func(t *testing.T) { testRemindersClaimedOnce(t, newStore(t)) })
}

// TestOfferExpiries checks that the stores newStore makes keep the contract of
// game.OfferExpiries: an offer's expiry is claimed once it is due and never before, by one
// claimer only among racing ones; a new offer of the same game replaces its due time (one
// entry per game); and when the store keeps reminders too, their claims do not take offers.
func TestOfferExpiries(t *testing.T, newStore func(t *testing.T) game.OfferExpiries) {
	t.Helper()
	t.Run("Due", func(t *testing.T) { testOfferExpiries(t, newStore(t)) })
	t.Run("ClaimedOnce", func(t *testing.T) { testOfferExpiriesClaimedOnce(t, newStore(t)) })
}

var t0 = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

func testReminders(t *testing.T, s game.Reminders) {
	for _, id := range []string{"a", "b", "c"} {
		if prev, err := s.ScheduleReminder(bg, id, t0.Add(10*time.Minute)); err != nil || prev != (game.MessageRef{}) {
			t.Fatalf("schedule %s = %+v, %v", id, prev, err)
		}
	}
	// b moves on: its reminder is due later; c's game ends.
	if _, err := s.ScheduleReminder(bg, "b", t0.Add(20*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CancelReminder(bg, "c"); err != nil {
		t.Fatal(err)
	}
	if ids, _, err := s.ClaimReminders(bg, t0.Add(9*time.Minute), 10); err != nil || len(ids) != 0 {
		t.Fatalf("claim before due = %v, %v", ids, err)
	}
	if ids, due, err := s.ClaimReminders(bg, t0.Add(10*time.Minute), 10); err != nil || !slices.Equal(ids, []string{"a"}) ||
		len(due) != 1 || !due[0].Equal(t0.Add(10*time.Minute)) {
		t.Fatalf("claim when a is due = %v %v, %v", ids, due, err)
	}
	if ids, _, _ := s.ClaimReminders(bg, t0.Add(15*time.Minute), 10); len(ids) != 0 {
		t.Fatalf("a claimed twice, or b early: %v", ids)
	}
	if ids, _, _ := s.ClaimReminders(bg, t0.Add(time.Hour), 10); !slices.Equal(ids, []string{"b"}) {
		t.Fatalf("claim when b is due = %v", ids)
	}
	if ids, _, _ := s.ClaimReminders(bg, t0.Add(time.Hour), 0); ids != nil {
		t.Fatalf("claim of none = %v", ids)
	}

	// The messages sent.
	m1, m2 := game.MessageRef{ChatID: -100, MessageID: 5}, game.MessageRef{ChatID: -100, MessageID: 9}
	if prev, err := s.SwapReminder(bg, "a", m1); err != nil || prev != (game.MessageRef{}) {
		t.Fatalf("first swap = %+v, %v", prev, err)
	}
	if prev, _ := s.SwapReminder(bg, "a", m2); prev != m1 {
		t.Fatalf("second swap = %+v, want %+v", prev, m1)
	}
	if prev, _ := s.ScheduleReminder(bg, "a", t0); prev != m2 {
		t.Fatalf("schedule after a reminder = %+v, want %+v", prev, m2)
	}
	if prev, _ := s.CancelReminder(bg, "a"); prev != (game.MessageRef{}) {
		t.Fatalf("the message was not forgotten: %+v", prev)
	}
	if _, err := s.SwapReminder(bg, "a", m1); err != nil {
		t.Fatal(err)
	}
	if prev, _ := s.CancelReminder(bg, "a"); prev != m1 {
		t.Fatalf("cancel = %+v, want %+v", prev, m1)
	}
	if ids, _, _ := s.ClaimReminders(bg, t0.Add(time.Hour), 10); len(ids) != 0 {
		t.Fatalf("a cancelled reminder was claimed: %v", ids)
	}
	for _, err := range []error{
		func() error { _, err := s.ScheduleReminder(bg, "", t0); return err }(),
		func() error { _, err := s.SwapReminder(bg, "a", game.MessageRef{}); return err }(),
	} {
		if !errors.Is(err, game.ErrInvalid) {
			t.Errorf("bad input: %v, want ErrInvalid", err)
		}
	}
}

// testRemindersClaimedOnce: claimers racing (as bot processes on one store do) get each due
// reminder exactly once between them.
func testRemindersClaimedOnce(t *testing.T, s game.Reminders) {
	const games = 200
	for i := range games {
		if _, err := s.ScheduleReminder(bg, fmt.Sprint("g", i), t0.Add(time.Duration(i)*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
	}
	seen := claimRacing(t, 2*games, func() ([]string, error) {
		ids, _, err := s.ClaimReminders(bg, t0.Add(time.Second), 7)
		return ids, err
	})
	if len(seen) != games {
		t.Fatalf("%d of %d reminders claimed", len(seen), games)
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("%s claimed %d times", id, n)
		}
	}
}

func testOfferExpiries(t *testing.T, s game.OfferExpiries) {
	for _, id := range []string{"a", "b"} {
		if err := s.ScheduleOfferExpiry(bg, id, t0.Add(10*time.Minute)); err != nil {
			t.Fatalf("schedule %s: %v", id, err)
		}
	}
	// b's offer was withdrawn and made again: it expires later.
	if err := s.ScheduleOfferExpiry(bg, "b", t0.Add(20*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if r, ok := s.(game.Reminders); ok {
		if ids, _, err := r.ClaimReminders(bg, t0.Add(time.Hour), 10); err != nil || len(ids) != 0 {
			t.Fatalf("the reminders claimed offers: %v, %v", ids, err)
		}
	}
	if ids, _, err := s.ClaimOfferExpiries(bg, t0.Add(10*time.Minute-time.Millisecond), 10); err != nil || len(ids) != 0 {
		t.Fatalf("claim before due = %v, %v", ids, err)
	}
	if ids, due, err := s.ClaimOfferExpiries(bg, t0.Add(10*time.Minute), 10); err != nil || !slices.Equal(ids, []string{"a"}) ||
		len(due) != 1 || !due[0].Equal(t0.Add(10*time.Minute)) {
		t.Fatalf("claim when a is due = %v %v, %v", ids, due, err)
	}
	if ids, _, _ := s.ClaimOfferExpiries(bg, t0.Add(15*time.Minute), 10); len(ids) != 0 {
		t.Fatalf("a claimed twice, or b early: %v", ids)
	}
	if ids, _, _ := s.ClaimOfferExpiries(bg, t0.Add(time.Hour), 10); !slices.Equal(ids, []string{"b"}) {
		t.Fatalf("claim when b is due = %v", ids)
	}
	if ids, _, _ := s.ClaimOfferExpiries(bg, t0.Add(time.Hour), 10); len(ids) != 0 {
		t.Fatalf("claimed again = %v", ids)
	}
	if ids, _, _ := s.ClaimOfferExpiries(bg, t0.Add(time.Hour), 0); ids != nil {
		t.Fatalf("claim of none = %v", ids)
	}
	if err := s.ScheduleOfferExpiry(bg, "", t0); !errors.Is(err, game.ErrInvalid) {
		t.Errorf("schedule without a game: %v, want ErrInvalid", err)
	}
}

// testOfferExpiriesClaimedOnce: claimers racing (as bot processes on one store do) get each
// due offer exactly once between them, and none not yet due.
func testOfferExpiriesClaimedOnce(t *testing.T, s game.OfferExpiries) {
	const games, late = 200, 10
	for i := range games + late {
		due := t0.Add(time.Duration(i) * time.Millisecond)
		if i >= games {
			due = t0.Add(time.Hour)
		}
		if err := s.ScheduleOfferExpiry(bg, fmt.Sprint("g", i), due); err != nil {
			t.Fatal(err)
		}
	}
	seen := claimRacing(t, 2*games, func() ([]string, error) {
		ids, _, err := s.ClaimOfferExpiries(bg, t0.Add(time.Second), 7)
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

// claimRacing has eight goroutines call claim until it returns nothing (or they got more than
// limit ids between them: a store that hands ids out again) and returns how often each id was
// claimed: the test of a due set claimed once by many processes.
func claimRacing(t *testing.T, limit int, claim func() ([]string, error)) map[string]int {
	t.Helper()
	var mu sync.Mutex
	seen, total := map[string]int{}, 0
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				enough := total > limit
				mu.Unlock()
				if enough {
					return
				}
				ids, err := claim()
				if err != nil {
					t.Error(err)
					return
				}
				if len(ids) == 0 {
					return
				}
				mu.Lock()
				for _, id := range ids {
					seen[id]++
				}
				total += len(ids)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return seen
}
