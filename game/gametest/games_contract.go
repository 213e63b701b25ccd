package gametest

import (
	"errors"
	"testing"
	"time"

	"github.com/reversibot/reversi/game"
)

// TestGames checks that the stores newStore makes keep the contract of game.Games, as the
// hosting service relies on it: compare-and-set on Version, one lobby or game in play per chat,
// atomic starts and joins among racing callers, existing games given back for an inline message
// and a rematch, set-aside records, and each user's cap of lobbies and finished games (with
// their reviews, when the store is a game.Reviews too).
func TestGames(t *testing.T, newStore func(t *testing.T) game.Games) {
	t.Helper()
	tests := []struct {
		name string
		run  func(t *testing.T, s game.Games)
	}{
		{"StartAndRead", testStartAndRead},
		{"UpdateIsCompareAndSet", testUpdateCAS},
		{"KeepsEnding", testKeepsEnding},
		{"RacingUpdates", testRacingUpdates},
		{"OneGamePerChat", testOneGamePerChat},
		{"RacingStarts", testRacingStarts},
		{"Join", testJoin},
		{"RacingJoins", testRacingJoins},
		{"Inline", testInline},
		{"Rematch", testRematch},
		{"Unbind", testUnbind},
		{"SetAside", testSetAside},
		{"Invalid", testInvalid},
		{"UserGames", testUserGames},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, newStore(t)) })
	}
}

func testStartAndRead(t *testing.T, s game.Games) {
	g := playingGame(-100)
	g.Boards = []game.MessageRef{{ChatID: -100, MessageID: 7}, {InlineID: "in1"}}
	g.Style = game.StyleImage
	mustStart(t, s, g, game.Hosting{Chats: []int64{-100}})
	if g.ID == "" || len(g.ID) > 12 || g.Version != 1 || g.Created.IsZero() || !g.Updated.Equal(g.Created) {
		t.Fatalf("started game: ID %q, Version %d, Created %v, Updated %v", g.ID, g.Version, g.Created, g.Updated)
	}
	got, err := s.Game(bg, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != g.ID || got.Version != 1 || string(got.Moves) != string(g.Moves) || got.Style != game.StyleImage ||
		len(got.Boards) != 2 || got.Boards[0] != g.Boards[0] || got.Players != g.Players || got.ChatID != -100 {
		t.Fatalf("Game = %+v, want %+v", got, g)
	}
	got.Moves[0] = 0x00 // the caller's copy
	if again, _ := s.Game(bg, g.ID); again.Moves[0] != 0x23 {
		t.Fatal("Game shares its moves with the stored game")
	}
	if byChat, err := s.GameByChat(bg, -100); err != nil || byChat.ID != g.ID {
		t.Fatalf("GameByChat = %v, %v", byChat, err)
	}
	for _, id := range []string{"", "nosuchgame1", "bad id!", "{g}x", "toolongtobeagameid"} {
		if _, err := s.Game(bg, id); !errors.Is(err, game.ErrNotFound) {
			t.Fatalf("Game(%q) = %v, want ErrNotFound", id, err)
		}
	}
	_, err = s.GameByChat(bg, -101)
	wantCode(t, "GameByChat of a free chat", err, game.ErrNotFound)
	_, err = s.GameByChat(bg, 0)
	wantCode(t, "GameByChat(0)", err, game.ErrNotFound)
	_, err = s.GameByInline(bg, "nothing")
	wantCode(t, "GameByInline of a free message", err, game.ErrNotFound)
}

func testUpdateCAS(t *testing.T, s game.Games) {
	g := playingGame(-100)
	mustStart(t, s, g, game.Hosting{Chats: []int64{-100}})
	stale := g.Clone()
	g.Moves = append(g.Moves, 0x24)
	if err := s.UpdateGame(bg, g); err != nil || g.Version != 2 {
		t.Fatalf("UpdateGame = %v, Version %d; want nil, 2", err, g.Version)
	}
	stale.Moves = append(stale.Moves, 0x32)
	wantCode(t, "UpdateGame of an old version", s.UpdateGame(bg, stale), game.ErrConflict)
	got, _ := s.Game(bg, g.ID)
	if got.Version != 2 || len(got.Moves) != 2 || got.Moves[1] != 0x24 {
		t.Fatalf("after a lost update the game is %+v", got)
	}
	missing := g.Clone()
	missing.ID = "Gone1234"
	wantCode(t, "UpdateGame of a missing game", s.UpdateGame(bg, missing), game.ErrNotFound)
}

// testKeepsEnding: a finished game keeps its rating change and its rematch offer.
func testKeepsEnding(t *testing.T, s game.Games) {
	g := playingGame(-100)
	mustStart(t, s, g, game.Hosting{Chats: []int64{-100}})
	g.Status, g.Outcome = game.StatusFinished, game.OutcomeBlack
	g.Rating = game.RatingChange{Rated: true, Before: [2]int{1200, 1300}, After: [2]int{1221, 1279}}
	g.Rematch, g.RematchBy = game.RematchOffered, 2
	g.RematchAt = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	if err := s.UpdateGame(bg, g); err != nil {
		t.Fatal(err)
	}
	got, err := s.Game(bg, g.ID)
	if err != nil || got.Rating != g.Rating || got.Rematch != game.RematchOffered || got.RematchBy != 2 ||
		!got.RematchAt.Equal(g.RematchAt) {
		t.Fatalf("finished game read back as %+v, %v; want the rating %+v and the offer of user 2 at %v",
			got, err, g.Rating, g.RematchAt)
	}
	got.Rating.Before[0] = -5 // ratings may go below zero, and the store keeps them
	got.Rematch = game.RematchDeclined
	if err := s.UpdateGame(bg, got); err != nil {
		t.Fatal(err)
	}
	if again, err := s.Game(bg, g.ID); err != nil || again.Rating != got.Rating || again.Rematch != game.RematchDeclined {
		t.Fatalf("after an update the game is %+v, %v", again, err)
	}
	bad := got.Clone()
	bad.Rematch = game.RematchState(200)
	wantCode(t, "UpdateGame of an unknown rematch state", s.UpdateGame(bg, bad), game.ErrInvalid)
}

func testRacingUpdates(t *testing.T, s game.Games) {
	g := playingGame(-100)
	mustStart(t, s, g, game.Hosting{Chats: []int64{-100}})
	const n = 8
	errs := race(n, func(i int) error {
		c := g.Clone()
		c.Moves = append(c.Moves, byte(0x40+i))
		return s.UpdateGame(bg, c)
	})
	won := 0
	for _, err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, game.ErrConflict):
			t.Fatalf("racing UpdateGame: %v", err)
		}
	}
	if got, _ := s.Game(bg, g.ID); won != 1 || got.Version != 2 || len(got.Moves) != 2 {
		t.Fatalf("%d racing updates won; game at version %d with %d moves", won, got.Version, len(got.Moves))
	}
}

func testOneGamePerChat(t *testing.T, s game.Games) {
	g := playingGame(-100)
	mustStart(t, s, g, game.Hosting{Chats: []int64{-100}})
	second := playingGame(-100)
	_, err := s.StartGame(bg, second, game.Hosting{Chats: []int64{-200, -100}})
	var busy *game.BusyError
	if !errors.As(err, &busy) || busy.ChatID != -100 || !errors.Is(err, game.ErrChatBusy) {
		t.Fatalf("StartGame in a busy chat = %v, want a BusyError for -100", err)
	}
	if second.ID != "" {
		t.Fatal("a refused StartGame changed its game")
	}
	_, err = s.GameByChat(bg, -200)
	wantCode(t, "the free chat of a refused start", err, game.ErrNotFound)
	// A lobby holds its chat too; a finished game does not.
	lobby := lobbyGame(5)
	lobby.Flow, lobby.ChatID = game.FlowGroup, -300
	mustStart(t, s, lobby, game.Hosting{Chats: []int64{-300}})
	_, err = s.StartGame(bg, playingGame(-300), game.Hosting{Chats: []int64{-300}})
	wantCode(t, "StartGame in a chat with a lobby", err, game.ErrChatBusy)
	g.Status, g.Outcome = game.StatusFinished, game.OutcomeBlack
	if err := s.UpdateGame(bg, g); err != nil {
		t.Fatal(err)
	}
	next := playingGame(-100)
	mustStart(t, s, next, game.Hosting{Chats: []int64{-100}})
	if cur, err := s.GameByChat(bg, -100); err != nil || cur.ID != next.ID {
		t.Fatalf("GameByChat after a new start = %v, %v; want %s", cur, err, next.ID)
	}
}

func testRacingStarts(t *testing.T, s game.Games) {
	const n = 8
	ids := make([]string, n)
	errs := race(n, func(i int) error {
		g := playingGame(-100)
		_, err := s.StartGame(bg, g, game.Hosting{Chats: []int64{-100}})
		ids[i] = g.ID
		return err
	})
	var winner string
	for i, err := range errs {
		switch {
		case err == nil && winner == "":
			winner = ids[i]
		case err == nil:
			t.Fatalf("two racing starts in one chat succeeded: %s and %s", winner, ids[i])
		case !errors.Is(err, game.ErrChatBusy):
			t.Fatalf("racing StartGame: %v", err)
		}
	}
	if cur, err := s.GameByChat(bg, -100); err != nil || cur.ID != winner {
		t.Fatalf("GameByChat = %v, %v; want the winner %s", cur, err, winner)
	}
}

func testJoin(t *testing.T, s game.Games) {
	lobby := lobbyGame(1)
	mustStart(t, s, lobby, game.Hosting{})
	join := lobby.Clone()
	join.Status, join.Players[1] = game.StatusPlaying, game.Player{UserID: 2, Name: "B", ChatID: 2}
	// The joiner's chat has a game: nothing is written.
	other := playingGame(2)
	mustStart(t, s, other, game.Hosting{Chats: []int64{2}})
	err := s.JoinGame(bg, join.Clone(), []int64{1, 2})
	var busy *game.BusyError
	if !errors.As(err, &busy) || busy.ChatID != 2 {
		t.Fatalf("JoinGame with a busy chat = %v, want a BusyError for chat 2", err)
	}
	if got, _ := s.Game(bg, lobby.ID); got.Version != 1 || got.Status != game.StatusLobby {
		t.Fatalf("a refused join wrote the lobby: %+v", got)
	}
	_, err = s.GameByChat(bg, 1)
	wantCode(t, "the creator's chat after a refused join", err, game.ErrNotFound)
	other.Status, other.Outcome = game.StatusFinished, game.OutcomeDraw
	if err := s.UpdateGame(bg, other); err != nil {
		t.Fatal(err)
	}
	if err := s.JoinGame(bg, join, []int64{1, 2}); err != nil || join.Version != 2 {
		t.Fatalf("JoinGame = %v, Version %d", err, join.Version)
	}
	for _, c := range []int64{1, 2} {
		if g, err := s.GameByChat(bg, c); err != nil || g.ID != lobby.ID || g.Status != game.StatusPlaying {
			t.Fatalf("GameByChat(%d) after the join = %v, %v", c, g, err)
		}
	}
	// Joined already: the lobby's version is gone.
	wantCode(t, "JoinGame of an old version", s.JoinGame(bg, lobby.Clone(), []int64{1}), game.ErrConflict)
	// A chat bound to the game itself is no obstacle.
	if err := s.JoinGame(bg, join, []int64{1, 2}); err != nil {
		t.Fatalf("JoinGame again into its own chats: %v", err)
	}
}

func testRacingJoins(t *testing.T, s game.Games) {
	lobby := lobbyGame(1)
	mustStart(t, s, lobby, game.Hosting{})
	const n = 6
	errs := race(n, func(i int) error {
		j := lobby.Clone()
		user := int64(10 + i)
		j.Status, j.Players[1] = game.StatusPlaying, game.Player{UserID: user, ChatID: user}
		return s.JoinGame(bg, j, []int64{1, user})
	})
	var joined []int64
	for i, err := range errs {
		switch {
		case err == nil:
			joined = append(joined, int64(10+i))
		case !errors.Is(err, game.ErrConflict):
			t.Fatalf("racing JoinGame: %v", err)
		}
	}
	if len(joined) != 1 {
		t.Fatalf("%d racing joins succeeded", len(joined))
	}
	for i := range n {
		u := int64(10 + i)
		_, err := s.GameByChat(bg, u)
		if u == joined[0] && err != nil || u != joined[0] && !errors.Is(err, game.ErrNotFound) {
			t.Fatalf("GameByChat(%d) after racing joins: %v (winner %d)", u, err, joined[0])
		}
	}
}

func testInline(t *testing.T, s game.Games) {
	lobby := lobbyGame(1)
	lobby.Flow, lobby.InlineID = game.FlowInline, "inl-1"
	mustStart(t, s, lobby, game.Hosting{InlineID: "inl-1"})
	if g, err := s.GameByInline(bg, "inl-1"); err != nil || g.ID != lobby.ID {
		t.Fatalf("GameByInline = %v, %v", g, err)
	}
	again := lobbyGame(3)
	again.Flow, again.InlineID = game.FlowInline, "inl-1"
	existing, err := s.StartGame(bg, again, game.Hosting{InlineID: "inl-1"})
	if err != nil || existing == nil || existing.ID != lobby.ID || again.ID != "" {
		t.Fatalf("StartGame on an inline message with a game = %v, %v; want that game back", existing, err)
	}
}

func testRematch(t *testing.T, s game.Games) {
	old := playingGame(-100)
	mustStart(t, s, old, game.Hosting{Chats: []int64{-100}})
	old.Status, old.Outcome, old.Reason = game.StatusFinished, game.OutcomeWhite, game.EndResign
	if err := s.UpdateGame(bg, old); err != nil {
		t.Fatal(err)
	}
	re := playingGame(-100)
	mustStart(t, s, re, game.Hosting{Chats: []int64{-100}, RematchOf: old.ID})
	second := playingGame(-100)
	existing, err := s.StartGame(bg, second, game.Hosting{Chats: []int64{-100}, RematchOf: old.ID})
	if err != nil || existing == nil || existing.ID != re.ID {
		t.Fatalf("a second rematch = %v, %v; want the first, %s", existing, err, re.ID)
	}
}

func testUnbind(t *testing.T, s game.Games) {
	g := playingGame(-100)
	mustStart(t, s, g, game.Hosting{Chats: []int64{-100}})
	if err := s.UnbindChat(bg, -100, "SomeOther"); err != nil {
		t.Fatal(err)
	}
	if cur, err := s.GameByChat(bg, -100); err != nil || cur.ID != g.ID {
		t.Fatalf("UnbindChat of another game unbound the chat: %v, %v", cur, err)
	}
	if err := s.UnbindChat(bg, -100, g.ID); err != nil {
		t.Fatal(err)
	}
	_, err := s.GameByChat(bg, -100)
	wantCode(t, "GameByChat after UnbindChat", err, game.ErrNotFound)
	if _, err := s.Game(bg, g.ID); err != nil {
		t.Fatalf("UnbindChat removed the game: %v", err)
	}
}

func testSetAside(t *testing.T, s game.Games) {
	g := playingGame(-100)
	g.InlineID = "inl-2"
	mustStart(t, s, g, game.Hosting{Chats: []int64{-100}, InlineID: "inl-2"})
	key, moved, err := s.SetAside(bg, g.ID, game.MessageRef{ChatID: -100})
	if err != nil || !moved || key == "" {
		t.Fatalf("SetAside = %q, %v, %v", key, moved, err)
	}
	_, err = s.Game(bg, g.ID)
	wantCode(t, "Game after SetAside", err, game.ErrNotFound)
	_, err = s.GameByChat(bg, -100)
	wantCode(t, "GameByChat after SetAside", err, game.ErrNotFound)
	_, err = s.GameByInline(bg, "inl-2")
	wantCode(t, "GameByInline after SetAside", err, game.ErrNotFound)
	if again, moved, err := s.SetAside(bg, g.ID); err != nil || moved || again != key {
		t.Fatalf("SetAside again = %q, %v, %v; want %q, false", again, moved, err, key)
	}
	_, _, err = s.SetAside(bg, "Never123")
	wantCode(t, "SetAside of no record", err, game.ErrNotFound)
	mustStart(t, s, playingGame(-100), game.Hosting{Chats: []int64{-100}})
}

func testInvalid(t *testing.T, s game.Games) {
	bad := playingGame(-100)
	bad.Size = 7
	_, err := s.StartGame(bg, bad, game.Hosting{Chats: []int64{-100}})
	wantCode(t, "StartGame of a 7×7 game", err, game.ErrInvalid)
	if game.ErrorCode(err) != game.CodeInvalid {
		t.Fatalf("ErrorCode of an invalid start = %q", game.ErrorCode(err))
	}
	off := playingGame(-100)
	off.Size, off.Moves = 4, []byte{0x44}
	_, err = s.StartGame(bg, off, game.Hosting{})
	wantCode(t, "StartGame with a move off the board", err, game.ErrInvalid)
	_, err = s.StartGame(bg, playingGame(-100), game.Hosting{Chats: []int64{0}})
	wantCode(t, "StartGame in chat 0", err, game.ErrInvalid)
}
