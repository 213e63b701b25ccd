package storage_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/game/gametest"
	"github.com/reversibot/reversi/storage"
	"github.com/reversibot/reversi/storage/storagetest"
)

// Contract of StartGame and JoinGame: each is one script that writes a game and binds its
// chats together, or writes nothing.

// countGames counts the game records of the store that wrote key (the tests know the layout:
// P{g}g:ID); a real Redis is shared with other tests, whose prefixes differ.
func countGames(t *testing.T, s *storage.Store, key string) int {
	t.Helper()
	prefix := key[:strings.Index(key, "{g}")]
	keys, err := s.Client().Keys(context.Background(), prefix+"{g}g:*").Result()
	if err != nil {
		t.Fatal(err)
	}
	return len(keys)
}

// bindingKey returns the key of chat's binding in s (found by its game).
func bindingKey(t *testing.T, s *storage.Store, chat int64, gameID string) string {
	t.Helper()
	keys, _ := s.Client().Keys(context.Background(), "*{g}c:"+strconv.FormatInt(chat, 10)).Result()
	for _, k := range keys {
		if v, _ := s.Client().Get(context.Background(), k).Result(); v == gameID {
			return k
		}
	}
	t.Fatalf("no binding of chat %d to %s", chat, gameID)
	return ""
}

func wantShows(t *testing.T, s *storage.Store, chat int64, id string) {
	t.Helper()
	if g, err := s.GameByChat(context.Background(), chat); err != nil || g.ID != id {
		t.Fatalf("GameByChat(%d) = %v, %v; want %s", chat, g, err, id)
	}
}

// startIn starts g in s bound to chats, failing the test when it cannot.
func startIn(t *testing.T, s *storage.Store, g *game.Game, chats ...int64) {
	t.Helper()
	if _, err := s.StartGame(context.Background(), g, game.Hosting{Chats: chats}); err != nil {
		t.Fatal(err)
	}
}

// finish stores g, a game of s, as finished.
func finish(t *testing.T, s *storage.Store, g *game.Game) {
	t.Helper()
	g.Status = game.StatusFinished
	if err := s.UpdateGame(context.Background(), g); err != nil {
		t.Fatal(err)
	}
}

// newInvite starts an invitation lobby of user 1 (chat 1) in s and returns it with the game
// that user 2, from chat 2, writes by joining it.
func newInvite(t *testing.T, s *storage.Store) (lobby, join *game.Game) {
	t.Helper()
	lobby = &game.Game{Size: 8, Flow: game.FlowInvite, Status: game.StatusLobby,
		Players: [2]game.Player{{UserID: 1, Name: "A", ChatID: 1}}}
	startIn(t, s, lobby)
	join = lobby.Clone()
	join.Status, join.Players[1] = game.StatusPlaying, game.Player{UserID: 2, Name: "B", ChatID: 2}
	return lobby, join
}

// newInviteInTheWay is newInvite with the joiner's chat (2) bound to another game in play,
// inTheWay: the start of the tests of a JoinGame that the joiner's chat refuses.
func newInviteInTheWay(t *testing.T, s *storage.Store) (lobby, join, inTheWay *game.Game) {
	t.Helper()
	lobby, join = newInvite(t, s)
	inTheWay = sampleGame(0)
	startIn(t, s, inTheWay, 2)
	return lobby, join, inTheWay
}

// wantJoinRefused checks that a refused JoinGame of join left its lobby as newInvite made it
// (stored and the caller's copy at version 1) and bound no chat of the creator's.
func wantJoinRefused(t *testing.T, s *storage.Store, lobby, join *game.Game) {
	t.Helper()
	if g, _ := s.Game(context.Background(), lobby.ID); g.Version != 1 || g.Status != game.StatusLobby || join.Version != 1 {
		t.Fatalf("a refused join changed the lobby: %+v (caller's version %d)", g, join.Version)
	}
	if _, err := s.GameByChat(context.Background(), 1); !errors.Is(err, game.ErrNotFound) {
		t.Fatalf("a refused join bound the creator's chat: %v", err)
	}
}

func TestStartGameBindsEverything(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 29, 15, 0, 0, 0, time.UTC)
	s := storagetest.New(t, storage.Options{Now: gametest.NewClock(now).Now})
	g := sampleGame(0)
	g.Status, g.InlineID, g.ID, g.Version = game.StatusLobby, "AgAAAstart", "ignored", 7
	ex, err := s.StartGame(ctx, g, game.Hosting{Chats: []int64{g.Players[0].ChatID, -100}, InlineID: g.InlineID})
	if err != nil || ex != nil {
		t.Fatalf("StartGame = %v, %v", ex, err)
	}
	if g.ID == "ignored" || g.Version != 1 || !g.Created.Equal(now) || !g.Updated.Equal(now) {
		t.Fatalf("StartGame set ID %q, Version %d, Created %v; want a new id, 1, %v", g.ID, g.Version, g.Created, now)
	}
	stored, err := s.Game(ctx, g.ID)
	if err != nil || stored.Status != game.StatusLobby || stored.Version != 1 {
		t.Fatalf("Game = %+v, %v", stored, err)
	}
	for _, chat := range []int64{g.Players[0].ChatID, -100} {
		wantShows(t, s, chat, g.ID)
	}
	if in, err := s.GameByInline(ctx, g.InlineID); err != nil || in.ID != g.ID {
		t.Fatalf("GameByInline = %v, %v", in, err)
	}
	// Bindings live as long as their game: a lobby's LobbyTTL.
	ttl, err := s.Client().PTTL(ctx, bindingKey(t, s, -100, g.ID)).Result()
	if err != nil || ttl > storage.DefaultLobbyTTL || ttl < storage.DefaultLobbyTTL-time.Minute {
		t.Fatalf("binding TTL %v (%v), want the lobby's %v", ttl, err, storage.DefaultLobbyTTL)
	}
	// A chat not named stays free.
	if _, err := s.GameByChat(ctx, g.Players[1].ChatID); !errors.Is(err, game.ErrNotFound) {
		t.Fatalf("GameByChat(unnamed chat) = %v, want ErrNotFound", err)
	}
}

// TestStartGameChatBusy: a chat bound to a lobby or a game in play refuses a new game (with
// nothing written); a binding to a finished or expired game is replaced (to an unreadable one:
// start_aside_test.go).
func TestStartGameChatBusy(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	for _, st := range []game.Status{game.StatusLobby, game.StatusPlaying} {
		old := sampleGame(0)
		old.Status = st
		startIn(t, s, old, 500)
		before := countGames(t, s, bindingKey(t, s, 500, old.ID))
		_, err := s.StartGame(ctx, sampleGame(0), game.Hosting{Chats: []int64{501, 500}})
		var busy *game.BusyError
		if !errors.As(err, &busy) || !errors.Is(err, game.ErrChatBusy) || busy.ChatID != 500 {
			t.Fatalf("StartGame in a chat with a %v = %v, want a BusyError for chat 500", st, err)
		}
		if strings.Contains(err.Error(), old.ID) {
			t.Errorf("the error %q names the game in the way", err)
		}
		if after := countGames(t, s, bindingKey(t, s, 500, old.ID)); after != before {
			t.Fatalf("a refused start left %d game records, want %d", after, before)
		}
		if _, err := s.GameByChat(ctx, 501); !errors.Is(err, game.ErrNotFound) {
			t.Fatalf("a refused start bound chat 501: %v", err)
		}
		wantShows(t, s, 500, old.ID)
		finish(t, s, old)
		// Finished: the chat is free again.
		g := sampleGame(0)
		if _, err := s.StartGame(ctx, g, game.Hosting{Chats: []int64{500}}); err != nil {
			t.Fatalf("StartGame after the game in the chat finished: %v", err)
		}
		wantShows(t, s, 500, g.ID)
		finish(t, s, g)
	}
	// A binding to a game that expired.
	g := sampleGame(0)
	startIn(t, s, g, 600)
	s.Client().Del(ctx, strings.Replace(bindingKey(t, s, 600, g.ID), "{g}c:600", "{g}g:"+g.ID, 1))
	n := sampleGame(0)
	if _, err := s.StartGame(ctx, n, game.Hosting{Chats: []int64{600}}); err != nil {
		t.Fatalf("StartGame over a binding to an expired game: %v", err)
	}
	wantShows(t, s, 600, n.ID)
}

// TestStartGameInlineExisting: an inline message that shows a game gives that game back (in
// any state) instead of a second one, unless it is the game being rematched.
func TestStartGameInlineExisting(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	first := &game.Game{Size: 8, Flow: game.FlowInline, Status: game.StatusLobby, InlineID: "AgAAAinl",
		Players: [2]game.Player{{UserID: 1, Name: "A"}}}
	h := game.Hosting{InlineID: first.InlineID}
	if ex, err := s.StartGame(ctx, first, h); err != nil || ex != nil {
		t.Fatal(ex, err)
	}
	for _, st := range []game.Status{game.StatusLobby, game.StatusFinished} {
		first.Status = st
		if st == game.StatusFinished {
			if err := s.UpdateGame(ctx, first); err != nil {
				t.Fatal(err)
			}
		}
		second := first.Clone()
		second.ID = ""
		ex, err := s.StartGame(ctx, second, h)
		if err != nil || ex == nil || ex.ID != first.ID || ex.Status != st || second.ID != "" {
			t.Fatalf("StartGame on an inline message with a %v = %v, %v (new id %q); want the %s back", st, ex, err, second.ID, first.ID)
		}
	}
	re := first.Clone()
	re.Status = game.StatusPlaying
	if ex, err := s.StartGame(ctx, re, game.Hosting{InlineID: first.InlineID, RematchOf: first.ID}); err != nil || ex != nil {
		t.Fatalf("rematch in the inline message = %v, %v", ex, err)
	}
	if in, err := s.GameByInline(ctx, first.InlineID); err != nil || in.ID != re.ID {
		t.Fatalf("the inline message shows %v, %v; want the rematch %s", in, err, re.ID)
	}
}

// TestStartGameRematchOnce: a finished game gets one rematch, whoever asks and however often.
func TestStartGameRematchOnce(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	old := finished("", 1, 2, game.OutcomeDraw)
	old.Size, old.Flow, old.ChatID = 8, game.FlowGroup, -70
	startIn(t, s, old, -70)
	h := game.Hosting{Chats: []int64{-70}, RematchOf: old.ID}
	const n = 20
	ids := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			g := sampleGame(0)
			ex, err := s.StartGame(ctx, g, h)
			switch {
			case err != nil:
				t.Errorf("rematch %d: %v", i, err)
			case ex != nil:
				ids[i] = ex.ID
			default:
				ids[i] = g.ID
			}
		})
	}
	wg.Wait()
	for _, id := range ids {
		if id != ids[0] {
			t.Fatalf("%d racing rematches made games %v, want one", n, ids)
		}
	}
	wantShows(t, s, -70, ids[0])
	// The rematch is gone (expired): asking again is ErrNotFound, not a second rematch.
	s.Client().Del(ctx, strings.Replace(bindingKey(t, s, -70, ids[0]), "{g}c:-70", "{g}g:"+ids[0], 1))
	if ex, err := s.StartGame(ctx, sampleGame(0), h); !errors.Is(err, game.ErrNotFound) {
		t.Fatalf("rematch after the rematch expired = %v, %v; want ErrNotFound", ex, err)
	}
}

// TestStartGameRace: fifty starts in one chat at once: one game.
func TestStartGameRace(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	const n = 50
	var (
		mu       sync.Mutex
		won      []string
		busy     int
		chats    = []int64{900, 901}
		reversed = []int64{901, 900}
	)
	atOnce(n, func(i int) {
		g := sampleGame(0)
		h := game.Hosting{Chats: chats}
		if i%2 == 1 {
			h.Chats = reversed
		}
		_, err := s.StartGame(ctx, g, h)
		mu.Lock()
		defer mu.Unlock()
		switch {
		case err == nil:
			won = append(won, g.ID)
		case errors.Is(err, game.ErrChatBusy):
			busy++
		default:
			t.Error(err)
		}
	})
	if len(won) != 1 || busy != n-1 {
		t.Fatalf("%d concurrent starts in chats %v: %d won, %d busy; want 1 and %d", n, chats, len(won), busy, n-1)
	}
	for _, c := range chats {
		wantShows(t, s, c, won[0])
	}
	if got := countGames(t, s, bindingKey(t, s, 900, won[0])); got != 1 {
		t.Fatalf("%d game records after the race, want 1", got)
	}
}

// twice sends every script call two times, as go-redis does when the reply to the first
// was lost: the caller sees the second reply.
type twice struct{}

func (twice) DialHook(next redis.DialHook) redis.DialHook { return next }
func (twice) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if cmd.Name() == "evalsha" || cmd.Name() == "eval" {
			if err := next(ctx, cmd); err != nil {
				return err
			}
		}
		return next(ctx, cmd)
	}
}
func (twice) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

// TestStartAndJoinRetried: a start or join sent twice (a retry after a lost reply) has one
// effect and reports success.
func TestStartAndJoinRetried(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	s.Client().AddHook(twice{})
	lobby := &game.Game{Size: 8, Flow: game.FlowGroup, Status: game.StatusLobby, ChatID: -55,
		Players: [2]game.Player{{UserID: 1, Name: "A"}}}
	if _, err := s.StartGame(ctx, lobby, game.Hosting{Chats: []int64{-55}}); err != nil {
		t.Fatalf("StartGame sent twice: %v", err)
	}
	if got := countGames(t, s, bindingKey(t, s, -55, lobby.ID)); got != 1 {
		t.Fatalf("StartGame sent twice made %d game records, want 1", got)
	}
	lobby.Status, lobby.Players[1] = game.StatusPlaying, game.Player{UserID: 2, Name: "B", ChatID: 2}
	if err := s.JoinGame(ctx, lobby, []int64{-55, 2}); err != nil {
		t.Fatalf("JoinGame sent twice: %v", err)
	}
	if g, err := s.Game(ctx, lobby.ID); err != nil || g.Version != 2 || lobby.Version != 2 {
		t.Fatalf("after JoinGame sent twice: stored %+v, %v; caller's version %d; want version 2", g, err, lobby.Version)
	}
	wantShows(t, s, 2, lobby.ID)
	// A rematch sent twice is made once, and reported as made (not as existing).
	finish(t, s, lobby)
	re := sampleGame(0)
	if ex, err := s.StartGame(ctx, re, game.Hosting{Chats: []int64{-55, 2}, RematchOf: lobby.ID}); err != nil || ex != nil {
		t.Fatalf("rematch sent twice = %v, %v; want made", ex, err)
	}
	wantShows(t, s, 2, re.ID)
}

// TestJoinGame: the compare-and-set of UpdateGame, plus the bindings of the joiner's chats,
// refused as a whole when one of them has another game.
func TestJoinGame(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	lobby, join, busy := newInviteInTheWay(t, s)
	var be *game.BusyError
	if err := s.JoinGame(ctx, join, []int64{1, 2}); !errors.As(err, &be) || be.ChatID != 2 {
		t.Fatalf("JoinGame with the joiner's chat busy = %v, want a BusyError for chat 2", err)
	}
	wantJoinRefused(t, s, lobby, join)
	finish(t, s, busy)
	stale := join.Clone()
	if err := s.JoinGame(ctx, join, []int64{1, 2}); err != nil {
		t.Fatalf("JoinGame: %v", err)
	}
	for _, c := range []int64{1, 2} {
		wantShows(t, s, c, lobby.ID)
	}
	if err := s.JoinGame(ctx, stale, []int64{1, 2}); !errors.Is(err, game.ErrConflict) {
		t.Fatalf("JoinGame from a stale version = %v, want ErrConflict", err)
	}
	gone := join.Clone()
	gone.ID = "nosuchgame"
	if err := s.JoinGame(ctx, gone, nil); !errors.Is(err, game.ErrNotFound) {
		t.Fatalf("JoinGame of a missing game = %v, want ErrNotFound", err)
	}
	// A chat bound to the game itself (a group lobby's group) is not in the way.
	grp := &game.Game{Size: 8, Flow: game.FlowGroup, Status: game.StatusLobby, ChatID: -9,
		Players: [2]game.Player{{UserID: 1, Name: "A"}}}
	startIn(t, s, grp, -9)
	grp.Status, grp.Players[1] = game.StatusPlaying, game.Player{UserID: 3, Name: "C"}
	if err := s.JoinGame(ctx, grp, []int64{-9}); err != nil {
		t.Fatalf("JoinGame of a group lobby: %v", err)
	}
	// The join gives the group's binding the TTL of a game in play.
	ttl, err := s.Client().PTTL(ctx, bindingKey(t, s, -9, grp.ID)).Result()
	if err != nil || ttl < storage.DefaultIdleTTL-time.Minute {
		t.Fatalf("binding TTL after the join %v (%v), want %v", ttl, err, storage.DefaultIdleTTL)
	}
}
