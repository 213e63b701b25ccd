package bot

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestLoopHaltWaitsForItsCall: halt lets the call in progress finish and returns nil; no call
// starts after it.
func TestLoopHaltWaitsForItsCall(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	calls := 0
	l := newLoop(context.Background(), time.Millisecond, func(ctx context.Context) {
		calls++
		if calls == 1 {
			close(entered)
			<-release
		}
	})
	l.start()
	<-entered
	halted := make(chan error, 1)
	go func() { halted <- l.halt(context.Background()) }()
	select {
	case err := <-halted:
		t.Fatalf("halt returned %v while the call ran", err)
	default:
	}
	close(release)
	if err := <-halted; err != nil {
		t.Fatalf("halt = %v, want nil", err)
	}
	if calls != 1 {
		t.Errorf("%d calls, want 1 (none after halt)", calls)
	}
	if err := l.halt(context.Background()); err != nil {
		t.Errorf("second halt = %v, want nil", err)
	}
	l.start() // a halted loop does not start again
	if err := l.halt(context.Background()); err != nil {
		t.Errorf("halt after a late start = %v, want nil", err)
	}
}

// TestLoopHaltCutsItsCall: a halt whose context ends first cancels the call in progress,
// waits for it to return and returns the context's error.
func TestLoopHaltCutsItsCall(t *testing.T) {
	entered, returned := make(chan struct{}), make(chan struct{})
	l := newLoop(context.Background(), time.Millisecond, func(ctx context.Context) {
		select {
		case <-entered:
			return
		default:
		}
		close(entered)
		<-ctx.Done()
		close(returned)
	})
	l.start()
	<-entered
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := l.halt(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("halt = %v, want context.Canceled", err)
	}
	select {
	case <-returned:
	default:
		t.Fatal("halt returned before the call it cut short")
	}
}

// TestLoopNeverStarted: halting a loop that never started does nothing.
func TestLoopNeverStarted(t *testing.T) {
	l := newLoop(context.Background(), time.Hour, func(context.Context) { t.Error("called") })
	if err := l.halt(context.Background()); err != nil {
		t.Fatalf("halt = %v, want nil", err)
	}
}

// TestAfterWorkRefusesAfterClose: no work starts once the bot closes, the work in flight is
// counted by name, and wait returns once it ends.
func TestAfterWorkRefusesAfterClose(t *testing.T) {
	w := newAfterWork(context.Background())
	release := make(chan struct{})
	w.goAfter(workNotice, time.Minute, func(context.Context) { <-release })
	if p := w.pending(); p[workNotice] != 1 || len(p) != 1 {
		t.Fatalf("pending = %v, want one %s", p, workNotice)
	}
	w.close()
	if !w.closing() {
		t.Error("closing = false after close")
	}
	ran := false
	w.goAfter(workReview, time.Minute, func(context.Context) { ran = true })
	if w.startWork(workReplay) {
		t.Error("startWork counted work after close")
	}
	close(release)
	if err := w.wait(context.Background()); err != nil {
		t.Fatalf("wait = %v", err)
	}
	if ran || w.pending() != nil {
		t.Errorf("ran %v, pending %v after wait: want nothing", ran, w.pending())
	}
	if w.base.Err() == nil {
		t.Error("the base context outlived wait")
	}
}
