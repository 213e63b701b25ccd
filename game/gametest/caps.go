package gametest

import (
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/reversibot/reversi/game"
)

// The contract of the per-user caps (game.UserGames, game.UserResults, game.UserInvitations):
// what one user makes a store keep is bounded by count, whatever their update budget allows.

// finishFor starts a game of user against the AI in chat, with the hosting h, and ends it.
func finishFor(t *testing.T, s game.Games, user, chat int64, h game.Hosting) *game.Game {
	t.Helper()
	g := &game.Game{Size: 8, Flow: game.FlowAI, Status: game.StatusPlaying, AILevel: 1, ChatID: chat,
		InlineID: h.InlineID, Players: [2]game.Player{{UserID: user, Name: "U", ChatID: chat}}}
	h.Chats = []int64{chat}
	mustStart(t, s, g, h)
	g.Status, g.Outcome, g.Reason = game.StatusFinished, game.OutcomeWhite, game.EndResign
	if err := s.UpdateGame(bg, g); err != nil {
		t.Fatalf("UpdateGame (the end of game %s): %v", g.ID, err)
	}
	return g
}

// gone reports whether the store has no game id, failing the test on any other error.
func gone(t *testing.T, s game.Games, id string) bool {
	t.Helper()
	_, err := s.Game(bg, id)
	if err != nil && !errors.Is(err, game.ErrNotFound) {
		t.Fatalf("Game(%s): %v", id, err)
	}
	return err != nil
}

// testUserGames: a user's lobbies and finished games beyond game.UserGames are deleted, the
// oldest first, with their rematch marks, inline bindings and reviews; a game in play is not,
// and neither is another user's.
func testUserGames(t *testing.T, s game.Games) {
	const user, other = 7, 8
	lobby := lobbyGame(user)
	mustStart(t, s, lobby, game.Hosting{})
	// A finished game between user and other, hosted in an inline message, with its rematch
	// and review.
	inline := "capped-inline"
	shared := &game.Game{Size: 8, Flow: game.FlowInline, Status: game.StatusPlaying, InlineID: inline,
		Players: [2]game.Player{{UserID: user, Name: "U"}, {UserID: other, Name: "O"}}}
	mustStart(t, s, shared, game.Hosting{InlineID: inline})
	shared.Status, shared.Outcome, shared.Reason = game.StatusFinished, game.OutcomeDraw, game.EndNormal
	if err := s.UpdateGame(bg, shared); err != nil {
		t.Fatal(err)
	}
	rv, reviews := s.(game.Reviews)
	if reviews {
		if err := rv.SaveReview(bg, shared.ID, []byte("review"), time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	re := playingGame(-300)
	mustStart(t, s, re, game.Hosting{Chats: []int64{-300}, RematchOf: shared.ID})
	// A game in play that began as user's lobby.
	playing := lobbyGame(user)
	mustStart(t, s, playing, game.Hosting{})
	playing.Status, playing.Players[1] = game.StatusPlaying, game.Player{UserID: other, Name: "O", ChatID: other}
	if err := s.JoinGame(bg, playing, []int64{user, other}); err != nil {
		t.Fatal(err)
	}
	// Another user's lobby.
	theirs := lobbyGame(other + 1)
	mustStart(t, s, theirs, game.Hosting{})

	// user's ledger holds lobby, shared and playing: UserGames more finished games push all
	// three out.
	var ai []*game.Game
	for i := range game.UserGames {
		ai = append(ai, finishFor(t, s, user, int64(1000+i), game.Hosting{}))
	}
	for _, g := range []*game.Game{lobby, shared} {
		if !gone(t, s, g.ID) {
			t.Fatalf("game %s (status %v) outlived %d newer games of its user", g.ID, g.Status, game.UserGames)
		}
	}
	if _, err := s.GameByInline(bg, inline); !errors.Is(err, game.ErrNotFound) {
		t.Fatalf("GameByInline of a deleted game = %v, want ErrNotFound", err)
	}
	if reviews {
		if _, err := rv.LoadReview(bg, shared.ID); !errors.Is(err, game.ErrNotFound) {
			t.Fatalf("LoadReview of a deleted game = %v, want ErrNotFound", err)
		}
	}
	// The rematch mark went with its game: a start that names it makes a new game.
	again := playingGame(-301)
	if existing, err := s.StartGame(bg, again, game.Hosting{Chats: []int64{-301}, RematchOf: shared.ID}); err != nil ||
		existing != nil {
		t.Fatalf("StartGame of the rematch of a deleted game = %v, %v; want a new game", existing, err)
	}
	for _, g := range []*game.Game{playing, theirs, re, ai[0]} {
		if gone(t, s, g.ID) {
			t.Fatalf("game %s (status %v) was deleted: only a user's oldest lobbies and finished games go", g.ID, g.Status)
		}
	}
	// One more: the oldest of the AI games goes, and only it.
	finishFor(t, s, user, 999, game.Hosting{})
	if !gone(t, s, ai[0].ID) || gone(t, s, ai[1].ID) {
		t.Fatalf("after one more game: oldest gone %v, next gone %v; want true, false",
			gone(t, s, ai[0].ID), gone(t, s, ai[1].ID))
	}
	// The game in play ends: it counts again, as the newest.
	playing.Status, playing.Outcome = game.StatusFinished, game.OutcomeBlack
	if err := s.UpdateGame(bg, playing); err != nil {
		t.Fatal(err)
	}
	finishFor(t, s, user, 998, game.Hosting{})
	if gone(t, s, playing.ID) || !gone(t, s, ai[1].ID) {
		t.Fatal("a game that ends must count as the newest of its user's")
	}
}

// testClaimCap: a creator's claimed invitations beyond game.UserInvitations are forgotten,
// the oldest first.
func testClaimCap(t *testing.T, iv game.Invitations) {
	claim := func(nonce int64, inline string) bool {
		t.Helper()
		ok, err := iv.ClaimInvitation(bg, 5, nonce, inline, time.Hour)
		if err != nil {
			t.Fatalf("ClaimInvitation(5, %d, %q): %v", nonce, inline, err)
		}
		return ok
	}
	for n := int64(1); n <= game.UserInvitations+1; n++ {
		if !claim(n, "first") {
			t.Fatalf("claim %d refused", n)
		}
	}
	if !claim(1, "second") {
		t.Fatal("the oldest claim beyond the cap must be forgotten")
	}
	if claim(3, "second") {
		t.Fatal("a claim within the cap was forgotten")
	}
}

// testResultCap: a user's result marks beyond game.UserResults are forgotten, the oldest first
// (so recording that game again counts it again: no store does that once the game is gone).
func testResultCap(t *testing.T, s game.PlayerStore) {
	if err := s.TouchUser(bg, 1, "U"); err != nil {
		t.Fatal(err)
	}
	record := func(n int) {
		t.Helper()
		g := finished("Res"+strconv.Itoa(n), 0, 1, game.OutcomeWhite)
		g.AILevel, g.Flow = 1, game.FlowAI
		if _, err := s.RecordResult(bg, g); err != nil {
			t.Fatal(err)
		}
	}
	for n := range game.UserResults + 1 {
		record(n)
	}
	wins := func() int {
		p, err := s.Profile(bg, 1)
		if err != nil {
			t.Fatal(err)
		}
		return p.Stats.VsAI[1].Wins
	}
	if w := wins(); w != game.UserResults+1 {
		t.Fatalf("%d wins, want %d", w, game.UserResults+1)
	}
	record(1) // within the cap: counted once already
	if w := wins(); w != game.UserResults+1 {
		t.Fatalf("a result within the cap counted twice: %d wins", w)
	}
	record(0) // beyond it: its mark is forgotten
	if w := wins(); w != game.UserResults+2 {
		t.Fatalf("the oldest result mark beyond the cap was kept: %d wins, want %d", w, game.UserResults+2)
	}
}
