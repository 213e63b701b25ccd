package gametest

import (
	"errors"
	"testing"
	"time"

	"github.com/reversibot/reversi/game"
)

// TestLeases checks that the stores newLeases makes keep the contract of game.Leases: a lease
// has one holder at a time, and ends with its TTL unless renewed. newLeases also returns a
// function that moves the store's clock on by d; with none (nil: a real Redis, whose clock
// runs on its own) the expiry is not checked.
func TestLeases(t *testing.T, newLeases func(t *testing.T) (s game.Leases, advance func(d time.Duration))) {
	t.Helper()
	t.Run("Exclusive", func(t *testing.T) {
		s, _ := newLeases(t)
		testLeaseIsExclusive(t, s)
	})
	t.Run("Expires", func(t *testing.T) {
		s, advance := newLeases(t)
		if advance == nil {
			t.Skip("the store's clock cannot be moved")
		}
		testLeaseExpires(t, s, advance)
	})
}

// A lease has one holder at a time: others do not get it, cannot renew or release it; its
// holder's release frees it for the next.
func testLeaseIsExclusive(t *testing.T, s game.Leases) {
	tok, ok, err := s.AcquireLease(bg, "game1", time.Minute)
	if err != nil || !ok || tok == "" {
		t.Fatalf("AcquireLease = %q, %v, %v; want a token", tok, ok, err)
	}
	if _, ok, err := s.AcquireLease(bg, "game1", time.Minute); err != nil || ok {
		t.Fatalf("second AcquireLease = %v, %v; want not taken", ok, err)
	}
	if _, ok, err := s.AcquireLease(bg, "game2", time.Minute); err != nil || !ok {
		t.Fatalf("AcquireLease of another name = %v, %v; want taken", ok, err)
	}
	if ok, err := s.RenewLease(bg, "game1", "not-the-token", time.Minute); err != nil || ok {
		t.Fatalf("RenewLease with another token = %v, %v; want false", ok, err)
	}
	if err := s.ReleaseLease(bg, "game1", "not-the-token"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.AcquireLease(bg, "game1", time.Minute); ok {
		t.Fatal("a release with another token freed the lease")
	}
	if ok, err := s.RenewLease(bg, "game1", tok, time.Minute); err != nil || !ok {
		t.Fatalf("RenewLease by the holder = %v, %v; want true", ok, err)
	}
	if err := s.ReleaseLease(bg, "game1", tok); err != nil {
		t.Fatal(err)
	}
	tok2, ok, err := s.AcquireLease(bg, "game1", time.Minute)
	if err != nil || !ok || tok2 == tok {
		t.Fatalf("AcquireLease after the release = %q, %v, %v; want a new token", tok2, ok, err)
	}
	for _, ttl := range []time.Duration{0, -time.Second} {
		if _, _, err := s.AcquireLease(bg, "game3", ttl); !errors.Is(err, game.ErrInvalid) {
			t.Errorf("AcquireLease(ttl %v) = %v, want ErrInvalid", ttl, err)
		}
	}
	if _, _, err := s.AcquireLease(bg, "", time.Minute); !errors.Is(err, game.ErrInvalid) {
		t.Errorf("AcquireLease without a name = %v, want ErrInvalid", err)
	}
}

// A lease whose holder died ends with its TTL; renewing moves the end; a holder whose lease
// expired and was taken by another can neither renew nor release the new one.
func testLeaseExpires(t *testing.T, s game.Leases, advance func(time.Duration)) {
	const ttl = 500 * time.Millisecond
	old, ok, err := s.AcquireLease(bg, "g", ttl)
	if err != nil || !ok {
		t.Fatalf("AcquireLease = %v, %v", ok, err)
	}
	advance(400 * time.Millisecond)
	if ok, err := s.RenewLease(bg, "g", old, ttl); err != nil || !ok {
		t.Fatalf("RenewLease = %v, %v", ok, err)
	}
	advance(400 * time.Millisecond) // 800 ms after the start, 400 after the renewal
	if _, ok, _ := s.AcquireLease(bg, "g", ttl); ok {
		t.Fatal("the renewed lease ended at its first TTL")
	}
	advance(200 * time.Millisecond)
	taken, ok, err := s.AcquireLease(bg, "g", ttl)
	if err != nil || !ok {
		t.Fatalf("AcquireLease after the TTL = %v, %v; want taken", ok, err)
	}
	if ok, _ := s.RenewLease(bg, "g", old, ttl); ok {
		t.Fatal("the old holder renewed the new holder's lease")
	}
	if err := s.ReleaseLease(bg, "g", old); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.AcquireLease(bg, "g", ttl); ok {
		t.Fatal("the old holder's release freed the new holder's lease")
	}
	if err := s.ReleaseLease(bg, "g", taken); err != nil {
		t.Fatal(err)
	}
}
