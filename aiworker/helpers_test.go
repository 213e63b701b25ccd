package aiworker_test

import (
	"context"
	"log/slog"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/reversibot/reversi/aiworker"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/game/gametest"
	"github.com/reversibot/reversi/storage/storagetest"
)

func TestMain(m *testing.M) {
	gametest.VerifyTestMain(m)
}

// onBothStreams runs test on the AI streams of package storage (Redis: REDIS_URL, else the
// embedded one) and on gametest's in-memory ones: the Mover and the Worker rely on
// game.AIStreams' promises only.
func onBothStreams(t *testing.T, test func(t *testing.T, st game.AIStreams)) {
	t.Helper()
	t.Run("Redis", func(t *testing.T) { test(t, storagetest.New(t)) })
	t.Run("Memory", func(t *testing.T) { test(t, gametest.NewAIStreams()) })
}

// quick is the Block of the tests' movers and workers: Close and Run return soon.
const quick = 50 * time.Millisecond

// newMover returns a Mover over st that the test closes.
func newMover(t *testing.T, st game.AIFrontStreams) *aiworker.Mover {
	t.Helper()
	m := aiworker.NewMover(st, aiworker.MoverOptions{Block: quick})
	t.Cleanup(func() { m.Close() })
	return m
}

// moveInBackground asks m (under ctx) for a move of pos at level in a goroutine; the
// returned channel receives Move's error when it returns (the move itself is dropped).
func moveInBackground(ctx context.Context, m *aiworker.Mover, pos engine.Position, level int) <-chan error {
	got := make(chan error, 1)
	go func() {
		_, err := m.Move(ctx, pos, level)
		got <- err
	}()
	return got
}

// outcomes records what a worker's Observe reports.
type outcomes struct {
	mu  sync.Mutex
	got map[string]int
}

func (o *outcomes) observe(_ string, _ int, outcome string, _ time.Duration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.got == nil {
		o.got = map[string]int{}
	}
	o.got[outcome]++
}

func (o *outcomes) count(outcome string) int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.got[outcome]
}

// running is a Worker's Run in a goroutine.
type running struct {
	w      *aiworker.Worker
	o      *outcomes
	cancel context.CancelFunc
	done   chan struct{} // closed when Run has returned
	err    error         // what Run returned
}

// stop ends Run and waits for it.
func (r *running) stop(t *testing.T) {
	t.Helper()
	r.cancel()
	select {
	case <-r.done:
		if r.err != nil {
			t.Errorf("Run = %v, want nil", r.err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after its ctx ended")
	}
}

// startWorker runs a Worker over st until the test ends (or stop).
func startWorker(t *testing.T, st game.AIWorkerStreams, o aiworker.WorkerOptions) *running {
	t.Helper()
	out := &outcomes{}
	o.Observe = out.observe
	if o.Block == 0 {
		o.Block = quick
	}
	ctx, cancel := context.WithCancel(context.Background())
	if testing.Verbose() && o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	r := &running{w: aiworker.NewWorker(st, o), o: out, cancel: cancel, done: make(chan struct{})}
	go func() {
		r.err = r.w.Run(ctx)
		close(r.done)
	}()
	t.Cleanup(func() {
		cancel()
		<-r.done
	})
	return r
}

// eventually polls cond every few milliseconds for up to 10 s.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for i := 0; !cond(); i++ {
		if i == 2000 {
			t.Fatalf("%s: never happened", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// blocking is a Searcher whose searches announce themselves on started and return the lowest
// legal move when release is closed, or Pass with ctx's error when ctx ends first.
type blocking struct {
	started chan engine.Position
	release chan struct{}
}

func newBlocking() *blocking {
	return &blocking{started: make(chan engine.Position, 16), release: make(chan struct{})}
}

func (b *blocking) Move(ctx context.Context, pos engine.Position, _ int) (engine.Square, error) {
	b.started <- pos
	select {
	case <-b.release:
		return pos.Moves().First(), nil
	case <-ctx.Done():
		return engine.Pass, ctx.Err()
	}
}

func (b *blocking) Hint(ctx context.Context, pos engine.Position) (engine.Square, error) {
	return b.Move(ctx, pos, 0)
}

// panicking is a Searcher that panics.
type panicking struct{}

func (panicking) Move(context.Context, engine.Position, int) (engine.Square, error) {
	panic("search blew up")
}

func (panicking) Hint(context.Context, engine.Position) (engine.Square, error) {
	panic("hint blew up")
}

func pendingJobs(t *testing.T, st game.AIStreams) int64 {
	t.Helper()
	n, err := st.PendingAIJobs(context.Background())
	if err != nil {
		t.Fatalf("PendingAIJobs: %v", err)
	}
	return n
}
