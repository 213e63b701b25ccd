// Package storagetest gives tests a clean storage.Store: on the Redis named by REDIS_URL
// when it is set, on an embedded in-memory Redis otherwise.
package storagetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"testing"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/reversibot/reversi/storage"
)

// New returns a Store for one test. With REDIS_URL set it connects there and gives the store
// a Prefix of its own (so tests and packages running in parallel on one Redis never see each
// other's keys) and deletes that prefix's keys when the test ends; otherwise it starts an
// embedded Redis for the test whose keys expire as time passes (NewLive). The first opts, if any, are used with Prefix replaced.
// The store is closed when the test ends. A Redis that does not answer fails the test.
func New(t testing.TB, opts ...storage.Options) *storage.Store {
	t.Helper()
	url := os.Getenv("REDIS_URL")
	if url == "" {
		s, _ := NewLive(t, opts...)
		return s
	}
	var o storage.Options
	if len(opts) > 0 {
		o = opts[0]
	}
	o.Prefix = "test:" + randomHex() + ":"
	client, err := storage.NewClient(url)
	if err != nil {
		t.Fatalf("storagetest: REDIS_URL: %v", err)
	}
	s := storage.New(client, o)
	if err := s.Ping(context.Background()); err != nil {
		client.Close()
		t.Fatalf("storagetest: REDIS_URL=%s: %v", url, err)
	}
	t.Cleanup(func() {
		if _, err := s.DeleteAll(context.Background()); err != nil {
			t.Errorf("storagetest: clean up %s*: %v", o.Prefix, err)
		}
		client.Close()
	})
	return s
}

// NewEmbedded returns a Store on an embedded Redis of its own, and that server, so a test can
// move its clock (FastForward, SetTime) or stop it. Both are closed when the test ends.
func NewEmbedded(t testing.TB, opts ...storage.Options) (*storage.Store, *miniredis.Miniredis) {
	t.Helper()
	m := miniredis.NewMiniRedis()
	if err := m.Start(); err != nil {
		t.Fatalf("storagetest: start embedded redis: %v", err)
	}
	var o storage.Options
	if len(opts) > 0 {
		o = opts[0]
	}
	client := redis.NewClient(&redis.Options{Addr: m.Addr()})
	t.Cleanup(func() {
		client.Close()
		m.Close()
	})
	return storage.New(client, o), m
}

// NewLive is NewEmbedded with the server's clock following the wall clock
// (storage.FollowWallClock), so keys expire as on a real Redis: for tests that do not move
// the clock themselves.
func NewLive(t testing.TB, opts ...storage.Options) (*storage.Store, *miniredis.Miniredis) {
	t.Helper()
	s, m := NewEmbedded(t, opts...)
	t.Cleanup(storage.FollowWallClock(m)) // runs before NewEmbedded's clean-up closes m
	return s, m
}

// QuietLogs drops the Redis client's own log lines (such as dial failures while a test has
// its Redis down) for the rest of the process.
func QuietLogs() { redis.SetLogger(quietLogger{}) }

type quietLogger struct{}

func (quietLogger) Printf(context.Context, string, ...any) {}

// Real reports whether tests run against a real Redis (REDIS_URL is set).
func Real() bool { return os.Getenv("REDIS_URL") != "" }

func randomHex() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// NewPair returns two Stores on one Redis and one prefix, each with connections of its own,
// as two bot processes sharing a Redis have them: on REDIS_URL (a fresh prefix, deleted when
// the test ends) or on one embedded Redis. Both are closed when the test ends.
func NewPair(t testing.TB) (*storage.Store, *storage.Store) {
	t.Helper()
	url := os.Getenv("REDIS_URL")
	if url == "" {
		a, m := NewEmbedded(t)
		client, err := storage.NewClient("redis://" + m.Addr())
		if err != nil {
			t.Fatalf("storagetest: %v", err)
		}
		t.Cleanup(func() { client.Close() })
		return a, storage.New(client, storage.Options{})
	}
	o := storage.Options{Prefix: "test:" + randomHex() + ":"}
	var stores [2]*storage.Store
	for i := range stores {
		client, err := storage.NewClient(url)
		if err != nil {
			t.Fatalf("storagetest: REDIS_URL: %v", err)
		}
		t.Cleanup(func() { client.Close() })
		stores[i] = storage.New(client, o)
	}
	t.Cleanup(func() {
		if _, err := stores[0].DeleteAll(context.Background()); err != nil {
			t.Errorf("storagetest: clean up %s*: %v", o.Prefix, err)
		}
	})
	return stores[0], stores[1]
}
