package storage_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/storage"
	"github.com/reversibot/reversi/storage/storagetest"
)

// TestRedisRestart kills Redis mid-game: every operation must fail with ErrUnavailable (and
// nothing panic); after a restart on the same port the same Store carries on by itself.
func TestRedisRestart(t *testing.T) {
	ctx := context.Background()
	dir, port := t.TempDir(), storagetest.FreePort(t)
	srv := storagetest.StartServer(t, port, dir)
	client := redis.NewClient(&redis.Options{Addr: srv.Addr,
		DialTimeout: 500 * time.Millisecond, DialerRetries: 1, MaxRetries: 1})
	defer client.Close()
	s := storage.New(client, storage.Options{})

	g := sampleGame(2)
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	g.Moves = append(g.Moves, 0x33)
	if err := s.UpdateGame(ctx, g); err != nil {
		t.Fatal(err)
	}

	srv.Kill()
	down := map[string]func() error{
		"Ping":       func() error { return s.Ping(ctx) },
		"Game":       func() error { _, err := s.Game(ctx, g.ID); return err },
		"UpdateGame": func() error { c := g.Clone(); c.Moves = append(c.Moves, 0x34); return s.UpdateGame(ctx, c) },
		"CreateGame": func() error { return s.CreateGame(ctx, sampleGame(0)) },
		"GameByChat": func() error { _, err := s.GameByChat(ctx, g.ChatID); return err },
		"StartGame": func() error {
			_, err := s.StartGame(ctx, sampleGame(0), game.Hosting{Chats: []int64{1}})
			return err
		},
		"JoinGame":     func() error { c := g.Clone(); return s.JoinGame(ctx, c, []int64{2}) },
		"Profile":      func() error { _, err := s.Profile(ctx, 1); return err },
		"RecordResult": func() error { _, err := s.RecordResult(ctx, finished("x", 1, 2, game.OutcomeDraw)); return err },
		"Top":          func() error { _, err := s.Top(ctx, 0, 10); return err },
		"Enqueue":      func() error { _, err := s.Enqueue(ctx, 8, game.Waiter{UserID: 1}); return err },
		"LeaveQueue":   func() error { _, err := s.LeaveQueue(ctx, 1); return err },
		"FirstSeen":    func() error { _, err := s.FirstSeen(ctx, 1); return err },
		"ChatLang":     func() error { _, err := s.ChatLang(ctx, 1); return err },
	}
	for name, op := range down {
		if err := op(); !errors.Is(err, game.ErrUnavailable) {
			t.Errorf("%s with Redis down = %v, want ErrUnavailable", name, err)
		}
	}

	storagetest.StartServer(t, port, dir)
	// The same Store, no reconnect call. After a burst of failed dials go-redis probes the
	// server in the background once a second, so recovery takes up to about a second: wait
	// for it (bounded), then check that the game survived (AOF) and play goes on although
	// the restarted server has forgotten the Lua scripts.
	deadline := time.Now().Add(10 * time.Second)
	for attempts := 1; ; attempts++ {
		err := s.Ping(ctx)
		if err == nil {
			t.Logf("recovered after %d pings", attempts)
			break
		}
		if !errors.Is(err, game.ErrUnavailable) || time.Now().After(deadline) {
			t.Fatalf("Ping after restart: %v", err)
		}
		<-time.After(50 * time.Millisecond)
	}
	got, err := s.Game(ctx, g.ID)
	if err != nil {
		t.Fatalf("Game after restart: %v", err)
	}
	if got.Version != g.Version || string(got.Moves) != string(g.Moves) {
		t.Fatalf("after restart: version %d moves %x; want %d %x", got.Version, got.Moves, g.Version, g.Moves)
	}
	got.Moves = append(got.Moves, 0x34)
	if err := s.UpdateGame(ctx, got); err != nil {
		t.Fatalf("UpdateGame after restart: %v", err)
	}
	if _, err := s.Enqueue(ctx, 8, game.Waiter{UserID: 1}); err != nil {
		t.Fatalf("Enqueue after restart: %v", err)
	}
}
