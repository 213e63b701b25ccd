package storage_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/storage/storagetest"
)

// BenchmarkStartGame measures starting a game between two people in their private chats (an
// invitation joined or a pairing: two bindings checked and written with the record), one
// script per start. Each start uses chats of its own. With REDIS_URL set it runs against that
// server.
func BenchmarkStartGame(b *testing.B) {
	ctx := context.Background()
	s := storagetest.New(b)
	var chat atomic.Int64
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			g := sampleGame(0)
			c := chat.Add(2)
			if _, err := s.StartGame(ctx, g, game.Hosting{Chats: []int64{c, c + 1}}); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "starts/s")
}
