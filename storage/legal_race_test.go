package storage_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/storage/storagetest"
)

// TestLegalGameRace: 100 goroutines play one 8×8 game to its end at once, each reading the
// game, choosing a legal move with the engine and compare-and-setting it. The stored game
// must be a legal, finished game whose every move is one successful update: none lost,
// none doubled, and every failed update a conflict.
func TestLegalGameRace(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	g := &game.Game{Size: 8, Status: game.StatusPlaying, Flow: game.FlowGroup, ChatID: -42}
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	var (
		wins, conflicts atomic.Int64
		mu              sync.Mutex
		movesByVersion  = make(map[int64]byte) // the move each successful update added
	)
	atOnce(100, func(i int) {
		for n := 0; ; n++ {
			cur, err := s.Game(ctx, g.ID)
			if err != nil {
				t.Errorf("goroutine %d: %v", i, err)
				return
			}
			played, err := engine.Replay(8, squares(cur.Moves))
			if err != nil {
				t.Errorf("goroutine %d read an illegal game: %v", i, err)
				return
			}
			legal := played.Position().LegalMoves()
			if played.Over() {
				return
			}
			if len(legal) == 0 { // a pass: the other side's moves
				p, _, _ := played.Position().Play(engine.Pass)
				legal = p.LegalMoves()
			}
			m := byte(legal[(i+n)%len(legal)])
			cur.Moves = append(cur.Moves, m)
			switch err := s.UpdateGame(ctx, cur); {
			case err == nil:
				wins.Add(1)
				mu.Lock()
				movesByVersion[cur.Version] = m
				mu.Unlock()
			case errors.Is(err, game.ErrConflict):
				conflicts.Add(1)
			default:
				t.Errorf("goroutine %d: UpdateGame: %v", i, err)
				return
			}
		}
	})

	final, err := s.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	played, err := engine.Replay(8, squares(final.Moves))
	if err != nil {
		t.Fatalf("stored game is not legal: %v", err)
	}
	if !played.Over() {
		t.Fatalf("stored game is not over after %d moves", len(final.Moves))
	}
	if int64(len(final.Moves)) != wins.Load() || final.Version != wins.Load()+1 {
		t.Fatalf("%d moves, version %d, %d successful updates", len(final.Moves), final.Version, wins.Load())
	}
	for k, m := range final.Moves {
		if movesByVersion[int64(k+2)] != m {
			t.Fatalf("move %d is %#02x, but the update to version %d added %#02x", k, m, k+2, movesByVersion[int64(k+2)])
		}
	}
	t.Logf("%d moves, %d conflicts, %v", len(final.Moves), conflicts.Load(), played.Outcome())
}

func squares(moves []byte) []engine.Square {
	out := make([]engine.Square, len(moves))
	for i, m := range moves {
		out[i] = engine.Square(m)
	}
	return out
}
