package gametest

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/reversibot/reversi/game"
)

// TestStore checks that the stores newStore makes keep the contract of game.Store, as the
// hosting service relies on it: compare-and-set on Version, one lobby or game in play per chat,
// atomic starts and joins among racing callers, existing games given back for an inline message
// and a rematch, set-aside records, and the matchmaking queue. Each subtest gets a store of its
// own from newStore. It does not move clocks: expiry is the stores' own tests' business.
func TestStore(t *testing.T, newStore func(t *testing.T) game.Store) {
	t.Helper()
	tests := []struct {
		name string
		run  func(t *testing.T, s game.Store)
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
		{"Queue", testQueue},
		{"RacingEnqueues", testRacingEnqueues},
		{"Invitations", testInvitations},
		{"Reviews", testReviews},
		{"UserGames", testUserGames},
		{"ClaimCap", testClaimCap},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, newStore(t)) })
	}
}

var bg = context.Background()

func lobbyGame(user int64) *game.Game {
	return &game.Game{Size: 8, Flow: game.FlowInvite, Status: game.StatusLobby, CreatorColor: -1,
		Players: [2]game.Player{{UserID: user, Name: "P", ChatID: user}}}
}

func playingGame(chat int64) *game.Game {
	return &game.Game{Size: 8, Flow: game.FlowGroup, Status: game.StatusPlaying, ChatID: chat,
		Players: [2]game.Player{{UserID: 1, Name: "A"}, {UserID: 2, Name: "B"}}, Moves: []byte{0x23}}
}

func mustStart(t *testing.T, s game.Store, g *game.Game, h game.Hosting) {
	t.Helper()
	if existing, err := s.StartGame(bg, g, h); err != nil || existing != nil {
		t.Fatalf("StartGame = %v, %v", existing, err)
	}
}

// race runs op(0) … op(n-1) in n goroutines at once, waits for all of them, and returns their
// errors by index: the start of every racing test of the contract.
func race(n int, op func(i int) error) []error {
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = op(i)
		}()
	}
	wg.Wait()
	return errs
}

func wantCode(t *testing.T, what string, err error, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("%s: error %v, want %v", what, err, want)
	}
}

func testStartAndRead(t *testing.T, s game.Store) {
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

func testUpdateCAS(t *testing.T, s game.Store) {
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
func testKeepsEnding(t *testing.T, s game.Store) {
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

func testRacingUpdates(t *testing.T, s game.Store) {
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

func testOneGamePerChat(t *testing.T, s game.Store) {
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

func testRacingStarts(t *testing.T, s game.Store) {
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

func testJoin(t *testing.T, s game.Store) {
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

func testRacingJoins(t *testing.T, s game.Store) {
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

func testInline(t *testing.T, s game.Store) {
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

func testRematch(t *testing.T, s game.Store) {
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

func testUnbind(t *testing.T, s game.Store) {
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

func testSetAside(t *testing.T, s game.Store) {
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

func testInvalid(t *testing.T, s game.Store) {
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
	_, err = s.Enqueue(bg, 9, game.Waiter{UserID: 1})
	wantCode(t, "Enqueue for size 9", err, game.ErrInvalid)
	_, err = s.Enqueue(bg, 8, game.Waiter{})
	wantCode(t, "Enqueue without a user", err, game.ErrInvalid)
}

func testQueue(t *testing.T, s game.Store) {
	w := func(u int64) game.Waiter { return game.Waiter{UserID: u, ChatID: u, Name: "W", Lang: "en"} }
	if opp, err := s.Enqueue(bg, 8, w(1)); err != nil || opp != nil {
		t.Fatalf("first Enqueue = %v, %v; want queued", opp, err)
	}
	if opp, err := s.Enqueue(bg, 8, w(1)); err != nil || opp != nil {
		t.Fatalf("Enqueue of the same user again = %v, %v; never paired with itself", opp, err)
	}
	if opp, err := s.Enqueue(bg, 10, w(2)); err != nil || opp != nil {
		t.Fatalf("Enqueue for another size = %v, %v; want queued", opp, err)
	}
	opp, err := s.Enqueue(bg, 8, w(3))
	if err != nil || opp == nil || *opp != w(1) {
		t.Fatalf("Enqueue with someone waiting = %v, %v; want user 1", opp, err)
	}
	// Both left the queue: 3 was not queued, 1 was taken.
	if ok, err := s.LeaveQueue(bg, 1); err != nil || ok {
		t.Fatalf("LeaveQueue of a paired user = %v, %v", ok, err)
	}
	if ok, err := s.LeaveQueue(bg, 3); err != nil || ok {
		t.Fatalf("LeaveQueue of a user Enqueue paired at once = %v, %v", ok, err)
	}
	// A new entry replaces the user's entry for another size.
	if opp, err := s.Enqueue(bg, 8, w(2)); err != nil || opp != nil {
		t.Fatalf("Enqueue of user 2 for 8×8 = %v, %v", opp, err)
	}
	if opp, err := s.Enqueue(bg, 10, w(4)); err != nil || opp != nil {
		t.Fatalf("Enqueue for 10×10 found %v (%v) though user 2 moved to 8×8", opp, err)
	}
	if ok, err := s.Requeue(bg, 8, w(2)); err != nil || ok {
		t.Fatalf("Requeue of a user who waits = %v, %v; want false", ok, err)
	}
	if ok, err := s.LeaveQueue(bg, 2); err != nil || !ok {
		t.Fatalf("LeaveQueue of a waiting user = %v, %v", ok, err)
	}
	if ok, err := s.Requeue(bg, 8, w(2)); err != nil || !ok {
		t.Fatalf("Requeue = %v, %v; want true", ok, err)
	}
	if opp, err := s.Enqueue(bg, 8, w(5)); err != nil || opp == nil || opp.UserID != 2 {
		t.Fatalf("Enqueue after a Requeue = %v, %v; want user 2", opp, err)
	}
}

func testRacingEnqueues(t *testing.T, s game.Store) {
	const n = 10
	got := make([]*game.Waiter, n)
	errs := race(n, func(i int) error {
		u := int64(100 + i)
		opp, err := s.Enqueue(bg, 8, game.Waiter{UserID: u, ChatID: u})
		got[i] = opp
		return err
	})
	for _, err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	taken := map[int64]int64{}
	for i, opp := range got {
		if opp == nil {
			continue
		}
		u := int64(100 + i)
		if opp.UserID == u {
			t.Fatalf("user %d was paired with itself", u)
		}
		if by, ok := taken[opp.UserID]; ok {
			t.Fatalf("user %d was handed to %d and %d", opp.UserID, by, u)
		}
		taken[opp.UserID] = u
	}
	if len(taken) != n/2 {
		t.Fatalf("%d pairs of %d racing users, want %d", len(taken), n, n/2)
	}
}

// TestPlayerStore checks that the stores newStore makes keep the contract of game.PlayerStore:
// only known people's results count, once per game, with Elo ratings and leaderboards.
func TestPlayerStore(t *testing.T, newStore func(t *testing.T) game.PlayerStore) {
	t.Helper()
	t.Run("Results", func(t *testing.T) { testResults(t, newStore(t)) })
	t.Run("AIResults", func(t *testing.T) { testAIResults(t, newStore(t)) })
	t.Run("Choices", func(t *testing.T) { testChoices(t, newStore(t)) })
	t.Run("TurnNotices", func(t *testing.T) { testTurnNotices(t, newStore(t)) })
	t.Run("ResultCap", func(t *testing.T) { testResultCap(t, newStore(t)) })
}

// testTurnNotices: each swap returns the notice recorded before it, per user, with what it
// claimed; a notice is dropped only while it is the newest, and only once.
func testTurnNotices(t *testing.T, s game.PlayerStore) {
	turn := func(msg int, id string, version int64, moves int) game.TurnNotice {
		return game.TurnNotice{MessageID: msg, GameID: id, Version: version, Moves: moves}
	}
	for i, step := range []struct {
		user    int64
		n, prev game.TurnNotice
	}{
		{1, turn(10, "g1", 3, 1), game.TurnNotice{}},
		{1, turn(11, "", 0, 0), turn(10, "g1", 3, 1)},
		{2, turn(20, "g2", 7, 5), game.TurnNotice{}},
		{1, turn(12, "g1", 5, 3), turn(11, "", 0, 0)},
		{2, turn(21, "g2", 9, 7), turn(20, "g2", 7, 5)},
	} {
		if prev, err := s.SwapTurnNotice(bg, step.user, step.n); err != nil || prev != step.prev {
			t.Fatalf("step %d: SwapTurnNotice(%d, %+v) = %+v, %v; want %+v", i, step.user, step.n, prev, err, step.prev)
		}
	}
	if n, err := s.NewestTurnNotice(bg, 1); err != nil || n != turn(12, "g1", 5, 3) {
		t.Fatalf("NewestTurnNotice(1) = %+v, %v; want the last swapped in", n, err)
	}
	if n, err := s.NewestTurnNotice(bg, 3); err != nil || n != (game.TurnNotice{}) {
		t.Fatalf("NewestTurnNotice of a user never told = %+v, %v; want none", n, err)
	}
	// Only the newest notice is dropped, and once.
	for i, step := range []struct {
		n    game.TurnNotice
		want bool
	}{{turn(11, "", 0, 0), false}, {turn(12, "g1", 5, 2), false}, {turn(12, "g1", 5, 3), true}, {turn(12, "g1", 5, 3), false}} {
		if ok, err := s.DropTurnNotice(bg, 1, step.n); err != nil || ok != step.want {
			t.Fatalf("drop %d: DropTurnNotice(1, %+v) = %v, %v; want %v", i, step.n, ok, err, step.want)
		}
	}
	if n, err := s.NewestTurnNotice(bg, 1); err != nil || n != (game.TurnNotice{}) {
		t.Fatalf("NewestTurnNotice(1) after the drop = %+v, %v; want none", n, err)
	}
	if n, err := s.NewestTurnNotice(bg, 2); err != nil || n != turn(21, "g2", 9, 7) {
		t.Fatalf("NewestTurnNotice(2) = %+v, %v; the other user's notice is gone", n, err)
	}
	if prev, err := s.SwapTurnNotice(bg, 1, turn(13, "g3", 1, 0)); err != nil || prev != (game.TurnNotice{}) {
		t.Fatalf("SwapTurnNotice after the drop = %+v, %v; want none before", prev, err)
	}
}

// testChoices: a user's language and board style, and a chat's language, are kept and can be
// forgotten; only a choice made makes a user known.
func testChoices(t *testing.T, s game.PlayerStore) {
	if err := s.SetLang(bg, 1, "ru"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetStyle(bg, 1, game.StyleImage); err != nil {
		t.Fatal(err)
	}
	if p, err := s.Profile(bg, 1); err != nil || p.Lang != "ru" || p.Style != game.StyleImage {
		t.Fatalf("Profile after SetLang ru, SetStyle image = %+v, %v", p, err)
	}
	if err := s.SetLang(bg, 1, ""); err != nil {
		t.Fatal(err)
	}
	if err := s.SetStyle(bg, 1, game.StyleButtons); err != nil {
		t.Fatal(err)
	}
	if p, err := s.Profile(bg, 1); err != nil || p.Lang != "" || p.Style != game.StyleButtons {
		t.Fatalf("Profile after forgetting the choices = %+v, %v", p, err)
	}
	wantCode(t, "SetStyle of an unknown style", s.SetStyle(bg, 1, game.Style(9)), game.ErrInvalid)
	wantCode(t, "SetLang of a long code", s.SetLang(bg, 1, "abcdefghijklmnopq"), game.ErrInvalid)
	wantCode(t, "SetChatLang of a long code", s.SetChatLang(bg, -5, "abcdefghijklmnopq"), game.ErrInvalid)

	// A user who chose a language is known: their results count.
	if err := s.SetLang(bg, 2, "en"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetStyle(bg, 3, game.StyleImage); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordResult(bg, finished("Game5", 2, 3, game.OutcomeDraw)); err != nil {
		t.Fatal(err)
	}
	if p, _ := s.Profile(bg, 2); p.Stats.Draws != 1 {
		t.Fatalf("a draw between users known by their choices did not count: %+v", p.Stats)
	}

	if l, err := s.ChatLang(bg, -5); err != nil || l != "" {
		t.Fatalf("ChatLang of a chat without a choice = %q, %v", l, err)
	}
	if err := s.SetChatLang(bg, -5, "ru"); err != nil {
		t.Fatal(err)
	}
	if l, err := s.ChatLang(bg, -5); err != nil || l != "ru" {
		t.Fatalf("ChatLang after SetChatLang ru = %q, %v", l, err)
	}
	if l, err := s.ChatLang(bg, -6); err != nil || l != "" {
		t.Fatalf("ChatLang of another chat = %q, %v", l, err)
	}
	if err := s.SetChatLang(bg, -5, ""); err != nil {
		t.Fatal(err)
	}
	if l, err := s.ChatLang(bg, -5); err != nil || l != "" {
		t.Fatalf("ChatLang after forgetting = %q, %v", l, err)
	}
}

// testInvitations: an invitation opens a game in the first message that claims it, and only
// there. Stores that are no game.Invitations skip it.
func testInvitations(t *testing.T, s game.Store) {
	iv, ok := s.(game.Invitations)
	if !ok {
		t.Skip("the store keeps no invitations")
	}
	claim := func(creator, nonce int64, inline string) bool {
		t.Helper()
		ok, err := iv.ClaimInvitation(bg, creator, nonce, inline, time.Minute)
		if err != nil {
			t.Fatalf("ClaimInvitation(%d, %d, %q): %v", creator, nonce, inline, err)
		}
		return ok
	}
	if !claim(1, 7, "AAAAAQ") {
		t.Fatal("the first message to claim an invitation must hold it")
	}
	if !claim(1, 7, "AAAAAQ") {
		t.Fatal("the message that holds an invitation must hold it when it claims it again")
	}
	if claim(1, 7, "AAAAAg") {
		t.Fatal("a second message claimed an invitation bound already")
	}
	if !claim(1, 8, "AAAAAg") || !claim(2, 7, "AAAAAg") {
		t.Fatal("another nonce or another creator is another invitation")
	}
	_, err := iv.ClaimInvitation(bg, 1, 9, "AAAAAQ", 0)
	wantCode(t, "ClaimInvitation without a TTL", err, game.ErrInvalid)
	for _, bad := range []string{"", "has space", "{x}"} {
		_, err = iv.ClaimInvitation(bg, 1, 9, bad, time.Minute)
		wantCode(t, "ClaimInvitation of message "+strconv.Quote(bad), err, game.ErrInvalid)
	}
}

// testReviews: a review kept is read back as it was, a game without one has none, a game that
// is gone keeps none, and bad arguments are refused. Stores that are no game.Reviews skip it.
func testReviews(t *testing.T, s game.Store) {
	rv, ok := s.(game.Reviews)
	if !ok {
		t.Skip("the store keeps no reviews")
	}
	if _, err := rv.LoadReview(bg, "NoReview1"); !errors.Is(err, game.ErrNotFound) {
		t.Fatalf("LoadReview of a game never reviewed = %v, want ErrNotFound", err)
	}
	data := []byte{0, 1, 2, 0xff, 'r'}
	// A review is kept no longer than its game: none for a game that is gone.
	if err := rv.SaveReview(bg, "NoGame1", data, time.Hour); err != nil {
		t.Fatalf("SaveReview of a game that is gone: %v", err)
	}
	if _, err := rv.LoadReview(bg, "NoGame1"); !errors.Is(err, game.ErrNotFound) {
		t.Fatalf("LoadReview of a game that is gone = %v, want ErrNotFound", err)
	}
	g := finishFor(t, s, 1, -100, game.Hosting{})
	if err := rv.SaveReview(bg, g.ID, data, time.Hour); err != nil {
		t.Fatalf("SaveReview: %v", err)
	}
	data[0] = 9 // the store keeps its own copy
	got, err := rv.LoadReview(bg, g.ID)
	if err != nil || string(got) != "\x00\x01\x02\xffr" {
		t.Fatalf("LoadReview = %q, %v", got, err)
	}
	wantCode(t, "SaveReview without a TTL", rv.SaveReview(bg, "Reviewed2", data, 0), game.ErrInvalid)
	if _, err := rv.LastGame(bg, -100); !errors.Is(err, game.ErrNotFound) {
		t.Fatalf("LastGame of a chat without one = %v, want ErrNotFound", err)
	}
	for _, id := range []string{"First1", "Second2"} {
		if err := rv.SetLastGame(bg, -100, id, time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	if id, err := rv.LastGame(bg, -100); err != nil || id != "Second2" {
		t.Fatalf("LastGame = %q, %v; want the game set last", id, err)
	}
	wantCode(t, "SetLastGame of a bad id", rv.SetLastGame(bg, -100, "{x}", time.Hour), game.ErrInvalid)
	wantCode(t, "SaveReview of a bad id", rv.SaveReview(bg, "{x}", data, time.Hour), game.ErrInvalid)
}

func finished(id string, b, w int64, o game.Outcome) *game.Game {
	return &game.Game{ID: id, Size: 8, Flow: game.FlowGroup, Status: game.StatusFinished, Outcome: o,
		ChatID: -100, Players: [2]game.Player{{UserID: b, Name: "B"}, {UserID: w, Name: "W"}}}
}

func testResults(t *testing.T, s game.PlayerStore) {
	p, err := s.Profile(bg, 1)
	if err != nil || p.Stats.Rating != game.InitialRating || p.Stats.Wins+p.Stats.Losses+p.Stats.Draws != 0 {
		t.Fatalf("Profile of a stranger = %+v, %v", p, err)
	}
	for _, u := range []int64{1, 2} {
		if err := s.TouchUser(bg, u, "U"); err != nil {
			t.Fatal(err)
		}
	}
	g := finished("Game1", 1, 2, game.OutcomeBlack)
	want := game.RatingChange{Rated: true, Before: [2]int{game.InitialRating, game.InitialRating},
		After: [2]int{game.InitialRating + game.EloK/2, game.InitialRating - game.EloK/2}}
	for i := range 2 {
		// Recorded again, the game tells the same change: the one its first recording made.
		rc, err := s.RecordResult(bg, g)
		if err != nil {
			t.Fatal(err)
		}
		if rc != want || rc.Delta(0) != game.EloK/2 || rc.Delta(1) != -game.EloK/2 {
			t.Fatalf("RecordResult #%d of a rated win = %+v, want %+v", i+1, rc, want)
		}
	}
	b, _ := s.Profile(bg, 1)
	w, _ := s.Profile(bg, 2)
	if b.Stats.Wins != 1 || w.Stats.Losses != 1 || b.Stats.Rating != game.InitialRating+game.EloK/2 ||
		w.Stats.Rating != game.InitialRating-game.EloK/2 || b.Name != "B" {
		t.Fatalf("after one win recorded twice: black %+v, white %+v", b, w)
	}
	// A player nobody knows makes the game unrated.
	if rc, err := s.RecordResult(bg, finished("Game2", 1, 9, game.OutcomeBlack)); err != nil || rc.Rated {
		t.Fatalf("RecordResult against an unknown player = %+v, %v", rc, err)
	}
	if again, _ := s.Profile(bg, 1); again.Stats.Wins != 1 || again.Stats.Rating != b.Stats.Rating {
		t.Fatalf("a game against an unknown player counted: %+v", again)
	}
	for _, chat := range []int64{0, -100} {
		top, err := s.Top(bg, chat, 10)
		if err != nil || len(top) != 2 || top[0].UserID != 1 || top[1].UserID != 2 || top[0].Wins != 1 {
			t.Fatalf("Top(%d) = %+v, %v", chat, top, err)
		}
	}
	if top, err := s.Top(bg, -200, 10); err != nil || len(top) != 0 {
		t.Fatalf("Top of a group without games = %+v, %v", top, err)
	}
	playing := finished("Game3", 1, 2, game.OutcomeBlack)
	playing.Status = game.StatusPlaying
	_, err = s.RecordResult(bg, playing)
	wantCode(t, "RecordResult of a game in play", err, game.ErrInvalid)
}

func testAIResults(t *testing.T, s game.PlayerStore) {
	if err := s.TouchUser(bg, 1, "U"); err != nil {
		t.Fatal(err)
	}
	g := finished("Game4", 0, 1, game.OutcomeWhite)
	g.AILevel, g.Flow = 3, game.FlowAI
	for range 2 {
		if rc, err := s.RecordResult(bg, g); err != nil || rc.Rated {
			t.Fatalf("RecordResult against the AI = %+v, %v (it moves no rating)", rc, err)
		}
	}
	p, _ := s.Profile(bg, 1)
	if p.Stats.VsAI[3] != (game.AIRecord{Wins: 1}) || p.Stats.Wins != 0 || p.Stats.Rating != game.InitialRating {
		t.Fatalf("after a win against level 3: %+v", p.Stats)
	}
}
