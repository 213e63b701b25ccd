package storage_test

import (
	"context"
	"testing"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/storage"
	"github.com/reversibot/reversi/storage/storagetest"
)

// BenchmarkMove measures one move: read the game, append a move, compare-and-set. With
// REDIS_URL set it runs against that server (the figure to compare with redis-benchmark).
// Each goroutine plays its own game, so there are no conflicts.
func BenchmarkMove(b *testing.B) {
	ctx := context.Background()
	s := storagetest.New(b)
	b.Run("serial", func(b *testing.B) { benchMoves(b, s, ctx, false) })
	b.Run("parallel", func(b *testing.B) { benchMoves(b, s, ctx, true) })
}

func benchMoves(b *testing.B, s *storage.Store, ctx context.Context, parallel bool) {
	play := func(next func() bool) {
		g := sampleGame(0)
		g.Size = 16
		if err := s.CreateGame(ctx, g); err != nil {
			b.Error(err)
			return
		}
		for i := 0; next(); i++ {
			cur, err := s.Game(ctx, g.ID)
			if err != nil {
				b.Error(err)
				return
			}
			if len(cur.Moves) == 200 {
				cur.Moves = cur.Moves[:0]
			}
			cur.Moves = append(cur.Moves, byte(i%16)<<4|byte(i/16%16))
			if err := s.UpdateGame(ctx, cur); err != nil {
				b.Error(err)
				return
			}
		}
	}
	b.ReportAllocs()
	if parallel {
		b.RunParallel(func(pb *testing.PB) { play(pb.Next) })
	} else {
		play(b.Loop)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
}

func BenchmarkMarshalGame(b *testing.B) {
	g := fullGame16()
	b.ReportAllocs()
	data, _ := storage.EncodeGame(g)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := storage.EncodeGame(g); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkUnmarshalGame(b *testing.B) {
	data, _ := storage.EncodeGame(fullGame16())
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		var g game.Game
		if err := storage.DecodeGame(&g, data); err != nil {
			b.Fatal(err)
		}
	}
}
