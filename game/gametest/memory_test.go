package gametest_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/game/gametest"
)

func TestMain(m *testing.M) { gametest.VerifyTestMain(m) }

// The in-memory stores keep the contract of each concern, as package storage's Redis store does.

func newMemory(*testing.T) *gametest.Memory { return gametest.NewMemory(gametest.MemoryOptions{}) }

func TestMemoryGames(t *testing.T) {
	gametest.TestGames(t, func(t *testing.T) game.Games { return newMemory(t) })
}

func TestMemoryMatchmaking(t *testing.T) {
	gametest.TestMatchmaking(t, func(_ *testing.T, c *gametest.Clock) game.Matchmaking {
		return gametest.NewMemory(gametest.MemoryOptions{Now: c.Now})
	})
}

func TestMemoryPlayers(t *testing.T) {
	gametest.TestPlayers(t, func(t *testing.T) game.PlayerStore { return newMemory(t) })
}

func TestMemoryInvitations(t *testing.T) {
	gametest.TestInvitations(t, func(t *testing.T) game.Invitations { return newMemory(t) })
}

func TestMemoryReviews(t *testing.T) {
	gametest.TestReviews(t, func(t *testing.T) gametest.GamesWithReviews { return newMemory(t) })
}

func TestMemoryLeases(t *testing.T) {
	gametest.TestLeases(t, func(*testing.T) (game.Leases, func(time.Duration)) {
		c := gametest.NewClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
		return gametest.NewMemory(gametest.MemoryOptions{Now: c.Now}), c.Add
	})
}

func TestMemoryReminders(t *testing.T) {
	gametest.TestReminders(t, func(*testing.T) game.Reminders { return gametest.NewReminders() })
}

func TestMemoryOfferExpiries(t *testing.T) {
	gametest.TestOfferExpiries(t, func(*testing.T) game.OfferExpiries { return gametest.NewOfferExpiries() })
}

func TestMemoryAIStreams(t *testing.T) {
	gametest.TestAIStreams(t, func(*testing.T) game.AIStreams { return gametest.NewAIStreams() }, true)
}

// Games, their bindings, queue entries and leases expire by the injected clock.
func TestMemoryExpiry(t *testing.T) {
	ctx := context.Background()
	c := gametest.NewClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	m := gametest.NewMemory(gametest.MemoryOptions{Now: c.Now})
	lobby := &game.Game{Size: 8, Flow: game.FlowGroup, Status: game.StatusLobby, ChatID: -1,
		Players: [2]game.Player{{UserID: 1}}}
	if _, err := m.StartGame(ctx, lobby, game.Hosting{Chats: []int64{-1}}); err != nil {
		t.Fatal(err)
	}
	if !lobby.Created.Equal(c.Now()) {
		t.Fatalf("Created = %v, want the clock's %v", lobby.Created, c.Now())
	}
	if _, err := m.Enqueue(ctx, 8, game.Waiter{UserID: 7}); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := m.AcquireLease(ctx, "x", time.Minute); !ok || err != nil {
		t.Fatalf("AcquireLease = %v, %v", ok, err)
	}
	c.Add(game.DefaultQueueTTL)
	if _, ok, _ := m.AcquireLease(ctx, "x", time.Minute); !ok {
		t.Fatal("a lease outlived its TTL")
	}
	if ok, _ := m.LeaveQueue(ctx, 7); ok {
		t.Fatal("a queue entry outlived QueueTTL")
	}
	if _, err := m.GameByChat(ctx, -1); err != nil {
		t.Fatalf("a lobby expired before LobbyTTL: %v", err)
	}
	c.Add(game.DefaultLobbyTTL)
	if _, err := m.Game(ctx, lobby.ID); !errors.Is(err, game.ErrNotFound) {
		t.Fatalf("Game of a lobby after LobbyTTL = %v, want ErrNotFound", err)
	}
	if _, err := m.GameByChat(ctx, -1); !errors.Is(err, game.ErrNotFound) {
		t.Fatalf("GameByChat after LobbyTTL = %v, want ErrNotFound", err)
	}
}

// A record that does not decode holds its chat with a CorruptError until it is set aside.
func TestMemoryUnreadable(t *testing.T) {
	ctx := context.Background()
	m := gametest.NewMemory(gametest.MemoryOptions{})
	g := &game.Game{Size: 8, Flow: game.FlowAI, Status: game.StatusPlaying, ChatID: 5, AILevel: 1,
		Players: [2]game.Player{{UserID: 5, ChatID: 5}}}
	if _, err := m.StartGame(ctx, g, game.Hosting{Chats: []int64{5}}); err != nil {
		t.Fatal(err)
	}
	m.PutUnreadable(g.ID, []byte("garbage"))
	var ce *game.CorruptError
	if _, err := m.GameByChat(ctx, 5); !errors.As(err, &ce) || ce.GameID != g.ID || game.ErrorCode(err) != game.CodeCorrupt {
		t.Fatalf("GameByChat of an unreadable game = %v, want a CorruptError", err)
	}
	if _, err := m.StartGame(ctx, g.Clone(), game.Hosting{Chats: []int64{5}}); !errors.As(err, &ce) {
		t.Fatalf("StartGame over an unreadable game = %v, want a CorruptError", err)
	}
	if _, moved, err := m.SetAside(ctx, g.ID); !moved || err != nil {
		t.Fatalf("SetAside = %v, %v", moved, err)
	}
	if _, data, err := m.AsideRecord(g.ID); err != nil || string(data) != "garbage" {
		t.Fatalf("AsideRecord = %q, %v", data, err)
	}
	if _, err := m.StartGame(ctx, g.Clone(), game.Hosting{Chats: []int64{5}}); err != nil {
		t.Fatalf("StartGame after SetAside: %v", err)
	}
}
