package game_test

import (
	"context"
	"errors"
	"testing"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/game/gametest"
)

// TestConfigByConcern: a Service wired with a store per concern keeps each concern in its own
// store: a search in the Matchmaking given, a game in the Games given; and a concern the
// Config leaves nil, with no Store to take it from, is none (no reviews are kept).
func TestConfigByConcern(t *testing.T) {
	ctx := context.Background()
	games := gametest.NewMemory(gametest.MemoryOptions{})
	queue := gametest.NewMemory(gametest.MemoryOptions{})
	players := gametest.NewMemory(gametest.MemoryOptions{})
	svc := game.New(game.Config{Games: games, Matchmaking: queue, Players: players, Mover: firstMover{}})
	t.Cleanup(svc.Close)

	if q, err := svc.Find(ctx, alice, 8); err != nil || !q.Queued {
		t.Fatalf("Find = %+v, %v; want queued", q, err)
	}
	if se, err := queue.Searching(ctx, alice.UserID); err != nil || se == nil {
		t.Fatalf("Searching in the Matchmaking given = %+v, %v; want Alice's search", se, err)
	}
	if se, err := games.Searching(ctx, alice.UserID); err != nil || se != nil {
		t.Fatalf("Searching in the Games given = %+v, %v; want none", se, err)
	}
	if _, err := svc.NewAIGame(ctx, bob, bob.ChatID, 8, 1, game.ChooseBlack); err != nil {
		t.Fatal(err)
	}
	if _, err := games.GameByChat(ctx, bob.ChatID); err != nil {
		t.Fatalf("GameByChat in the Games given: %v", err)
	}
	for name, st := range map[string]*gametest.Memory{"Matchmaking": queue, "Players": players} {
		if _, err := st.GameByChat(ctx, bob.ChatID); !errors.Is(err, game.ErrNotFound) {
			t.Errorf("GameByChat in the %s given = %v, want ErrNotFound", name, err)
		}
	}
	if _, err := svc.LastFinished(ctx, bob.ChatID); !errors.Is(err, game.ErrNoGame) {
		t.Errorf("LastFinished with no Reviews = %v, want ErrNoGame", err)
	}
}

// TestConfigNeedsStores: New refuses a Config without the stores a Service cannot do without,
// or without a Mover (a programming error: it panics).
func TestConfigNeedsStores(t *testing.T) {
	m := gametest.NewMemory(gametest.MemoryOptions{})
	for name, cfg := range map[string]game.Config{
		"no stores":      {Mover: firstMover{}},
		"no players":     {Games: m, Matchmaking: m, Mover: firstMover{}},
		"no matchmaking": {Games: m, Players: m, Mover: firstMover{}},
		"no mover":       {Store: m},
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Fatal("New did not panic")
				}
			}()
			game.New(cfg).Close()
		})
	}
}
