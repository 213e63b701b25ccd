package bot

import (
	"context"
	"sync"
	"time"
)

// loop calls do every interval from start until halt: the body of the bot's timed parts (the
// turn reminders, the offers' expiries, the search sweeper). Each call gets a context of base
// that ends when base does, or when halt gives up waiting for the call.
type loop struct {
	every time.Duration
	do    func(ctx context.Context)
	base  context.Context

	mu     sync.Mutex
	stop   chan struct{}      // closed by halt; nil before start
	done   chan struct{}      // closed when the loop has returned
	cancel context.CancelFunc // ends the context of the calls
	halted bool
}

// newLoop returns a loop of do every interval in the context base; nothing runs before start.
func newLoop(base context.Context, every time.Duration, do func(ctx context.Context)) *loop {
	return &loop{every: every, do: do, base: base}
}

// start starts the loop (once; not after halt).
func (l *loop) start() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stop != nil || l.halted {
		return
	}
	ctx, cancel := context.WithCancel(l.base)
	l.stop, l.done, l.cancel = make(chan struct{}), make(chan struct{}), cancel
	go func() {
		defer close(l.done)
		t := time.NewTicker(l.every)
		defer t.Stop()
		for {
			select {
			case <-l.stop:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				l.do(ctx)
			}
		}
	}()
}

// halt stops the loop and waits for its call in progress, or, should ctx end first, cancels
// that call, waits for it to return and returns ctx's error. It does nothing for a loop never
// started, and may be called more than once.
func (l *loop) halt(ctx context.Context) error {
	l.mu.Lock()
	stop, done, cancel, halted := l.stop, l.done, l.cancel, l.halted
	l.halted = true
	l.mu.Unlock()
	if stop == nil {
		return nil
	}
	if !halted {
		close(stop)
	}
	defer cancel()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		cancel()
		<-done
		return ctx.Err()
	}
}
