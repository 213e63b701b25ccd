package bot

import (
	"context"
	"io"
	"log/slog"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reversibot/reversi/game"
)

// TestReplaysBound: 200 games end at once while the drawing (or sending) of replays is held
// up. At most the workers' number of replays are in hand at once, each holding its drawing;
// the goroutines and the live heap stay bounded however many games end; the queue keeps the
// newest replayQueue games and drops the oldest, counting them; once the drawing goes on,
// every game kept is sent.
func TestReplaysBound(t *testing.T) {
	const workers, ended = 2, 200
	const drawing = 256 << 10 // what one replay in hand holds (a 16×16 one holds far more)
	release := make(chan struct{})
	var inHand, most atomic.Int64
	var mu sync.Mutex
	var sentIDs []string
	var live sync.WaitGroup
	var held [][]byte // the drawings in hand, reachable so that the heap counts them
	send := func(ctx context.Context, g *game.Game) {
		n := inHand.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		buf := make([]byte, drawing)
		mu.Lock()
		held = append(held, buf)
		mu.Unlock()
		<-release
		mu.Lock()
		sentIDs = append(sentIDs, g.ID)
		mu.Unlock()
		inHand.Add(-1)
	}
	start := func(run func()) bool {
		live.Add(1)
		go func() { defer live.Done(); run() }()
		return true
	}
	r := newReplays(workers, replayQueue, start, send, context.Background(), slog.New(slog.NewTextHandler(io.Discard, nil)))

	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	goroutines := runtime.NumGoroutine()
	// The first games go to the workers, who hold them; only then do the rest end, so that
	// which games the queue keeps does not hang on when the workers got to run.
	for i := range workers {
		r.add(&game.Game{ID: strconv.Itoa(i), Moves: make([]byte, 60)})
	}
	waitUntil(t, "the workers hold their replays", func() bool { return inHand.Load() >= workers })
	for i := workers; i < ended; i++ {
		r.add(&game.Game{ID: strconv.Itoa(i), Moves: make([]byte, 60)})
	}
	runtime.GC()
	var during runtime.MemStats
	runtime.ReadMemStats(&during)
	if n := runtime.NumGoroutine() - goroutines; n > workers {
		t.Errorf("%d goroutines more while %d games wait for their replays, want at most %d", n, ended, workers)
	}
	if grown := int64(during.HeapAlloc) - int64(before.HeapAlloc); grown > 4*workers*drawing {
		t.Errorf("live heap grew by %d KB while %d replays wait, want at most %d KB", grown>>10, ended, 4*workers*drawing>>10)
	}
	queued, dropped := r.stats()
	if queued != replayQueue || dropped != int64(ended-replayQueue-workers) {
		t.Errorf("queued %d, dropped %d; want %d, %d", queued, dropped, replayQueue, ended-replayQueue-workers)
	}

	close(release)
	live.Wait()
	if m := most.Load(); m > workers {
		t.Errorf("%d replays in hand at once, want at most %d", m, workers)
	}
	if len(sentIDs) != replayQueue+workers {
		t.Fatalf("%d replays sent, want %d", len(sentIDs), replayQueue+workers)
	}
	sent := map[string]bool{}
	for _, id := range sentIDs {
		sent[id] = true
	}
	for i := ended - replayQueue; i < ended; i++ {
		if !sent[strconv.Itoa(i)] {
			t.Errorf("game %d, among the newest %d, was not sent", i, replayQueue)
		}
	}
	_ = held
}

// waitUntil waits for a state that the test's goroutines reach on their own (a replay taken
// in hand), polling; it fails after 10 s.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for i := 0; !cond(); i++ {
		if i == 10000 {
			t.Fatalf("%s: never happened", what)
		}
		time.Sleep(time.Millisecond)
	}
}
