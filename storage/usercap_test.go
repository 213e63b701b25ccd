package storage_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/storage"
)

// A finished game's rematch mark and review live as long as its record, never longer: the mark
// follows the record's TTL when it is made and when the record is written again.
func TestRematchMarkLivesWithItsGame(t *testing.T) {
	ctx := context.Background()
	s, _, advance := newClocked(t)
	old := sampleGame(4)
	old.Players[0].UserID, old.Players[1].UserID = 11, 12
	if _, err := s.StartGame(ctx, old, game.Hosting{Chats: []int64{old.ChatID}}); err != nil {
		t.Fatal(err)
	}
	old.Status, old.Outcome, old.Reason = game.StatusFinished, game.OutcomeBlack, game.EndResign
	if err := s.UpdateGame(ctx, old); err != nil {
		t.Fatal(err)
	}
	advance(time.Hour)
	re := sampleGame(0)
	if _, err := s.StartGame(ctx, re, game.Hosting{Chats: []int64{-71}, RematchOf: old.ID}); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveReview(ctx, old.ID, []byte("review"), 2*storage.DefaultFinishedTTL); err != nil {
		t.Fatal(err)
	}
	advance(time.Hour)
	old.Rematch = game.RematchAccepted // a write two hours after the end: the record lives 24 h from now
	if err := s.UpdateGame(ctx, old); err != nil {
		t.Fatal(err)
	}
	rematchOf := func(chat int64) *game.Game {
		t.Helper()
		existing, err := s.StartGame(ctx, sampleGame(0), game.Hosting{Chats: []int64{chat}, RematchOf: old.ID})
		if err != nil {
			t.Fatal(err)
		}
		return existing
	}
	advance(storage.DefaultFinishedTTL - time.Second)
	if got := rematchOf(-72); got == nil || got.ID != re.ID {
		t.Fatalf("rematch of a finished game that is still there = %v, want the one made, %s", got, re.ID)
	}
	advance(2 * time.Second)
	if _, err := s.Game(ctx, old.ID); !errors.Is(err, game.ErrNotFound) {
		t.Fatalf("finished game after FinishedTTL: %v", err)
	}
	if got := rematchOf(-73); got != nil {
		t.Fatalf("the rematch mark outlived its game: it still names %s", got.ID)
	}
	if _, err := s.LoadReview(ctx, old.ID); !errors.Is(err, game.ErrNotFound) {
		t.Fatalf("LoadReview after the game expired = %v, want ErrNotFound", err)
	}
}
