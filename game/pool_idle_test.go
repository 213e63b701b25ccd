package game_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/reversibot/reversi/game"
)

// hold runs a search on p that holds its worker until release is closed; started is closed
// once it runs. The returned channel gets Do's error.
func hold(p *game.AIPool, started, release chan struct{}) <-chan error {
	errc := make(chan error, 1)
	go func() {
		errc <- p.Do(context.Background(), func(context.Context) {
			close(started)
			<-release
		})
	}()
	return errc
}

func TestIdleWorkWaitsForSearches(t *testing.T) {
	p := game.NewAIPool(1, 4)
	defer p.Close()
	started, release := make(chan struct{}), make(chan struct{})
	first := hold(p, started, release)
	<-started

	order := make(chan string, 2)
	idleDone := make(chan error, 1)
	go func() { idleDone <- p.DoIdle(context.Background(), func(context.Context) { order <- "idle" }) }()
	searchDone := make(chan error, 1)
	queued := make(chan struct{})
	go func() {
		close(queued)
		searchDone <- p.Do(context.Background(), func(context.Context) { order <- "search" })
	}()
	<-queued
	for p.Waiting() == 0 { // the search is in the queue before the worker comes free
		select {
		case err := <-searchDone:
			t.Fatalf("search ended while the worker was held: %v", err)
		default:
		}
	}
	close(release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if err := <-searchDone; err != nil {
		t.Fatal(err)
	}
	if err := <-idleDone; err != nil {
		t.Fatal(err)
	}
	if a, b := <-order, <-order; a != "search" || b != "idle" {
		t.Fatalf("ran %s then %s, want the waiting search before idle work", a, b)
	}
}

func TestSearchPreemptsIdleWork(t *testing.T) {
	p := game.NewAIPool(1, 4)
	defer p.Close()
	var runs atomic.Int32
	running := make(chan struct{}, 2)
	searched := make(chan struct{})
	idleDone := make(chan error, 1)
	go func() {
		idleDone <- p.DoIdle(context.Background(), func(ctx context.Context) {
			n := runs.Add(1)
			running <- struct{}{}
			if n == 1 {
				<-ctx.Done() // the first run is cut short for the search
				return
			}
			select {
			case <-searched:
			default:
				t.Error("idle work ran again before the search that preempted it")
			}
		})
	}()
	<-running
	if err := p.Do(context.Background(), func(context.Context) { close(searched) }); err != nil {
		t.Fatalf("search: %v", err)
	}
	if err := <-idleDone; err != nil {
		t.Fatalf("DoIdle: %v", err)
	}
	if n := runs.Load(); n != 2 {
		t.Fatalf("idle work ran %d times, want 2 (cut short once, then whole)", n)
	}
}

func TestIdleWorkLeavesAWorkerForSearches(t *testing.T) {
	p := game.NewAIPool(2, 4)
	defer p.Close()
	firstRuns, release := make(chan struct{}), make(chan struct{})
	var cut atomic.Bool
	first := make(chan error, 1)
	go func() {
		first <- p.DoIdle(context.Background(), func(ctx context.Context) {
			close(firstRuns)
			select {
			case <-release:
			case <-ctx.Done():
				cut.Store(true)
			}
		})
	}()
	<-firstRuns
	var secondRan atomic.Bool
	second := make(chan error, 1)
	go func() { second <- p.DoIdle(context.Background(), func(context.Context) { secondRan.Store(true) }) }()
	// Two workers: one runs idle work, the other stays for searches, which need no preemption.
	for range 3 {
		if err := p.Do(context.Background(), func(context.Context) {}); err != nil {
			t.Fatalf("search: %v", err)
		}
	}
	if cut.Load() {
		t.Fatal("a search cut idle work short while a worker was free")
	}
	if secondRan.Load() {
		t.Fatal("two pieces of idle work ran at once on a pool of two")
	}
	close(release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if err := <-second; err != nil || !secondRan.Load() {
		t.Fatalf("second idle work: %v, ran %v", err, secondRan.Load())
	}
}

func TestIdleWorkGivesUp(t *testing.T) {
	p := game.NewAIPool(1, 4)
	started, release := make(chan struct{}), make(chan struct{})
	held := hold(p, started, release)
	<-started

	// Refused at once when its context has ended.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := p.DoIdle(ctx, func(context.Context) { t.Error("ran with an ended context") }); !errors.Is(err, game.ErrBusy) {
		t.Fatalf("DoIdle with an ended context = %v, want ErrBusy", err)
	}

	// A full idle queue refuses more.
	results := make(chan error, game.IdleQueue)
	for range game.IdleQueue {
		go func() { results <- p.DoIdle(context.Background(), func(context.Context) {}) }()
	}
	for p.IdleWaiting() < game.IdleQueue {
		select {
		case err := <-results:
			t.Fatalf("idle work ended while the only worker was held: %v", err)
		default:
		}
	}
	if err := p.DoIdle(context.Background(), func(context.Context) {}); !errors.Is(err, game.ErrBusy) {
		t.Fatalf("DoIdle on a full idle queue = %v, want ErrBusy", err)
	}

	// A panic is an error, and the worker survives.
	close(release)
	if err := <-held; err != nil {
		t.Fatal(err)
	}
	for range game.IdleQueue {
		if err := <-results; err != nil {
			t.Fatal(err)
		}
	}
	if err := p.DoIdle(context.Background(), func(context.Context) { panic("boom") }); !errors.Is(err, game.ErrPanic) {
		t.Fatalf("panicking idle work = %v, want ErrPanic", err)
	}
	if err := p.DoIdle(context.Background(), func(context.Context) {}); err != nil {
		t.Fatalf("after a panic: %v", err)
	}

	// Close drops waiting idle work.
	started, release = make(chan struct{}), make(chan struct{})
	held = hold(p, started, release)
	<-started
	dropped := make(chan error, 1)
	go func() { dropped <- p.DoIdle(context.Background(), func(context.Context) {}) }()
	closed := make(chan struct{})
	go func() { p.Close(); close(closed) }()
	if err := <-dropped; !errors.Is(err, game.ErrBusy) {
		t.Fatalf("idle work waiting at Close = %v, want ErrBusy", err)
	}
	close(release)
	<-held
	<-closed
}
