package game_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/game/gametest"
)

// heldJobs runs jobs on a pool that each announce their user on started when they start and
// then hold their worker until one value is sent on release (or stop is closed).
type heldJobs struct {
	t       *testing.T
	p       *game.AIPool
	started chan int64
	release chan struct{}
	stop    chan struct{}
	wg      sync.WaitGroup
	mu      sync.Mutex
	errs    map[int64][]error
}

func newHeldJobs(t *testing.T, p *game.AIPool) *heldJobs {
	h := &heldJobs{t: t, p: p, started: make(chan int64, 64), release: make(chan struct{}),
		stop: make(chan struct{}), errs: map[int64][]error{}}
	t.Cleanup(func() { close(h.stop); h.wg.Wait() })
	return h
}

// submit starts one Do for user in a goroutine.
func (h *heldJobs) submit(user int64) {
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		err := h.p.Do(game.WithUser(context.Background(), user), func(context.Context) {
			h.started <- user
			select {
			case <-h.release:
			case <-h.stop:
			}
		})
		h.mu.Lock()
		h.errs[user] = append(h.errs[user], err)
		h.mu.Unlock()
	}()
}

// next returns the user of the next job to start.
func (h *heldJobs) next() int64 {
	h.t.Helper()
	return gametest.Receive(h.t, h.started, "no job started")
}

// occupy submits a search of user and returns once a job has started: with no job running
// or waiting before, user's search holds a worker.
func (h *heldJobs) occupy(user int64) {
	h.t.Helper()
	h.submit(user)
	h.next()
}

// queue submits n searches of user and waits, failing with what, until n searches wait in the
// pool (so it is called when none wait and every worker is busy).
func (h *heldJobs) queue(user int64, n int, what string) {
	h.t.Helper()
	for range n {
		h.submit(user)
	}
	gametest.Until(h.t, what, func() bool { return h.p.Waiting() == n })
}

// bStartsNext submits a search of user B behind the waiting searches, of which there are
// waiting, and checks that B's is the one that starts when a running search ends.
func (h *heldJobs) bStartsNext(waiting int) {
	h.t.Helper()
	h.submit(userB)
	gametest.Until(h.t, "B's search waits", func() bool { return h.p.Waiting() == waiting+1 })
	h.release <- struct{}{} // one of A's searches ends
	if u := h.next(); u != userB {
		h.t.Fatalf("after one search ended, user %d's search started; want B's (%d) before A's queue", u, userB)
	}
}

// newPool returns a pool that is closed when the test ends, after its held jobs are let go.
func newPool(t *testing.T, workers, queue int) *game.AIPool {
	p := game.NewAIPool(workers, queue)
	t.Cleanup(p.Close)
	return p
}

const userA, userB = 1, 2

// With every worker busy with user A's searches and more of A's waiting, user B's search
// starts as soon as one search ends: A's queue cannot delay B by more than one search.
func TestAIPoolSharesWorkersBetweenUsers(t *testing.T) {
	p := newPool(t, 2, 0)
	h := newHeldJobs(t, p)
	h.submit(userA)
	h.submit(userA)
	h.next()
	h.next() // both workers run A's searches
	h.queue(userA, 3, "three of A's searches wait")
	h.bStartsNext(3)
	// The rest run, A's in the order they came.
	for range 4 {
		h.release <- struct{}{}
	}
	for range 3 {
		if u := h.next(); u != userA {
			t.Fatalf("user %d's search started, want A's", u)
		}
	}
	h.release <- struct{}{}
}

// A user's queue is small: over it Do fails with ErrBusy at once, without running, while
// another user's search is still taken.
func TestAIPoolBoundsEachUsersQueue(t *testing.T) {
	p := newPool(t, 1, 64)
	h := newHeldJobs(t, p)
	h.occupy(userA) // the only worker is busy
	h.queue(userA, game.UserQueue, "A's queue is full")

	ran := false
	refused := make(chan error, 1)
	go func() {
		refused <- p.Do(game.WithUser(context.Background(), userA), func(context.Context) { ran = true })
	}()
	if err := gametest.Receive(t, refused, "Do over A's queue was not refused while the worker was busy"); !errors.Is(err, game.ErrBusy) || ran {
		t.Fatalf("Do over A's queue = %v (ran %v), want ErrBusy", err, ran)
	}
	h.bStartsNext(game.UserQueue)
	for range game.UserQueue {
		h.release <- struct{}{}
		if u := h.next(); u != userA && u != userB {
			t.Fatalf("unexpected user %d", u)
		}
	}
	h.release <- struct{}{}
}

// When the pool's queue is full of one user's searches, another user's first search is still
// taken, and runs next.
func TestAIPoolTakesEachUsersFirstSearch(t *testing.T) {
	p := newPool(t, 1, 2)
	h := newHeldJobs(t, p)
	h.occupy(userA)
	h.queue(userA, 2, "the queue is full")
	h.bStartsNext(2)
	for range 3 {
		h.release <- struct{}{}
	}
	for range 2 {
		h.next()
	}
}

// A search whose context ends while it waits leaves the queue: it never runs and no longer
// counts against its user's queue.
func TestAIPoolDropsCancelledWaiters(t *testing.T) {
	p := newPool(t, 1, 0)
	h := newHeldJobs(t, p)
	h.occupy(userA)
	ctx, cancel := context.WithCancel(game.WithUser(context.Background(), userA))
	errc := make(chan error, 1)
	go func() { errc <- p.Do(ctx, func(context.Context) { t.Error("a cancelled search ran") }) }()
	gametest.Until(t, "the search waits", func() bool { return p.Waiting() == 1 })
	cancel()
	if err := <-errc; !errors.Is(err, game.ErrBusy) {
		t.Fatalf("Do with its context ended = %v, want ErrBusy", err)
	}
	if n := p.Waiting(); n != 0 {
		t.Fatalf("Waiting() = %d after the only waiter left, want 0", n)
	}
	h.release <- struct{}{}
}
