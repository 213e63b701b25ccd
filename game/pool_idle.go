package game

import "context"

// IdleQueue is how many pieces of idle work (DoIdle) may wait in an AIPool; more fail with
// ErrBusy at once.
const IdleQueue = 64

// idleWorkers is how many workers of a pool of n may run idle work at once: all but one,
// and at least one, so that on a pool of two or more a search that arrives finds a worker
// free without taking one from idle work.
func idleWorkers(n int) int { return max(1, n-1) }

// DoIdle runs fn(ctx) on a worker of the pool at the lowest priority, for work nobody is
// waiting on to play (a game's review): a worker takes it only while no search waits, at most
// all workers but one run such work at once, and when a search arrives to find every worker
// busy, the pool cancels the context of the idle work that started last and gives its worker
// to the search. That work goes back to the head of the idle queue and fn runs again, from
// the start, once a worker is idle. So fn must be safe to run again after its context was
// cancelled, and should return soon after it is. DoIdle returns when fn has returned
// without being cut short; ErrBusy when IdleQueue pieces wait already, when ctx ends first
// or when the pool is closed; an error wrapping ErrPanic when fn panicked.
func (p *AIPool) DoIdle(ctx context.Context, fn func(context.Context)) error {
	j := &job{ctx: ctx, fn: fn, done: make(chan struct{}), idle: true}
	p.mu.Lock()
	if p.closed || len(p.idle) >= IdleQueue || ctx.Err() != nil {
		p.mu.Unlock()
		return ErrBusy
	}
	p.idle = append(p.idle, j)
	p.wake.Signal()
	p.mu.Unlock()
	select {
	case <-j.done:
		return j.err
	case <-ctx.Done():
	case <-p.closing:
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-j.done: // it ended as we gave up: its answer stands
		return j.err
	default:
	}
	if j.started {
		j.stop() // it runs on: ask it to end soon
	} else {
		p.dropIdle(j)
	}
	return ErrBusy
}

// IdleWaiting returns the number of pieces of idle work waiting for a worker.
func (p *AIPool) IdleWaiting() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.idle)
}

// idleReady reports whether a worker may take idle work now. p.mu is held.
func (p *AIPool) idleReady() bool {
	return len(p.idle) > 0 && len(p.idleRunning) < idleWorkers(p.workers)
}

// takeIdle takes the idle work at the head of the queue and marks it running. p.mu is held,
// and idleReady is true.
func (p *AIPool) takeIdle() *job {
	j := p.idle[0]
	p.idle[0] = nil
	p.idle = p.idle[1:]
	j.started, j.preempted = true, false
	j.runCtx, j.stop = context.WithCancel(j.ctx)
	p.idleRunning = append(p.idleRunning, j)
	return j
}

// runIdle runs idle work taken by this worker, then puts it back at the head of the queue if
// the pool cut it short for a search, or else reports it done.
func (p *AIPool) runIdle(j *job) {
	if j.runCtx.Err() == nil {
		j.runWith(j.runCtx)
	}
	j.stop()
	p.mu.Lock()
	p.busy--
	for i, r := range p.idleRunning {
		if r == j {
			p.idleRunning = append(p.idleRunning[:i], p.idleRunning[i+1:]...)
			break
		}
	}
	again := j.preempted && j.err == nil && j.ctx.Err() == nil && !p.closed
	if again {
		j.started = false
		p.idle = append([]*job{j}, p.idle...)
		p.wake.Signal()
	}
	p.mu.Unlock()
	if !again {
		close(j.done)
	}
}

// preempt gives a worker to a search that has just been queued when every worker is busy:
// it cancels the idle work that started last, if any runs and none was cancelled for a
// search that still waits. p.mu is held.
func (p *AIPool) preempt() {
	if p.busy < p.workers {
		return
	}
	cancelled := 0
	for _, r := range p.idleRunning {
		if r.preempted {
			cancelled++
		}
	}
	if cancelled >= p.waiting {
		return
	}
	for i := len(p.idleRunning) - 1; i >= 0; i-- {
		if r := p.idleRunning[i]; !r.preempted {
			r.preempted = true
			r.stop()
			return
		}
	}
}

// dropIdle takes idle work that has not started out of the queue. p.mu is held.
func (p *AIPool) dropIdle(j *job) {
	for i, q := range p.idle {
		if q == j {
			p.idle = append(p.idle[:i], p.idle[i+1:]...)
			return
		}
	}
}
