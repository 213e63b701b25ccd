package gametest_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/game/gametest"
)

// A finished game's rematch mark and review live as long as its record, never longer, as in
// the Redis store (storage TestRematchMarkLivesWithItsGame).
func TestMemoryRematchMarkLivesWithItsGame(t *testing.T) {
	ctx := context.Background()
	c := gametest.NewClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	m := gametest.NewMemory(gametest.MemoryOptions{Now: c.Now})
	start := func(chat int64, rematchOf string) (*game.Game, *game.Game) {
		t.Helper()
		g := &game.Game{Size: 8, Flow: game.FlowGroup, Status: game.StatusPlaying, ChatID: chat,
			Players: [2]game.Player{{UserID: 11, Name: "A"}, {UserID: 12, Name: "B"}}}
		existing, err := m.StartGame(ctx, g, game.Hosting{Chats: []int64{chat}, RematchOf: rematchOf})
		if err != nil {
			t.Fatal(err)
		}
		return g, existing
	}
	old, _ := start(-70, "")
	old.Status, old.Outcome, old.Reason = game.StatusFinished, game.OutcomeBlack, game.EndResign
	if err := m.UpdateGame(ctx, old); err != nil {
		t.Fatal(err)
	}
	c.Add(time.Hour)
	re, _ := start(-71, old.ID)
	if err := m.SaveReview(ctx, old.ID, []byte("review"), 2*game.DefaultFinishedTTL); err != nil {
		t.Fatal(err)
	}
	c.Add(time.Hour)
	old.Rematch = game.RematchAccepted
	if err := m.UpdateGame(ctx, old); err != nil {
		t.Fatal(err)
	}
	c.Add(game.DefaultFinishedTTL - time.Second)
	if _, got := start(-72, old.ID); got == nil || got.ID != re.ID {
		t.Fatalf("rematch of a finished game that is still there = %v, want the one made, %s", got, re.ID)
	}
	c.Add(2 * time.Second)
	if _, got := start(-73, old.ID); got != nil {
		t.Fatalf("the rematch mark outlived its game: it still names %s", got.ID)
	}
	if _, err := m.LoadReview(ctx, old.ID); !errors.Is(err, game.ErrNotFound) {
		t.Fatalf("LoadReview after the game expired = %v, want ErrNotFound", err)
	}
}
