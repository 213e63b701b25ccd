package aiworker_test

import (
	"context"
	"testing"

	"github.com/reversibot/reversi/aiworker"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game/gametest"
	"github.com/reversibot/reversi/storage/storagetest"
)

// BenchmarkRoundTrip measures what running the AI remotely adds to a move: post the job, a
// worker reads it, answers at once (FirstMover), posts the result and acknowledges, and the
// front hands the result to the caller. Run it against a real Redis (REDIS_URL) for figures.
func BenchmarkRoundTrip(b *testing.B) {
	for _, bc := range []struct {
		name     string
		parallel bool
	}{{"serial", false}, {"parallel", true}} {
		b.Run(bc.name, func(b *testing.B) {
			st := storagetest.New(b)
			m := aiworker.NewMover(st, aiworker.MoverOptions{})
			defer m.Close()
			ctx, cancel := context.WithCancel(context.Background())
			w := aiworker.NewWorker(st, aiworker.WorkerOptions{Searcher: gametest.FirstMover{}, Concurrency: 8})
			done := make(chan struct{})
			go func() {
				_ = w.Run(ctx)
				close(done)
			}()
			defer func() {
				cancel()
				<-done
			}()
			pos := engine.MustStart(8)
			ask := func() {
				if _, err := m.Move(context.Background(), pos, 1); err != nil {
					b.Fatal(err)
				}
			}
			ask()               // the consumer group exists from here on
			defer b.StopTimer() // before the clean-up above, which waits out a blocked read
			b.ReportAllocs()
			b.ResetTimer()
			if !bc.parallel {
				for b.Loop() {
					ask()
				}
				return
			}
			b.SetParallelism(4)
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					ask()
				}
			})
		})
	}
}
