package storage_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/storage"
	"github.com/reversibot/reversi/storage/storagetest"
)

// inParallel runs do(0) … do(n-1) from 16 goroutines and fails the test on the first error.
func inParallel(t *testing.T, what string, n int, do func(i int) error) {
	t.Helper()
	var next atomic.Int64
	var wg sync.WaitGroup
	var failed atomic.Bool
	for range 16 {
		wg.Go(func() {
			for !failed.Load() {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := do(i); err != nil {
					if !failed.Swap(true) {
						t.Errorf("%s %d: %v", what, i, err)
					}
					return
				}
			}
		})
	}
	wg.Wait()
	if failed.Load() {
		t.FailNow()
	}
}

// TestFloodEvictsNothing runs a Redis of its own under the documented memory policy
// (noeviction) with a small budget (8 MB), stores games in play and ratings, then floods it
// with what users can make the bot write: 200,000 updates, 3,000 inline lobbies, 5,000 new
// users, 2,000 rematches and 1,000 queue entries. Every write of the flood must succeed, and
// afterwards every game in play and every rating must still be there and take writes.
func TestFloodEvictsNothing(t *testing.T) {
	ctx := context.Background()
	addr := storagetest.StartScratchServer(t, "--maxmemory", "8mb", "--maxmemory-policy", "noeviction")
	client := redis.NewClient(&redis.Options{Addr: addr})
	defer client.Close()
	s := storage.New(client, storage.Options{Prefix: "reversi:"})
	if r, err := s.MemoryRisks(ctx); err != nil || len(r) != 0 {
		t.Fatalf("the documented policy has risks: %q, %v", r, err)
	}

	// What must survive: 200 games in play bound to their chats, 100 people with ratings.
	const inPlay, rated = 200, 50
	games := make([]*game.Game, inPlay)
	inParallel(t, "game in play", inPlay, func(i int) error {
		g := sampleGame(30)
		g.ChatID = int64(1_000_000 + i)
		_, err := s.StartGame(ctx, g, game.Hosting{Chats: []int64{g.ChatID}})
		games[i] = g
		return err
	})
	for u := int64(1); u <= 2*rated; u++ {
		touch(t, s, u) // only people who talked to the bot are rated
	}
	inParallel(t, "rated game", rated, func(i int) error {
		_, err := s.RecordResult(ctx, finished(fmt.Sprintf("r%d", i), int64(2*i+1), int64(2*i+2), game.OutcomeBlack))
		return err
	})
	ratings := map[int64]int{}
	for u := int64(1); u <= 2*rated; u++ {
		p, err := s.Profile(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		ratings[u] = p.Stats.Rating
	}

	// The flood.
	if got := markUpdates(t, s, 912_000_000, 200_000); got != 200_000 {
		t.Fatalf("%d of 200,000 updates seen as new", got)
	}
	if t.Failed() {
		t.FailNow()
	}
	inParallel(t, "inline lobby", 3000, func(i int) error {
		g := &game.Game{Size: 8, Flow: game.FlowInline, Status: game.StatusLobby, CreatorColor: -1,
			InlineID: fmt.Sprintf("AgAAAF%016d", i), Lang: "en",
			Players: [2]game.Player{{UserID: 77, Name: "Mallory Flood", Lang: "en"}}}
		_, err := s.StartGame(ctx, g, game.Hosting{InlineID: g.InlineID})
		return err
	})
	inParallel(t, "new user", 5000, func(i int) error {
		return s.TouchUser(ctx, int64(5_000_000+i), fmt.Sprintf("User %d with a name of some sixty-four bytes in length .....", i))
	})
	inParallel(t, "rematch", 2000, func(i int) error {
		// A rematch: a new game in play, its chat's binding and the once-mark of the old game.
		g := sampleGame(0)
		g.Flow, g.AILevel, g.ChatID = game.FlowAI, 1, int64(3_000_000+i)
		g.Players[1] = game.Player{}
		_, err := s.StartGame(ctx, g, game.Hosting{Chats: []int64{g.ChatID}, RematchOf: fmt.Sprintf("old%07d", i)})
		return err
	})
	inParallel(t, "queue entry", 1000, func(i int) error {
		_, err := s.Enqueue(ctx, 8+2*(i%5), game.Waiter{UserID: int64(7_000_000 + i), ChatID: int64(7_000_000 + i), Name: "Waiter", Lang: "en"})
		return err
	})

	info, err := client.Info(ctx, "memory", "stats").Result()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"used_memory_human:", "maxmemory_human:", "evicted_keys:"} {
		if i := strings.Index(info, f); i >= 0 {
			t.Logf("%s", strings.TrimSpace(info[i:i+strings.IndexByte(info[i:], '\n')]))
		}
	}
	if !strings.Contains(info, "evicted_keys:0\r") {
		t.Errorf("keys were evicted")
	}

	// Every game in play is there, bound, unchanged, and takes a move; every rating stands.
	inParallel(t, "game after the flood", inPlay, func(i int) error {
		g, err := s.GameByChat(ctx, games[i].ChatID)
		if err != nil {
			return err
		}
		if g.ID != games[i].ID || g.Version != games[i].Version || string(g.Moves) != string(games[i].Moves) {
			return fmt.Errorf("game %s changed: version %d, %d moves", g.ID, g.Version, len(g.Moves))
		}
		g.Moves = append(g.Moves, 0x77)
		return s.UpdateGame(ctx, g)
	})
	for u, r := range ratings {
		p, err := s.Profile(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		if p.Stats.Rating != r || p.Stats.Wins+p.Stats.Losses != 1 {
			t.Errorf("user %d after the flood: %+v, want rating %d and one result", u, p.Stats, r)
		}
	}
	if top, err := s.Top(ctx, 0, 100); err != nil || len(top) != 2*rated {
		t.Errorf("Top after the flood: %d entries, %v; want %d", len(top), err, 2*rated)
	}
	if _, err := s.RecordResult(ctx, finished("after", 1, 2, game.OutcomeDraw)); err != nil {
		t.Errorf("RecordResult after the flood: %v", err)
	}

	// Filled past its budget by something else, the server refuses the bot's writes (a
	// failure to retry later, ErrUnavailable) and still serves every game; once memory is
	// freed, writes work again.
	n := 0
	for _, size := range []int{64 << 10, 1 << 10, 16} { // the last small values fill what big ones cannot
		for ; ; n++ {
			err := client.Set(ctx, fmt.Sprintf("filler:%d", n), strings.Repeat("x", size), 0).Err()
			if err != nil && strings.HasPrefix(err.Error(), "OOM") {
				break
			}
			if err != nil || n > 1_000_000 {
				t.Fatalf("filling the server: %v after %d values", err, n)
			}
		}
	}
	if err := s.CreateGame(ctx, sampleGame(0)); !errors.Is(err, game.ErrUnavailable) {
		t.Errorf("CreateGame on a full server = %v, want ErrUnavailable", err)
	}
	if _, err := s.GameByChat(ctx, games[0].ChatID); err != nil {
		t.Errorf("GameByChat on a full server: %v", err)
	}
	if err := client.FlushDB(ctx).Err(); err != nil { // the test's server: only the fillers matter now
		t.Fatal(err)
	}
	if err := s.CreateGame(ctx, sampleGame(0)); err != nil {
		t.Errorf("CreateGame once memory is free: %v", err)
	}
}
