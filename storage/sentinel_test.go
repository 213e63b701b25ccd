package storage_test

import (
	"context"
	"errors"
	"flag"
	"sync"
	"testing"
	"time"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/storage"
	"github.com/reversibot/reversi/storage/storagetest"
)

// failoverRun is what writers saw through one SENTINEL FAILOVER (see failoverWrites).
type failoverRun struct {
	acked, lost int           // moves acknowledged, and acknowledged but gone after the failover
	refused     int           // moves refused (errors) while the master changed
	recover     time.Duration // from the failover until every writer's moves stayed again
}

// failoverWrites plays writers games at once through a Store on the Sentinel group grp, each
// game written by one writer only (a move is an UpdateGame), asks the sentinels for a failover
// once every writer has made some moves, and goes on until every writer has made 20 moves that
// the store kept since the sentinels named the new master. A writer learns that moves it was told were done are gone when its next
// compare-and-set finds an older version stored (the failover rolled the game back): it reads
// the game again, counts them and plays on from there.
func failoverWrites(t *testing.T, grp *storagetest.SentinelGroup, writers int) failoverRun {
	t.Helper()
	client, err := storage.NewClient(grp.URL(0))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	s := storage.New(client, storage.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	games := make([]*game.Game, writers)
	for i := range games {
		games[i] = sampleGame(0)
		if err := s.CreateGame(ctx, games[i]); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range grp.Nodes[1:] {
		if err := grp.WaitInSync(ctx, n.Addr); err != nil {
			t.Fatal(err)
		}
	}

	var (
		mu      sync.Mutex
		run     failoverRun
		began   time.Time // when the failover was asked for
		done    bool      // the sentinels name the new master, and it serves
		settled = make(chan struct{})
	)
	started := make(chan struct{}, writers)
	after := make(chan int, writers) // a writer's 20th move after the failover
	var wg sync.WaitGroup
	for i, g := range games {
		wg.Add(1)
		go func() {
			defer wg.Done()
			made, since := 0, 0
			var stayed time.Time // the first move after the failover that the store kept
			for ctx.Err() == nil {
				c := g.Clone()
				c.Moves = append(c.Moves[:0:0], byte(made/8%8)<<4|byte(made%8)) // row<<4|col
				err := s.UpdateGame(ctx, c)
				mu.Lock()
				switch {
				case err == nil:
					run.acked++
					g = c
					made++
					if made == 5 {
						started <- struct{}{}
					}
					if done {
						if since++; since == 1 {
							stayed = time.Now()
						}
						if since == 20 {
							after <- i
						}
					}
				case errors.Is(err, game.ErrConflict):
					// Only this writer writes the game: the store went back.
					cur, rerr := s.Game(ctx, g.ID)
					if rerr == nil {
						run.lost += int(g.Version - cur.Version)
						g, since, stayed = cur, 0, time.Time{} // its moves since the failover are gone
					}
				default:
					if !began.IsZero() {
						run.refused++
					}
					if cur, rerr := s.Game(ctx, g.ID); rerr == nil {
						g = cur // the move may have been applied before the error
					}
				}
				if since == 20 {
					if d := stayed.Sub(began); d > run.recover {
						run.recover = d
					}
				}
				mu.Unlock()
				if since >= 20 {
					<-settled
					return
				}
			}
		}()
	}
	for range writers {
		<-started
	}
	mu.Lock()
	began = time.Now()
	mu.Unlock()
	if _, err := grp.Failover(ctx); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	done = true
	mu.Unlock()
	for range writers {
		select {
		case <-after:
		case <-ctx.Done():
			t.Fatalf("writers never made 20 moves on the new master: %v", ctx.Err())
		}
	}
	close(settled)
	wg.Wait()
	for _, g := range games {
		if cur, err := s.Game(ctx, g.ID); err != nil || cur.Version < g.Version {
			t.Errorf("game %s after the failover: %v, version %d, want %d", g.ID, err, cur.Version, g.Version)
		}
	}
	return run
}

// figures runs TestSentinelFailoverLosses: it measures (the README's figures) rather than
// proves, and takes a minute.
var figures = flag.Bool("sentinel-figures", false, "run TestSentinelFailoverLosses")

// TestSentinelFailoverLosses writes games through a SENTINEL FAILOVER on Sentinel groups with
// and without min-replicas-to-write, and reports the moves acknowledged and then lost, the
// moves refused, and the time until every game was written again on the new master (run with
// -v -args -sentinel-figures; the README has the figures). It fails only when the writers never
// get going again.
func TestSentinelFailoverLosses(t *testing.T) {
	if !*figures {
		t.Skip("a measurement: -args -sentinel-figures")
	}
	storagetest.QuietLogs()
	const writers = 8
	minReplicas := []string{"--min-replicas-to-write", "1", "--min-replicas-max-lag", "10"}
	for _, tc := range []struct {
		name     string
		replicas int
		extra    []string
	}{
		{"one replica, no settings", 1, nil},
		{"one replica, min-replicas-to-write 1", 1, minReplicas},
		{"two replicas, min-replicas-to-write 1", 2, minReplicas},
	} {
		t.Run(tc.name, func(t *testing.T) {
			grp := storagetest.StartSentinelGroupOf(t, tc.replicas, tc.extra...)
			run := failoverWrites(t, grp, writers)
			t.Logf("%s: %d writers, %d moves acknowledged, %d of them lost, %d refused while the master changed, every game written again %v after SENTINEL FAILOVER",
				tc.name, writers, run.acked, run.lost, run.refused, run.recover.Round(time.Millisecond))
		})
	}
}
