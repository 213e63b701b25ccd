package storage_test

import (
	"context"
	"testing"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/storage/storagetest"
)

// TestResultNeedsKnownPlayers: a result naming a user id that never talked to the bot (no
// TouchUser, SetLang or SetStyle) records nothing for anyone: no profile, no rating, no
// leaderboard entry, for the made-up id or for the real player. Recording it again, once the
// id has talked to the bot, still changes nothing; a new game between them is rated.
func TestResultNeedsKnownPlayers(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	const real, madeUp, aiPlayer = 11, 4503599627370495, 13
	if err := s.TouchUser(ctx, real, "Real"); err != nil {
		t.Fatal(err)
	}
	people := finished("forged1", real, madeUp, game.OutcomeWhite)
	group := finished("forged2", madeUp, real, game.OutcomeBlack)
	group.Flow, group.ChatID = game.FlowGroup, -500
	ai := &game.Game{ID: "forged3", Size: 8, Flow: game.FlowAI, Status: game.StatusFinished, AILevel: 2,
		Players: [2]game.Player{{UserID: aiPlayer, Name: "Nobody"}, {}}, Outcome: game.OutcomeBlack}
	for _, g := range []*game.Game{people, group, ai} {
		if _, err := s.RecordResult(ctx, g); err != nil {
			t.Fatalf("RecordResult(%s) = %v", g.ID, err)
		}
	}
	for _, chat := range []int64{0, -500} {
		if top, err := s.Top(ctx, chat, 10); err != nil || len(top) != 0 {
			t.Errorf("Top(%d) = %+v, %v; want nobody (the games were unrated)", chat, top, err)
		}
	}
	want := game.Stats{Rating: game.InitialRating}
	for _, id := range []int64{real, madeUp, aiPlayer} {
		p, err := s.Profile(ctx, id)
		if err != nil || p.Stats.Wins+p.Stats.Losses+p.Stats.Draws != 0 || p.Stats.Rating != want.Rating || p.Stats.VsAI != nil {
			t.Errorf("Profile(%d) = %+v, %v; want no results", id, p, err)
		}
	}
	for id, want := range map[int64]bool{real: true, madeUp: false, aiPlayer: false} {
		if known, err := s.Known(ctx, id); err != nil || known != want {
			t.Errorf("Known(%d) = %v, %v; want %v", id, known, err, want)
		}
	}

	// The made-up id talks to the bot now: the old game stays unrated, a new one counts.
	if err := s.TouchUser(ctx, madeUp, "Late"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordResult(ctx, people); err != nil {
		t.Fatal(err)
	}
	if top, err := s.Top(ctx, 0, 10); err != nil || len(top) != 0 {
		t.Errorf("after the id talked, the old game was rated: Top = %+v, %v", top, err)
	}
	if _, err := s.RecordResult(ctx, finished("fair", real, madeUp, game.OutcomeWhite)); err != nil {
		t.Fatal(err)
	}
	top, err := s.Top(ctx, 0, 10)
	if err != nil || len(top) != 2 || top[0].UserID != madeUp || top[0].Wins != 1 {
		t.Fatalf("Top after a game between known players = %+v, %v", top, err)
	}
}
