package storage_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/storage"
	"github.com/reversibot/reversi/storage/storagetest"
)

// limit is a budget of updates: Burst at once, then Rate per Period.
type limit struct {
	Rate   int
	Period time.Duration
	Burst  int
}

// slowLimit refills one update an hour, so a test's budget is its burst, whatever the clock.
var slowLimit = limit{Rate: 1, Period: time.Hour, Burst: 3}

// takeAll calls AllowUpdate n times and returns how many were allowed.
func takeAll(t *testing.T, s *storage.Store, user int64, l limit, n int) int {
	t.Helper()
	allowed := 0
	for range n {
		ok, retry, err := s.AllowUpdate(context.Background(), user, l.Rate, l.Period, l.Burst)
		if err != nil {
			t.Fatalf("AllowUpdate: %v", err)
		}
		if ok {
			allowed++
		} else if retry <= 0 {
			t.Errorf("refused with retryAfter %v, want > 0", retry)
		}
	}
	return allowed
}

func TestAllowUpdateBurstThenRefuses(t *testing.T) {
	s := storagetest.New(t)
	if got := takeAll(t, s, 42, slowLimit, 10); got != slowLimit.Burst {
		t.Fatalf("allowed %d of 10, want the burst %d", got, slowLimit.Burst)
	}
	// Another user's budget is untouched.
	if got := takeAll(t, s, 43, slowLimit, 1); got != 1 {
		t.Fatalf("another user allowed %d of 1", got)
	}
}

// Two processes (two stores, each with its own connections) on one Redis and prefix share
// one user's budget.
func TestAllowUpdateSharedByProcesses(t *testing.T) {
	a, b := storagetest.NewPair(t)
	got := takeAll(t, a, 7, slowLimit, 2) + takeAll(t, b, 7, slowLimit, 2) + takeAll(t, a, 7, slowLimit, 2)
	if got != slowLimit.Burst {
		t.Fatalf("two processes allowed %d in all, want the one budget's burst %d", got, slowLimit.Burst)
	}
}

// The budget's key lives under the store's prefix (so DeleteAll and REDIS_PREFIX cover it)
// and expires once the budget would be full again.
func TestAllowUpdateKeyUnderPrefixWithTTL(t *testing.T) {
	s := storagetest.New(t)
	lim := limit{Rate: 10, Period: time.Second, Burst: 20}
	takeAll(t, s, 99, lim, 5)
	ctx := context.Background()
	keys, err := s.Client().Keys(ctx, "*rl:{99}").Result()
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 1 {
		t.Fatalf("keys of user 99's budget: %q, want one", keys)
	}
	if strings.HasPrefix(keys[0], "rate:") {
		t.Errorf("key %q carries redis_rate's prefix, not the store's", keys[0])
	}
	ttl, err := s.Client().TTL(ctx, keys[0]).Result()
	if err != nil {
		t.Fatal(err)
	}
	// 5 of 20 spent at 10/s: full again within 0.5 s, so the key lives at most a second.
	if ttl <= 0 || ttl > time.Second {
		t.Errorf("TTL of %s = %v, want (0, 1s]", keys[0], ttl)
	}
	if n, err := s.DeleteAll(ctx); storagetest.Real() && (err != nil || n < 1) {
		t.Errorf("DeleteAll = %d, %v; want the budget's key removed", n, err)
	}
}

// The budget refills at Rate per Period (the embedded Redis's clock is moved, which the
// limiter's script reads with TIME).
func TestAllowUpdateRefills(t *testing.T) {
	s, m := storagetest.NewEmbedded(t)
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	m.SetTime(now)
	lim := limit{Rate: 2, Period: time.Second, Burst: 4}
	if got := takeAll(t, s, 5, lim, 6); got != 4 {
		t.Fatalf("allowed %d of 6 at once, want the burst 4", got)
	}
	m.SetTime(now.Add(time.Second)) // two more
	if got := takeAll(t, s, 5, lim, 6); got != 2 {
		t.Fatalf("allowed %d of 6 a second later, want 2", got)
	}
}

func TestAllowUpdateInvalidLimitAllows(t *testing.T) {
	s := storagetest.New(t)
	if got := takeAll(t, s, 1, limit{}, 5); got != 5 {
		t.Fatalf("zero limit allowed %d of 5", got)
	}
}

func TestAllowUpdateRedisDown(t *testing.T) {
	s, m := storagetest.NewEmbedded(t)
	storagetest.QuietLogs()
	m.Close()
	ok, _, err := s.AllowUpdate(context.Background(), 1, slowLimit.Rate, slowLimit.Period, slowLimit.Burst)
	if !errors.Is(err, game.ErrUnavailable) || !ok {
		t.Fatalf("AllowUpdate with Redis down = %v, %v; want allowed, with ErrUnavailable", ok, err)
	}
}
