package storage_test

import (
	"context"
	"testing"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/storage/storagetest"
)

// A chat still bound to a finished game is free, whatever the game's record holds: also one
// with a rating change or a rematch offer (the record's third format), which StartGame and
// JoinGame once took for a record that is no game's.
func TestStartOverAnEndedGame(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	for i, end := range []func(g *game.Game){
		func(g *game.Game) {},
		func(g *game.Game) {
			g.Rating = game.RatingChange{Rated: true, Before: [2]int{1200, 1200}, After: [2]int{1216, 1184}}
		},
		func(g *game.Game) { g.Rematch, g.RematchBy = game.RematchOffered, g.Players[0].UserID },
	} {
		chat := int64(700 + i)
		old := sampleGame(4)
		startIn(t, s, old, chat)
		old.Status, old.Outcome, old.Reason = game.StatusFinished, game.OutcomeBlack, game.EndNormal
		end(old)
		if err := s.UpdateGame(ctx, old); err != nil {
			t.Fatal(err)
		}
		g := sampleGame(0)
		if _, err := s.StartGame(ctx, g, game.Hosting{Chats: []int64{chat}}); err != nil {
			t.Fatalf("case %d: StartGame in a chat bound to a finished game: %v", i, err)
		}
		wantShows(t, s, chat, g.ID)
		_, join := newInvite(t, s)
		finish(t, s, g)
		end(g)
		if err := s.UpdateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		if err := s.JoinGame(ctx, join, []int64{chat}); err != nil {
			t.Fatalf("case %d: JoinGame into a chat bound to a finished game: %v", i, err)
		}
	}
}
