package bot

import (
	"context"
	"sync"
	"time"
)

// afterWork is the work that steps leave behind them (board edits and their checks, notices,
// reminders, reviews, replays, AI replies): it runs in a base context that outlives the
// handlers, so that a stop can let it finish, and counts it by name, so that a stop can say
// what it waits for (Pending). Bot.Shutdown closes it (no new work starts) and waits for it.
type afterWork struct {
	// base is the context of the work: it ends when a stop gives up waiting for it.
	base     context.Context
	baseStop context.CancelFunc

	mu     sync.Mutex
	closed bool           // the bot is stopping: no new work starts
	wg     sync.WaitGroup // the work in flight (also the Editor's edits and checks)
	work   map[string]int // goAfter's work in flight, by name (see Pending)
}

// newAfterWork returns the accounting of work whose base context carries ctx's values but
// not its cancellation.
func newAfterWork(ctx context.Context) *afterWork {
	w := &afterWork{work: map[string]int{}}
	w.base, w.baseStop = context.WithCancel(context.WithoutCancel(ctx))
	return w
}

// startWork counts a piece of work named what (a work* constant) in flight, unless the bot
// is shutting down (then it reports false and counts nothing).
func (w *afterWork) startWork(what string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return false
	}
	w.wg.Add(1)
	w.work[what]++
	return true
}

// endWork ends a piece of work startWork counted.
func (w *afterWork) endWork(what string) {
	w.mu.Lock()
	w.work[what]--
	w.mu.Unlock()
	w.wg.Done()
}

// goAfter runs work, named what (a work* constant: it names the work in the log of a stop
// that waits for it), in a goroutine of its own, with a context from the base bounded by
// timeout, unless the bot is shutting down: for what a step leaves to do after its handler
// (notices, reminders). Shutdown waits for it.
func (w *afterWork) goAfter(what string, timeout time.Duration, work func(ctx context.Context)) {
	if !w.startWork(what) {
		return
	}
	go func() {
		defer w.endWork(what)
		ctx, cancel := context.WithTimeout(w.base, timeout)
		defer cancel()
		work(ctx)
	}()
}

// closing reports whether the bot is shutting down (or its base context ended).
func (w *afterWork) closing() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.closed || w.base.Err() != nil
}

// pending returns the work in flight by name, nil when there is none.
func (w *afterWork) pending() map[string]int {
	w.mu.Lock()
	defer w.mu.Unlock()
	var p map[string]int
	for name, n := range w.work {
		if n > 0 {
			if p == nil {
				p = map[string]int{}
			}
			p[name] = n
		}
	}
	return p
}

// close refuses new work from now on.
func (w *afterWork) close() {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
}

// wait waits for the work in flight, or, should ctx end first, ends the base context, waits
// for the work to return and returns ctx's error. The base context has ended when it returns.
func (w *afterWork) wait(ctx context.Context) error {
	done := make(chan struct{})
	go func() { w.wg.Wait(); close(done) }()
	var err error
	select {
	case <-done:
	case <-ctx.Done():
		err = ctx.Err()
		w.baseStop()
		<-done
	}
	w.baseStop()
	return err
}

// The names of the work goAfter runs, as Pending reports it and a stop's log names it.
const (
	workNotice    = "turn notice"
	workReminder  = "reminder"
	workReview    = "review"
	workReplay    = "replay"
	workMigration = "group migration"
	workAIReply   = "AI reply"
)
