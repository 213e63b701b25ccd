package host

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
)

// AIPool runs AI searches on a fixed number of workers with a bounded queue, so that however
// many AI games are waiting for a reply, at most Workers searches use the CPU at once and the
// goroutines handling Telegram updates stay free. It is safe for concurrent use.
type AIPool struct {
	jobs    chan *job
	closed  chan struct{}
	once    sync.Once
	wg      sync.WaitGroup
	workers int
}

type job struct {
	ctx  context.Context
	fn   func(context.Context)
	done chan struct{}
	err  error // set when fn panicked
}

// ErrPanic is returned by Do when the job panicked; the worker survives.
var ErrPanic = errors.New("host: AI job panicked")

func (j *job) run() {
	defer func() {
		if v := recover(); v != nil {
			j.err = fmt.Errorf("%w: %v", ErrPanic, v)
		}
	}()
	j.fn(j.ctx)
}

// NewAIPool starts a pool of workers goroutines (GOMAXPROCS when workers <= 0) with room for
// queue waiting jobs (4×workers when queue <= 0). Close stops it.
func NewAIPool(workers, queue int) *AIPool {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if queue <= 0 {
		queue = 4 * workers
	}
	p := &AIPool{jobs: make(chan *job, queue), closed: make(chan struct{}), workers: workers}
	p.wg.Add(workers)
	for range workers {
		go p.work()
	}
	return p
}

// Workers returns the number of searches the pool runs at once.
func (p *AIPool) Workers() int { return p.workers }

func (p *AIPool) work() {
	defer p.wg.Done()
	for {
		select {
		case <-p.closed:
			return
		default:
		}
		select {
		case <-p.closed:
			return
		case j := <-p.jobs:
			if j.ctx.Err() == nil {
				j.run()
			}
			close(j.done)
		}
	}
}

// Do runs fn(ctx) on a worker and returns when it has returned. While the queue is full Do
// waits for room. It returns ErrBusy, without fn having run or while fn still runs with a
// cancelled ctx, when ctx ends first or the pool is closed; and an error wrapping ErrPanic
// when fn panicked.
func (p *AIPool) Do(ctx context.Context, fn func(context.Context)) error {
	j := &job{ctx: ctx, fn: fn, done: make(chan struct{})}
	select {
	case <-p.closed:
		return ErrBusy
	default:
	}
	select {
	case p.jobs <- j:
	case <-ctx.Done():
		return ErrBusy
	case <-p.closed:
		return ErrBusy
	}
	select {
	case <-j.done:
		return j.err
	case <-ctx.Done():
		return ErrBusy
	case <-p.closed:
		return ErrBusy
	}
}

// Close stops the workers after the searches they are running return; queued jobs are dropped
// (their Do returns ErrBusy). Close is idempotent.
func (p *AIPool) Close() {
	p.once.Do(func() { close(p.closed) })
	p.wg.Wait()
}
