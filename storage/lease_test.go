package storage_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/storage/storagetest"
)

// A lease has one holder at a time: others do not get it, cannot renew or release it; its
// holder's release frees it for the next.
func TestLeaseIsExclusive(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	tok, ok, err := s.AcquireLease(ctx, "game1", time.Minute)
	if err != nil || !ok || tok == "" {
		t.Fatalf("AcquireLease = %q, %v, %v; want a token", tok, ok, err)
	}
	if _, ok, err := s.AcquireLease(ctx, "game1", time.Minute); err != nil || ok {
		t.Fatalf("second AcquireLease = %v, %v; want not taken", ok, err)
	}
	if _, ok, err := s.AcquireLease(ctx, "game2", time.Minute); err != nil || !ok {
		t.Fatalf("AcquireLease of another name = %v, %v; want taken", ok, err)
	}
	if ok, err := s.RenewLease(ctx, "game1", "not-the-token", time.Minute); err != nil || ok {
		t.Fatalf("RenewLease with another token = %v, %v; want false", ok, err)
	}
	if err := s.ReleaseLease(ctx, "game1", "not-the-token"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.AcquireLease(ctx, "game1", time.Minute); ok {
		t.Fatal("a release with another token freed the lease")
	}
	if ok, err := s.RenewLease(ctx, "game1", tok, time.Minute); err != nil || !ok {
		t.Fatalf("RenewLease by the holder = %v, %v; want true", ok, err)
	}
	if err := s.ReleaseLease(ctx, "game1", tok); err != nil {
		t.Fatal(err)
	}
	tok2, ok, err := s.AcquireLease(ctx, "game1", time.Minute)
	if err != nil || !ok || tok2 == tok {
		t.Fatalf("AcquireLease after the release = %q, %v, %v; want a new token", tok2, ok, err)
	}
	for _, ttl := range []time.Duration{0, -time.Second} {
		if _, _, err := s.AcquireLease(ctx, "game3", ttl); !errors.Is(err, game.ErrInvalid) {
			t.Errorf("AcquireLease(ttl %v) = %v, want ErrInvalid", ttl, err)
		}
	}
	if _, _, err := s.AcquireLease(ctx, "", time.Minute); !errors.Is(err, game.ErrInvalid) {
		t.Errorf("AcquireLease without a name = %v, want ErrInvalid", err)
	}
}

// A lease whose holder died ends with its TTL; renewing moves the end; a holder whose lease
// expired and was taken by another can neither renew nor release the new one.
func TestLeaseExpires(t *testing.T) {
	ctx := context.Background()
	s, mini := storagetest.NewEmbedded(t)
	const ttl = 500 * time.Millisecond
	old, ok, err := s.AcquireLease(ctx, "g", ttl)
	if err != nil || !ok {
		t.Fatalf("AcquireLease = %v, %v", ok, err)
	}
	mini.FastForward(400 * time.Millisecond)
	if ok, err := s.RenewLease(ctx, "g", old, ttl); err != nil || !ok {
		t.Fatalf("RenewLease = %v, %v", ok, err)
	}
	mini.FastForward(400 * time.Millisecond) // 800 ms after the start, 400 after the renewal
	if _, ok, _ := s.AcquireLease(ctx, "g", ttl); ok {
		t.Fatal("the renewed lease ended at its first TTL")
	}
	mini.FastForward(200 * time.Millisecond)
	taken, ok, err := s.AcquireLease(ctx, "g", ttl)
	if err != nil || !ok {
		t.Fatalf("AcquireLease after the TTL = %v, %v; want taken", ok, err)
	}
	if ok, _ := s.RenewLease(ctx, "g", old, ttl); ok {
		t.Fatal("the old holder renewed the new holder's lease")
	}
	if err := s.ReleaseLease(ctx, "g", old); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.AcquireLease(ctx, "g", ttl); ok {
		t.Fatal("the old holder's release freed the new holder's lease")
	}
	if err := s.ReleaseLease(ctx, "g", taken); err != nil {
		t.Fatal(err)
	}
}
