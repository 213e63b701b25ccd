package game

import (
	"context"
	"fmt"
	"runtime"
	"sync"
)

// UserQueue is how many searches of one user may wait in an AIPool; more fail with ErrBusy at
// once.
const UserQueue = 4

// AIPool runs AI searches on a fixed number of workers, so that however many AI games are
// waiting for a reply, at most Workers searches use the CPU at once and the goroutines
// handling Telegram updates stay free. It shares the workers fairly between users: each
// search belongs to the user its context names (see WithUser), each user's searches wait in
// a queue of their own (at most UserQueue of them), and a worker that comes free takes the
// oldest search of the user with the fewest searches running (of those waiting; among equals,
// the one whose last search started longest ago, a newcomer first). So one user's queued
// searches delay another user's by at most one search: with every worker busy, a new user's
// search starts when one search ends.
// Searches whose context names no user share one queue bounded only by the pool's. Idle work
// (DoIdle), such as a game's review, runs only on workers no search needs. It is safe for
// concurrent use.
type AIPool struct {
	workers  int
	maxQueue int
	closing  chan struct{} // closed by Close
	once     sync.Once
	wg       sync.WaitGroup

	mu      sync.Mutex
	wake    *sync.Cond // a job was queued, or the pool is closing
	room    chan struct{}
	users   map[int64]*userJobs // users with searches waiting or running
	waiting int                 // jobs in every user's queue
	starts  uint64              // searches started so far, to order users served
	seq     uint64              // jobs queued so far, to order the heads of equal users
	busy    int                 // workers running a job of either kind
	closed  bool

	// Idle work (DoIdle): a queue of its own, served only while no search waits.
	idle        []*job
	idleRunning []*job // idle jobs on a worker, oldest first
}

// userJobs is one user's share of the pool.
type userJobs struct {
	id      int64
	queue   []*job
	running int
	served  uint64 // the pool's starts when this user's last search started; 0 for none yet
}

type job struct {
	ctx     context.Context
	fn      func(context.Context)
	done    chan struct{}
	err     error  // set when fn panicked
	seq     uint64 // order of arrival (under the pool's mu)
	started bool   // taken by a worker (under the pool's mu)

	// Idle jobs only (under the pool's mu): the context fn runs under, which the pool
	// cancels to give the worker to a search, and whether it did.
	idle      bool
	runCtx    context.Context
	stop      context.CancelFunc
	preempted bool
}

// ErrPanic is returned by Do when the job panicked; the worker survives.
var ErrPanic = newError(CodeInternal, "game: AI job panicked")

func (j *job) run() { j.runWith(j.ctx) }

// runWith runs fn under ctx, turning a panic into err.
func (j *job) runWith(ctx context.Context) {
	defer func() {
		if v := recover(); v != nil {
			j.err = fmt.Errorf("%w: %v", ErrPanic, v)
		}
	}()
	j.fn(ctx)
}

// userKey is the context key of the user a search belongs to.
type userKey struct{}

// WithUser returns ctx marked as the context of user's work: the AI searches run under it
// count as that user's in an AIPool, and in any Mover that shares its work between users.
func WithUser(ctx context.Context, user int64) context.Context {
	return context.WithValue(ctx, userKey{}, user)
}

// UserOf returns the user WithUser marked ctx with, 0 for none.
func UserOf(ctx context.Context) int64 {
	u, _ := ctx.Value(userKey{}).(int64)
	return u
}

// NewAIPool starts a pool of workers goroutines (GOMAXPROCS when workers <= 0) with room for
// queue waiting jobs in all (4×workers when queue <= 0). Close stops it.
func NewAIPool(workers, queue int) *AIPool {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if queue <= 0 {
		queue = 4 * workers
	}
	p := &AIPool{workers: workers, maxQueue: queue, closing: make(chan struct{}),
		room: make(chan struct{}), users: make(map[int64]*userJobs)}
	p.wake = sync.NewCond(&p.mu)
	p.wg.Add(workers)
	for range workers {
		go p.work()
	}
	return p
}

// Workers returns the number of searches the pool runs at once.
func (p *AIPool) Workers() int { return p.workers }

// Waiting returns the number of searches waiting for a worker.
func (p *AIPool) Waiting() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.waiting
}

// Busy returns the number of workers running a job now (a search, or idle work such as a
// review's step).
func (p *AIPool) Busy() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.busy
}

func (p *AIPool) work() {
	defer p.wg.Done()
	for {
		j, u := p.take()
		if j == nil {
			return
		}
		if j.idle {
			p.runIdle(j)
			continue
		}
		if j.ctx.Err() == nil {
			j.run()
		}
		p.mu.Lock()
		u.running--
		p.busy--
		p.forget(u)
		p.mu.Unlock()
		close(j.done)
	}
}

// take waits for a job and returns it with its user's share, marked running; nil when the
// pool is closing.
func (p *AIPool) take() (*job, *userJobs) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for !p.closed && p.waiting == 0 && !p.idleReady() {
		p.wake.Wait()
	}
	if p.closed {
		return nil, nil
	}
	p.busy++
	if p.waiting == 0 {
		return p.takeIdle(), nil
	}
	var next *userJobs
	for _, u := range p.users {
		if len(u.queue) == 0 {
			continue
		}
		if next == nil || before(u, next) {
			next = u
		}
	}
	j := next.queue[0]
	next.queue[0] = nil
	next.queue = next.queue[1:]
	j.started = true
	next.running++
	p.starts++
	next.served = p.starts
	p.dequeued()
	return j, next
}

// before reports whether u's next search goes before v's: u has fewer running, or as many
// and its last search started longer ago (or never), or that too and its search came first.
func before(u, v *userJobs) bool {
	switch {
	case u.running != v.running:
		return u.running < v.running
	case u.served != v.served:
		return u.served < v.served
	}
	return u.queue[0].seq < v.queue[0].seq
}

// dequeued notes that a job left the queues, waking the callers waiting for room. p.mu is held.
func (p *AIPool) dequeued() {
	p.waiting--
	close(p.room)
	p.room = make(chan struct{})
}

// forget drops the share of a user with nothing waiting or running. p.mu is held.
func (p *AIPool) forget(u *userJobs) {
	if u.running == 0 && len(u.queue) == 0 {
		delete(p.users, u.id)
	}
}

// Do runs fn(ctx) on a worker and returns when it has returned. fn counts as the work of
// the user ctx names (see WithUser). Do fails at once with ErrBusy when that user already has
// UserQueue searches waiting. While queue searches wait in all, Do waits for room, unless
// its user has none waiting: a user's first waiting search is never held back by others'.
// It returns ErrBusy, without fn having run or while fn still runs with a cancelled ctx, when
// ctx ends first or the pool is closed; and an error wrapping ErrPanic when fn panicked.
func (p *AIPool) Do(ctx context.Context, fn func(context.Context)) error {
	user := UserOf(ctx)
	j := &job{ctx: ctx, fn: fn, done: make(chan struct{})}
	if err := p.enqueue(ctx, user, j); err != nil {
		return err
	}
	select {
	case <-j.done:
		return j.err
	case <-ctx.Done():
	case <-p.closing:
	}
	select {
	case <-j.done: // it ended as we gave up: its answer stands
		return j.err
	default:
	}
	p.mu.Lock()
	if !j.started {
		p.unqueue(user, j)
	}
	p.mu.Unlock()
	return ErrBusy
}

// enqueue puts j in user's queue, waiting for room as Do says.
func (p *AIPool) enqueue(ctx context.Context, user int64, j *job) error {
	p.mu.Lock()
	for {
		if p.closed {
			p.mu.Unlock()
			return ErrBusy
		}
		u := p.users[user]
		queued := 0
		if u != nil {
			queued = len(u.queue)
		}
		if user != 0 && queued >= UserQueue {
			p.mu.Unlock()
			return ErrBusy
		}
		if p.waiting < p.maxQueue || user != 0 && queued == 0 {
			if u == nil {
				u = &userJobs{id: user}
				p.users[user] = u
			}
			p.seq++
			j.seq = p.seq
			u.queue = append(u.queue, j)
			p.waiting++
			p.wake.Signal()
			p.preempt()
			p.mu.Unlock()
			return nil
		}
		room := p.room
		p.mu.Unlock()
		select {
		case <-room:
		case <-ctx.Done():
			return ErrBusy
		case <-p.closing:
			return ErrBusy
		}
		p.mu.Lock()
	}
}

// unqueue takes a job that has not started out of user's queue. p.mu is held.
func (p *AIPool) unqueue(user int64, j *job) {
	u := p.users[user]
	if u == nil {
		return
	}
	for i, q := range u.queue {
		if q == j {
			u.queue = append(u.queue[:i], u.queue[i+1:]...)
			p.dequeued()
			p.forget(u)
			return
		}
	}
}

// Close stops the workers after the searches they are running return; queued jobs are dropped
// (their Do returns ErrBusy). Close is idempotent.
func (p *AIPool) Close() {
	p.once.Do(func() {
		p.mu.Lock()
		p.closed = true
		p.wake.Broadcast()
		p.mu.Unlock()
		close(p.closing)
	})
	p.wg.Wait()
}
