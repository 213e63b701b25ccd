package storage

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/reversibot/reversi/game"
)

// Leases are short exclusive claims on a name, shared by every process on the Redis: the
// bot takes one per game while the AI searches its position, so that two processes never run
// the same search. A lease ends when its holder releases it or, if the holder dies, when its
// TTL runs out; the holder renews it for as long as it works.
//
//	P ls:{NAME}   string  the holder's token, TTL = the lease's

// lease returns the key of the lease on name. RenewLease and ReleaseLease change it only while
// it holds the caller's token (expireIfValue, deleteIfValue).
func (k keys) lease(name string) string { return k.p + "ls:{" + name + "}" }

// leaseMillis is ttl in whole milliseconds, at least one; ErrInvalid for ttl <= 0.
func leaseMillis(ttl time.Duration) (int64, error) {
	if ttl <= 0 {
		return 0, fmt.Errorf("storage: lease TTL %v: %w", ttl, game.ErrInvalid)
	}
	return max(ttl.Milliseconds(), 1), nil
}

// AcquireLease takes the lease on name for ttl if nobody holds it. ok reports whether this
// call got it; then token names the holder for RenewLease and ReleaseLease. It fails with
// ErrInvalid for an empty name or a ttl <= 0.
func (s *Store) AcquireLease(ctx context.Context, name string, ttl time.Duration) (token string, ok bool, err error) {
	ms, err := leaseMillis(ttl)
	if err != nil {
		return "", false, err
	}
	if name == "" {
		return "", false, fmt.Errorf("storage: lease without a name: %w", game.ErrInvalid)
	}
	var b [12]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go ≥ 1.24)
	token = hex.EncodeToString(b[:])
	ok, err = s.rdb.SetNX(ctx, s.k.lease(name), token, time.Duration(ms)*time.Millisecond).Result()
	if err != nil {
		return "", false, wrap("acquire lease", err)
	}
	if !ok {
		return "", false, nil
	}
	return token, true, nil
}

// RenewLease sets the lease on name to end ttl from now if token still holds it, and reports
// whether it did (false: the lease expired, and may have been taken by another).
func (s *Store) RenewLease(ctx context.Context, name, token string, ttl time.Duration) (bool, error) {
	ms, err := leaseMillis(ttl)
	if err != nil {
		return false, err
	}
	n, err := expireIfValue.Run(ctx, s.rdb, []string{s.k.lease(name)}, token, ms).Int()
	if err != nil {
		return false, wrap("renew lease", err)
	}
	return n == 1, nil
}

// ReleaseLease ends the lease on name if token still holds it; a lease that expired, or that
// another holder took since, is left alone.
func (s *Store) ReleaseLease(ctx context.Context, name, token string) error {
	return wrap("release lease", deleteIfValue.Run(ctx, s.rdb, []string{s.k.lease(name)}, token).Err())
}
