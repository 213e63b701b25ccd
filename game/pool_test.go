package game_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
)

func TestAIPoolBoundsConcurrency(t *testing.T) {
	const workers, jobs = 2, 12
	p := game.NewAIPool(workers, 4)
	defer p.Close()
	var running, peak atomic.Int32
	started := make(chan struct{}, jobs)
	release := make(chan struct{})
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := p.Do(context.Background(), func(context.Context) {
				n := running.Add(1)
				for {
					m := peak.Load()
					if n <= m || peak.CompareAndSwap(m, n) {
						break
					}
				}
				started <- struct{}{}
				<-release
				running.Add(-1)
			})
			if err != nil {
				t.Errorf("Do: %v", err)
			}
		}()
	}
	for range workers {
		<-started
	}
	// Both workers are held: a job whose context has ended is refused without running.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ran := false
	if err := p.Do(ctx, func(context.Context) { ran = true }); !errors.Is(err, game.ErrBusy) || ran {
		t.Fatalf("Do with a cancelled context = %v (ran %v), want ErrBusy", err, ran)
	}
	close(release)
	wg.Wait()
	if got := len(started); got != jobs-workers {
		t.Fatalf("%d more jobs started, want %d", got, jobs-workers)
	}
	if peak.Load() > workers {
		t.Fatalf("%d jobs ran at once on %d workers", peak.Load(), workers)
	}
}

func TestAIPoolClose(t *testing.T) {
	p := game.NewAIPool(1, 1)
	p.Close()
	p.Close()
	if err := p.Do(context.Background(), func(context.Context) {}); !errors.Is(err, game.ErrBusy) {
		t.Fatalf("Do after Close = %v, want ErrBusy", err)
	}
	if p.Workers() != 1 {
		t.Fatalf("Workers() = %d", p.Workers())
	}
}

// blockingMover holds every search until released, as a crowd of slow AI games would.
type blockingMover struct {
	firstMover
	started chan struct{}
	release chan struct{}
}

func (m blockingMover) Move(ctx context.Context, pos engine.Position, level int) (engine.Square, error) {
	m.started <- struct{}{}
	select {
	case <-m.release:
	case <-ctx.Done():
		return engine.Pass, ctx.Err()
	}
	return m.firstMover.Move(ctx, pos, level)
}

// A crowd of AI games holding every worker does not stop people from moving, and an AI reply
// that cannot get a worker leaves the game waiting for the AI.
func TestBusyPoolDoesNotBlockMoves(t *testing.T) {
	e := newEnv(t)
	pool := game.NewAIPool(1, 1)
	defer pool.Close()
	m := blockingMover{started: make(chan struct{}, 8), release: make(chan struct{})}
	svc := game.New(game.Config{Store: e.store, Mover: m, Pool: pool, Now: e.clock.Now})
	defer svc.Close()
	var once sync.Once
	unblock := func() { once.Do(func() { close(m.release) }) }
	defer unblock() // before the pool closes, even when the test fails

	slow := e.ok(svc.NewAIGame(e.ctx, carol, carol.ChatID, 8, 1, game.ChooseWhite))
	done := make(chan error, 1)
	go func() { _, err := svc.AIReply(e.ctx, slow.Game.ID); done <- err }()
	<-m.started // the only worker is busy

	r := startGroupGame(t, &env{t: t, svc: svc, store: e.store, clock: e.clock, ctx: e.ctx}, 8, game.ChooseBlack)
	r = e.ok(svc.Move(e.ctx, r.Game.ID, alice.UserID, firstLegal(t, r), game.Ply(r.Game)))
	if game.Ply(r.Game) != 1 {
		t.Fatal("the move was not applied")
	}

	other := e.ok(svc.NewAIGame(e.ctx, bob, bob.ChatID, 8, 1, game.ChooseWhite))
	closed := game.NewAIPool(1, 1)
	closed.Close()
	stopped := game.New(game.Config{Store: e.store, Mover: m, Pool: closed})
	_, err := stopped.AIReply(e.ctx, other.Game.ID)
	wantErr(t, "AIReply on a stopped pool", err, game.ErrBusy)
	if g := e.ok(svc.Game(e.ctx, other.Game.ID)); g.Reply == nil || len(g.Game.Moves) != 0 {
		t.Fatalf("after ErrBusy the game should still wait for the AI: %+v", g.Game)
	}
	unblock()
	if err := <-done; err != nil {
		t.Fatalf("slow AIReply: %v", err)
	}
	if g := e.ok(svc.AIReply(e.ctx, other.Game.ID)); len(g.Played) == 0 || g.Reply != nil {
		t.Fatalf("AIReply after the crowd left: %+v", g.Played)
	}
}

type panicMover struct{}

func (panicMover) Move(context.Context, engine.Position, int) (engine.Square, error) {
	panic("search exploded")
}

func (panicMover) Hint(context.Context, engine.Position) (engine.Square, error) {
	return engine.Pass, errors.New("no hint today")
}

// An AI that panics or fails does not take the process down nor stall the game.
func TestBrokenAI(t *testing.T) {
	e := newEnv(t)
	svc := game.New(game.Config{Store: e.store, Mover: panicMover{}})
	defer svc.Close()
	r := e.ok(svc.NewAIGame(e.ctx, alice, alice.ChatID, 8, 1, game.ChooseWhite))
	r = e.ok(svc.AIReply(e.ctx, r.Game.ID))
	if len(r.Played) != 1 || r.Played[0].Square != r.Pos.Moves().First() && !r.Played[0].Square.Valid() {
		t.Fatalf("AIReply with a panicking AI played %+v", r.Played)
	}
	sq, err := svc.Hint(e.ctx, r.Game.ID, alice.UserID)
	if err != nil || !r.Pos.IsLegal(sq) {
		t.Fatalf("Hint with a failing AI = %v, %v", sq, err)
	}
	p := game.NewAIPool(1, 1)
	defer p.Close()
	if err := p.Do(e.ctx, func(context.Context) { panic("boom") }); !errors.Is(err, game.ErrPanic) {
		t.Fatalf("Do(panic) = %v, want ErrPanic", err)
	}
	if err := p.Do(e.ctx, func(context.Context) {}); err != nil {
		t.Fatalf("the worker did not survive a panic: %v", err)
	}
}
