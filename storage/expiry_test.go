package storage_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/game/gametest"
	"github.com/reversibot/reversi/storage"
	"github.com/reversibot/reversi/storage/storagetest"
)

// The expiry tests move the embedded server's clock (and the store's) forward.

// newClocked returns a store on an embedded Redis of its own, that server, and advance, which
// moves the server's clock and the store's (both from midnight, 29 November 2026) forward by
// the same d, so records expire as the store's timestamps say.
func newClocked(t *testing.T) (s *storage.Store, m *miniredis.Miniredis, advance func(d time.Duration)) {
	clock := gametest.NewClock(time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC))
	s, m = storagetest.NewEmbedded(t, storage.Options{Now: clock.Now})
	return s, m, func(d time.Duration) { clock.Add(d); m.FastForward(d) }
}

func TestGameExpiry(t *testing.T) {
	ctx := context.Background()
	s, m, advance := newClocked(t)
	alive := func(id string) bool {
		_, err := s.Game(ctx, id)
		if err != nil && !errors.Is(err, game.ErrNotFound) {
			t.Fatal(err)
		}
		return err == nil
	}

	lobby := sampleGame(0)
	lobby.Status = game.StatusLobby
	if _, err := s.StartGame(ctx, lobby, game.Hosting{Chats: []int64{lobby.ChatID}}); err != nil {
		t.Fatal(err)
	}
	advance(storage.DefaultLobbyTTL - time.Second)
	if !alive(lobby.ID) {
		t.Fatal("lobby expired early")
	}
	// The second player joins: the game now lives IdleTTL from this update.
	lobby.Status = game.StatusPlaying
	if err := s.UpdateGame(ctx, lobby); err != nil {
		t.Fatal(err)
	}
	advance(storage.DefaultIdleTTL - time.Second)
	if !alive(lobby.ID) {
		t.Fatal("game in play expired before IdleTTL")
	}
	lobby.Moves = append(lobby.Moves, 0x23)
	if err := s.UpdateGame(ctx, lobby); err != nil {
		t.Fatal(err)
	}
	advance(storage.DefaultIdleTTL - time.Second)
	if g, err := s.GameByChat(ctx, lobby.ChatID); err != nil || g.ID != lobby.ID {
		t.Fatalf("binding lost while the game lives: %v", err)
	}
	advance(2 * time.Second)
	if alive(lobby.ID) {
		t.Fatal("idle game outlived IdleTTL")
	}
	if _, err := s.GameByChat(ctx, lobby.ChatID); !errors.Is(err, game.ErrNotFound) {
		t.Fatalf("GameByChat(expired) = %v, want ErrNotFound", err)
	}

	// Finished games and an unjoined lobby.
	fin := sampleGame(5)
	if err := s.CreateGame(ctx, fin); err != nil {
		t.Fatal(err)
	}
	fin.Status, fin.Outcome = game.StatusFinished, game.OutcomeDraw
	if err := s.UpdateGame(ctx, fin); err != nil {
		t.Fatal(err)
	}
	lone := sampleGame(0)
	lone.Status = game.StatusLobby
	if err := s.CreateGame(ctx, lone); err != nil {
		t.Fatal(err)
	}
	advance(storage.DefaultLobbyTTL + time.Second)
	if alive(lone.ID) || !alive(fin.ID) {
		t.Fatalf("after LobbyTTL: lobby alive %v (want false), finished alive %v (want true)", alive(lone.ID), alive(fin.ID))
	}
	advance(storage.DefaultFinishedTTL)
	if alive(fin.ID) {
		t.Fatal("finished game outlived FinishedTTL")
	}
	if n := len(m.Keys()); n != 0 {
		t.Errorf("keys left after everything expired: %v", m.Keys())
	}
}

func TestQueueAndDedupeExpiry(t *testing.T) {
	ctx := context.Background()
	s, m, advance := newClocked(t)

	if _, err := s.Enqueue(ctx, 8, game.Waiter{UserID: 1}); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.FirstSeen(ctx, 99); err != nil || !ok {
		t.Fatal(ok, err)
	}
	advance(storage.DefaultQueueTTL + time.Second)
	if opp, err := s.Enqueue(ctx, 8, game.Waiter{UserID: 2}); err != nil || opp != nil {
		t.Fatalf("paired with an expired entry: %+v, %v", opp, err)
	}
	if ok, _ := s.FirstSeen(ctx, 99); ok {
		t.Fatal("dedupe mark gone before DedupeTTL")
	}
	advance(storage.DefaultDedupeTTL)
	if ok, _ := s.FirstSeen(ctx, 99); !ok {
		t.Fatal("dedupe mark outlived DedupeTTL")
	}
	advance(storage.DefaultDedupeTTL + time.Second)
	if n := len(m.Keys()); n != 0 {
		t.Errorf("keys left after everything expired: %v", m.Keys())
	}
}
