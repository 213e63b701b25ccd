package storage_test

import (
	"context"
	"errors"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/game/gametest"
	"github.com/reversibot/reversi/storage"
	"github.com/reversibot/reversi/storage/storagetest"
)

func TestCreateGetUpdate(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 29, 15, 0, 0, 0, time.UTC)
	clock := gametest.NewClock(now)
	s := storagetest.New(t, storage.Options{Now: clock.Now})

	g := sampleGame(4)
	g.ID, g.Version = "ignored", 99
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatalf("CreateGame: %v", err)
	}
	if g.Version != 1 || len(g.ID) == 0 || len(g.ID) > 12 || g.ID == "ignored" {
		t.Fatalf("CreateGame set ID %q, Version %d; want a new id and version 1", g.ID, g.Version)
	}
	if !g.Created.Equal(now) || !g.Updated.Equal(now) {
		t.Errorf("Created, Updated = %v, %v; want %v", g.Created, g.Updated, now)
	}
	got, err := s.Game(ctx, g.ID)
	if err != nil {
		t.Fatalf("Game: %v", err)
	}
	if !reflect.DeepEqual(normal(got), normal(g)) {
		t.Fatalf("Game = %+v\nwant %+v", got, g)
	}

	clock.Add(time.Minute)
	now = clock.Now()
	got.Moves = append(got.Moves, 0x23)
	if err := s.UpdateGame(ctx, got); err != nil {
		t.Fatalf("UpdateGame: %v", err)
	}
	if got.Version != 2 || !got.Updated.Equal(now) {
		t.Errorf("after UpdateGame: Version %d, Updated %v; want 2, %v", got.Version, got.Updated, now)
	}
	// The stale copy g (version 1) must lose.
	g.Moves = append(g.Moves, 0x24)
	if err := s.UpdateGame(ctx, g); !errors.Is(err, game.ErrConflict) {
		t.Fatalf("UpdateGame(stale) = %v, want ErrConflict", err)
	}
	if g.Version != 1 {
		t.Errorf("a failed update changed Version to %d", g.Version)
	}
	again, err := s.Game(ctx, got.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(normal(again), normal(got)) {
		t.Errorf("stored %+v\nwant   %+v", again, got)
	}
}

func TestGameNotFound(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	for _, id := range []string{"", "nosuchgame", "x}y{z", "waytoolongforanid", "../../etc"} {
		if _, err := s.Game(ctx, id); !errors.Is(err, game.ErrNotFound) {
			t.Errorf("Game(%q) = %v, want ErrNotFound", id, err)
		}
		g := sampleGame(1)
		g.ID, g.Version = id, 1
		if err := s.UpdateGame(ctx, g); !errors.Is(err, game.ErrNotFound) {
			t.Errorf("UpdateGame(%q) = %v, want ErrNotFound", id, err)
		}
	}
	if _, err := s.GameByChat(ctx, 42); !errors.Is(err, game.ErrNotFound) {
		t.Errorf("GameByChat(unbound) = %v, want ErrNotFound", err)
	}
	if _, err := s.GameByInline(ctx, "{bad}"); !errors.Is(err, game.ErrNotFound) {
		t.Errorf("GameByInline(bad) = %v, want ErrNotFound", err)
	}
	bad := sampleGame(1)
	bad.Size = 9
	if err := s.CreateGame(ctx, bad); !errors.Is(err, game.ErrInvalid) {
		t.Errorf("CreateGame(size 9) = %v, want ErrInvalid", err)
	}
}

func TestBindings(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	g1, g2 := sampleGame(0), sampleGame(0)
	g1.InlineID = "BAAAAAqqq-_Xyz"
	// One game in two private chats is reachable from both.
	if _, err := s.StartGame(ctx, g1, game.Hosting{Chats: []int64{111, 222}, InlineID: g1.InlineID}); err != nil {
		t.Fatal(err)
	}
	for _, chat := range []int64{111, 222} {
		if got, err := s.GameByChat(ctx, chat); err != nil || got.ID != g1.ID {
			t.Fatalf("GameByChat(%d) = %v, %v; want %s", chat, got, err, g1.ID)
		}
	}
	if got, err := s.GameByInline(ctx, g1.InlineID); err != nil || got.ID != g1.ID {
		t.Fatalf("GameByInline = %v, %v; want %s", got, err, g1.ID)
	}
	// g1 ends and chat 111 moves on to g2: unbinding g1 there must not touch the new binding.
	g1.Status = game.StatusFinished
	if err := s.UpdateGame(ctx, g1); err != nil {
		t.Fatal(err)
	}
	if _, err := s.StartGame(ctx, g2, game.Hosting{Chats: []int64{111}}); err != nil {
		t.Fatal(err)
	}
	if err := s.UnbindChat(ctx, 111, g1.ID); err != nil {
		t.Fatal(err)
	}
	if got, err := s.GameByChat(ctx, 111); err != nil || got.ID != g2.ID {
		t.Fatalf("after stale unbind GameByChat(111) = %v, %v; want %s", got, err, g2.ID)
	}
	if err := s.UnbindChat(ctx, 222, g1.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GameByChat(ctx, 222); !errors.Is(err, game.ErrNotFound) {
		t.Fatalf("after unbind GameByChat(222) = %v, want ErrNotFound", err)
	}
	if err := s.UnbindInline(ctx, g1.InlineID, g1.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GameByInline(ctx, g1.InlineID); !errors.Is(err, game.ErrNotFound) {
		t.Fatalf("after unbind GameByInline = %v, want ErrNotFound", err)
	}
	if _, err := s.StartGame(ctx, sampleGame(0), game.Hosting{Chats: []int64{0}}); !errors.Is(err, game.ErrInvalid) {
		t.Errorf("StartGame(chat 0) = %v, want ErrInvalid", err)
	}
	if _, err := s.StartGame(ctx, sampleGame(0), game.Hosting{InlineID: "{bad}"}); !errors.Is(err, game.ErrInvalid) {
		t.Errorf("StartGame(inline {bad}) = %v, want ErrInvalid", err)
	}
}

// TestMoveRace: 100 goroutines each read the game, append their own move and
// compare-and-set, retrying on conflict. Every conflict must be a real loss (the version
// had moved), no move may be lost or doubled, and the final record holds exactly one move
// per goroutine.
func TestMoveRace(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	g := &game.Game{Size: 16, Status: game.StatusPlaying, Flow: game.FlowGroup, ChatID: -100}
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	const n = 100
	var (
		conflicts atomic.Int64
		wins      = make([]int64, n) // version each goroutine's move produced
	)
	atOnce(n, func(i int) {
		for {
			cur, err := s.Game(ctx, g.ID)
			if err != nil {
				t.Errorf("goroutine %d: Game: %v", i, err)
				return
			}
			read := cur.Version
			cur.Moves = append(cur.Moves, byte(i/16)<<4|byte(i%16))
			err = s.UpdateGame(ctx, cur)
			if err == nil {
				wins[i] = cur.Version
				if cur.Version != read+1 {
					t.Errorf("goroutine %d: version %d after %d", i, cur.Version, read)
				}
				return
			}
			if !errors.Is(err, game.ErrConflict) {
				t.Errorf("goroutine %d: UpdateGame: %v", i, err)
				return
			}
			conflicts.Add(1)
		}
	})

	final, err := s.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if final.Version != n+1 || len(final.Moves) != n {
		t.Fatalf("final version %d with %d moves; want %d and %d", final.Version, len(final.Moves), n+1, n)
	}
	// Move k of the record came from the goroutine whose update produced version k+2.
	seen := make(map[byte]bool)
	for k, m := range final.Moves {
		i := int(m>>4)*16 + int(m&15)
		if seen[m] {
			t.Fatalf("move %#02x applied twice", m)
		}
		seen[m] = true
		if wins[i] != int64(k+2) {
			t.Errorf("move %d is goroutine %d's, whose update made version %d, want %d", k, i, wins[i], k+2)
		}
	}
	t.Logf("%d moves, %d conflicts", n, conflicts.Load())
}

// TestOneWinnerPerVersion: many racers update from the same version; exactly one wins.
func TestOneWinnerPerVersion(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	g := sampleGame(0)
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	const n = 100
	var ok, conflict atomic.Int64
	atOnce(n, func(i int) {
		c := g.Clone()
		c.Moves = []byte{byte(i%64/8<<4) | byte(i%8)}
		switch err := s.UpdateGame(ctx, c); {
		case err == nil:
			ok.Add(1)
		case errors.Is(err, game.ErrConflict):
			conflict.Add(1)
		default:
			t.Error(err)
		}
	})
	if ok.Load() != 1 || conflict.Load() != n-1 {
		t.Fatalf("%d winners, %d conflicts; want 1 and %d", ok.Load(), conflict.Load(), n-1)
	}
}

// roundTrips counts the commands and pipelines a client sends.
type roundTrips struct{ n atomic.Int64 }

func (r *roundTrips) DialHook(next redis.DialHook) redis.DialHook { return next }
func (r *roundTrips) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error { r.n.Add(1); return next(ctx, cmd) }
}
func (r *roundTrips) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error { r.n.Add(1); return next(ctx, cmds) }
}

func TestMoveCostsTwoRoundTrips(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	var rt roundTrips
	s.Client().AddHook(&rt)
	g := sampleGame(0)
	g.InlineID = "inline-1"
	if _, err := s.StartGame(ctx, g, game.Hosting{Chats: []int64{g.ChatID, g.Players[1].ChatID}, InlineID: g.InlineID}); err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		before := rt.n.Load()
		cur, err := s.Game(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		cur.Moves = append(cur.Moves, byte(i/8)<<4|byte(i%8))
		if err := s.UpdateGame(ctx, cur); err != nil {
			t.Fatal(err)
		}
		// The very first update may load the scripts (NOSCRIPT); every later one may not.
		if got := rt.n.Load() - before; got > 2 && i > 0 {
			t.Errorf("move %d took %d round trips, want at most 2", i, got)
		}
	}
}

func TestMemoryUsage(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	g8 := sampleGame(30)
	g16 := fullGame16()
	for _, g := range []*game.Game{g8, g16} {
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		data, _ := storage.EncodeGame(g)
		t.Logf("%dx%d, %d moves: record %d bytes", g.Size, g.Size, len(g.Moves), len(data))
	}
	if !storagetest.Real() {
		t.Skip("MEMORY USAGE needs a real Redis: set REDIS_URL")
	}
	for _, c := range []struct {
		g     *game.Game
		limit int64
	}{{g8, 512}, {g16, 2048}} {
		key := memoryKey(s, c.g.ID)
		n, err := s.Client().MemoryUsage(ctx, key).Result()
		if err != nil {
			t.Fatalf("MEMORY USAGE %s: %v", key, err)
		}
		t.Logf("MEMORY USAGE of %dx%d game with %d moves: %d bytes (limit %d)", c.g.Size, c.g.Size, len(c.g.Moves), n, c.limit)
		if n >= c.limit {
			t.Errorf("%dx%d game uses %d bytes, want < %d", c.g.Size, c.g.Size, n, c.limit)
		}
	}
}

// memoryKey finds the key of game id (the store keeps its key layout to itself).
func memoryKey(s *storage.Store, id string) string {
	keys, _ := s.Client().Keys(context.Background(), "*{g}g:"+id).Result()
	if len(keys) == 1 {
		return keys[0]
	}
	return ""
}
