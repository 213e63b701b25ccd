package storage_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/storage"
	"github.com/reversibot/reversi/storage/storagetest"
)

func TestObserveSeesEveryCommand(t *testing.T) {
	var (
		mu    sync.Mutex
		calls = map[string]int{}
	)
	s := storagetest.New(t, storage.Options{Observe: func(cmd string, took time.Duration, err error) {
		mu.Lock()
		defer mu.Unlock()
		if took < 0 {
			t.Errorf("Observe(%s) took %v, want >= 0", cmd, took)
		}
		if errors.Is(err, redis.Nil) {
			t.Errorf("Observe(%s) err = %v, want a missing key reported as success", cmd, err)
		}
		calls[cmd]++
	}})
	ctx := context.Background()
	if _, err := s.Game(ctx, "nosuchgame"); !errors.Is(err, game.ErrNotFound) {
		t.Fatalf("Game(nosuchgame) = %v, want ErrNotFound", err)
	}
	if _, err := s.FirstSeen(ctx, 42); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	total := 0
	for _, n := range calls {
		total += n
	}
	if total < 2 {
		t.Errorf("Observe saw %d commands (%v), want at least 2", total, calls)
	}
}
