package botapi_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/reversibot/reversi/bot/botapi"
)

// hookLog counts what a PaceHook was told.
type hookLog struct {
	mu            sync.Mutex
	started, done int
}

func (l *hookLog) hook() (done func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.started++
	return func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.done++
	}
}

func (l *hookLog) counts() (started, done int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.started, l.done
}

// A PaceHook in the context of a Wait is told when it starts and when it returns, while it
// waits for its chat's budget as when it goes at once; a context without one tells nobody.
func TestPaceHook(t *testing.T) {
	c := newClock()
	p := newPacer(c, botapi.PaceLimits{Private: botapi.Limit{Rate: 1, Per: time.Second, Burst: 1}})
	chat := botapi.ChatOf(12)
	var l hookLog
	ctx := botapi.WithPaceHook(context.Background(), l.hook)
	if _, err := p.Wait(ctx, chat, botapi.PaceBoard); err != nil {
		t.Fatal(err)
	}
	if err := p.Done(ctx, chat, true); err != nil { // its call was answered at once
		t.Fatal(err)
	}
	if s, d := l.counts(); s != 1 || d != 1 {
		t.Fatalf("after a Wait that went at once: hook told %d starts, %d ends; want 1, 1", s, d)
	}
	w := start(ctx, p, chat, botapi.PaceBoard)
	c.AwaitTimers(t, 1, 1) // it waits for the chat's budget
	if s, d := l.counts(); s != 2 || d != 1 {
		t.Fatalf("while a Wait waits: hook told %d starts, %d ends; want 2, 1", s, d)
	}
	c.Add(time.Second)
	if err := w.result(t); err != nil {
		t.Fatal(err)
	}
	if s, d := l.counts(); s != 2 || d != 2 {
		t.Fatalf("after it: hook told %d starts, %d ends; want 2, 2", s, d)
	}
	c.Add(time.Second)
	mustWait(t, p, chat, botapi.PaceBoard) // no hook in its context
	if s, d := l.counts(); s != 2 || d != 2 {
		t.Fatalf("a Wait without the hook: hook told %d starts, %d ends; want 2, 2", s, d)
	}
}
