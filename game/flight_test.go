package game_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/game/gametest"
)

// newService returns a Service over the env's store with its own pool and the Mover m. When
// the test ends, m lets its searches go before the pool closes.
func (e *env) newService(m *gametest.GatedMover) *game.Service {
	pool := game.NewAIPool(2, 0)
	svc := game.New(game.Config{Store: e.store, Mover: m, Pool: pool, Now: e.clock.Now})
	e.t.Cleanup(func() { svc.Close(); pool.Close() })
	e.t.Cleanup(m.Open)
	return svc
}

// gatedAIGame starts alice's 8×8 game against the AI at level, in chat, with alice playing
// color, on a new Service (newService) whose searches wait for the returned GatedMover.
func (e *env) gatedAIGame(chat int64, level int, color game.Choice) (*gametest.GatedMover, *game.Service, *game.Snapshot) {
	e.t.Helper()
	m := gametest.NewGatedMover()
	svc := e.newService(m)
	return m, svc, e.ok(svc.NewAIGame(e.ctx, alice, chat, 8, level, color))
}

type reply struct {
	r   *game.Snapshot
	err error
}

// leadSearch calls AIReply for game id on svc in the background and waits until its search
// starts: it returns where that AIReply's answer will come and the search's key.
func (e *env) leadSearch(svc *game.Service, m *gametest.GatedMover, id string) (<-chan reply, string) {
	e.t.Helper()
	lead := make(chan reply, 1)
	go func() { r, err := svc.AIReply(e.ctx, id); lead <- reply{r, err} }()
	return lead, m.Next(e.t)
}

// wantOneSearch fails the test unless the position of key was searched exactly once; what
// names the searches in the failure.
func wantOneSearch(t *testing.T, m *gametest.GatedMover, key, what string) {
	t.Helper()
	if n := m.Count(key); n != 1 {
		t.Fatalf("%d %s of the position, want 1", n, what)
	}
}

// flood calls AIReply n times at once on svc and checks that each returns at once, while the
// first search still runs, with nothing played and Thinking set; a second search of the
// position fails the test.
func flood(t *testing.T, svc *game.Service, m *gametest.GatedMover, id string, n int) {
	t.Helper()
	replies := make(chan reply, n)
	for range n {
		go func() {
			r, err := svc.AIReply(context.Background(), id)
			replies <- reply{r, err}
		}()
	}
	for got := 0; got < n; {
		select {
		case rp := <-replies:
			got++
			if rp.err != nil {
				t.Fatalf("AIReply while the AI thinks: %v", rp.err)
			}
			if len(rp.r.Played) != 0 || !rp.r.Thinking || rp.r.Reply == nil {
				t.Fatalf("AIReply while the AI thinks = played %v, Thinking %v, AI to move %v; want nothing played, Thinking, the AI to move",
					rp.r.Played, rp.r.Thinking, rp.r.Reply != nil)
			}
		case key := <-m.Started:
			t.Fatalf("a second search started while the first ran (%s)", key)
		}
	}
}

// While the AI searches a position, more AIReply calls for the game (a flood of typed moves,
// stale taps, /board) start no second search: they return at once saying the AI is thinking,
// and the one search's move is played once.
func TestAIReplyJoinsTheSearchInFlight(t *testing.T) {
	e := newEnv(t)
	m, svc, g := e.gatedAIGame(alice.ChatID, 6, game.ChooseWhite)
	lead, first := e.leadSearch(svc, m, g.Game.ID)

	flood(t, svc, m, g.Game.ID, 20)

	m.Open()
	rp := <-lead
	if rp.err != nil || len(rp.r.Played) != 1 || rp.r.Reply != nil {
		t.Fatalf("the leading AIReply = %+v, %v; want one move played", rp.r, rp.err)
	}
	// Once the move is in, AIReply has nothing to do and searches nothing.
	if r := e.ok(svc.AIReply(e.ctx, g.Game.ID)); len(r.Played) != 0 || r.Thinking {
		t.Fatalf("AIReply after the move = %+v", r)
	}
	wantOneSearch(t, m, first, "searches")
	if r := e.ok(svc.Game(e.ctx, g.Game.ID)); len(r.Game.Moves) != 1 {
		t.Fatalf("the game has %d moves, want the AI's one", len(r.Game.Moves))
	}
}

// Two Services on one store (two bot processes on one Redis) search a position once: the
// second, while the first searches, says the AI is thinking.
func TestTwoServicesSearchAPositionOnce(t *testing.T) {
	e := newEnv(t)
	m := gametest.NewGatedMover()
	one, two := e.newService(m), e.newService(m)
	g := e.ok(one.NewAIGame(e.ctx, alice, alice.ChatID, 8, 6, game.ChooseWhite))
	lead, first := e.leadSearch(one, m, g.Game.ID)

	flood(t, two, m, g.Game.ID, 10)

	m.Open()
	if rp := <-lead; rp.err != nil || len(rp.r.Played) != 1 {
		t.Fatalf("the leading AIReply = %+v, %v; want one move played", rp.r, rp.err)
	}
	wantOneSearch(t, m, first, "searches")
	// The lease is free again: the other process answers the next position.
	pos := e.ok(two.Game(e.ctx, g.Game.ID))
	r := e.ok(two.Move(e.ctx, g.Game.ID, alice.UserID, firstLegal(t, pos), game.Ply(pos.Game)))
	if r = e.ok(two.AIReply(e.ctx, r.Game.ID)); len(r.Played) == 0 {
		t.Fatalf("the second process's AIReply played nothing: %+v", r)
	}
}

// Hints asked for the same position while its search runs wait for that search and share its
// answer: one hint search per position at a time.
func TestHintJoinsTheSearchInFlight(t *testing.T) {
	e := newEnv(t)
	m, svc, g := e.gatedAIGame(alice.ChatID, 1, game.ChooseBlack)
	const asks = 6
	hints := make(chan engine.Square, asks)
	ask := func() {
		sq, err := svc.Hint(e.ctx, g.Game.ID, alice.UserID)
		if err != nil {
			t.Errorf("Hint: %v", err)
		}
		hints <- sq
	}
	go ask()
	first := m.Next(t)
	for range asks - 1 {
		go ask()
	}
	gametest.Until(t, "the hints join", func() bool { return svc.FlightWaiters() == asks-1 || len(m.Started) > 0 })
	if len(m.Started) > 0 {
		t.Fatalf("a second hint search started while the first ran (%s)", <-m.Started)
	}
	m.Open()
	want, _ := firstMover{}.Hint(e.ctx, g.Pos)
	for range asks {
		if sq := <-hints; sq != want {
			t.Fatalf("Hint = %v, want %v", sq, want)
		}
	}
	wantOneSearch(t, m, first, "hint searches")
}

// The Service runs each AI reply as the search of the game's human player and each hint as
// the asker's: user A's many AI games and hints cannot hold user B's reply back by more than
// one search.
func TestServiceSharesTheAIBetweenUsers(t *testing.T) {
	e := newEnv(t)
	m := gametest.NewHeldMover()
	var wg sync.WaitGroup
	t.Cleanup(wg.Wait) // last: every call has returned
	pool := game.NewAIPool(1, 0)
	svc := game.New(game.Config{Store: e.store, Mover: m, Pool: pool, Now: e.clock.Now})
	t.Cleanup(func() { svc.Close(); pool.Close() })
	t.Cleanup(func() { close(m.Stop) }) // first: the held searches end, then the pool closes

	run := func(f func() error) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := f(); err != nil {
				t.Errorf("%v", err)
			}
		}()
	}
	aiReply := func(id string) func() error {
		return func() error { _, err := svc.AIReply(e.ctx, id); return err }
	}
	// A plays the level-2 AI in three groups, the AI to move in each, and asks for a hint.
	for i := range 3 {
		a := alice
		a.ChatID = 0
		g := e.ok(svc.NewAIGame(e.ctx, a, int64(-100-i), 8, 2, game.ChooseWhite))
		run(aiReply(g.Game.ID))
		if i == 0 {
			if s := m.Next(t); s != "level 2" {
				t.Fatalf("first search %q", s)
			}
		}
	}
	h := e.ok(svc.NewAIGame(e.ctx, alice, alice.ChatID, 8, 2, game.ChooseBlack))
	run(func() error { _, err := svc.Hint(e.ctx, h.Game.ID, alice.UserID); return err })
	gametest.Until(t, "A's searches wait", func() bool { return pool.Waiting() == 3 })

	// B's level-1 game, the AI to move.
	b := e.ok(svc.NewAIGame(e.ctx, bob, bob.ChatID, 8, 1, game.ChooseWhite))
	run(aiReply(b.Game.ID))
	gametest.Until(t, "B's search waits", func() bool { return pool.Waiting() == 4 })

	m.Release <- struct{}{} // one of A's searches ends
	if s := m.Next(t); s != "level 1" {
		t.Fatalf("after one of A's searches ended, %q started; want B's level-1 reply", s)
	}
	for range 4 {
		m.Release <- struct{}{}
	}
	for range 3 {
		m.Next(t)
	}
	wg.Wait()
}

// A lease left by a process that died mid-search holds the game up until its TTL, about the
// level's budget: meanwhile AIReply says the AI is thinking and searches nothing; then it plays.
func TestDeadProcessLeaseExpires(t *testing.T) {
	clock := gametest.NewClock(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	st := gametest.NewMemory(gametest.MemoryOptions{Now: clock.Now})
	m := gametest.NewGatedMover()
	m.Open()
	pool := game.NewAIPool(1, 0)
	svc := game.New(game.Config{Store: st, Mover: m, Pool: pool})
	t.Cleanup(func() { svc.Close(); pool.Close() })
	ctx := context.Background()
	g, err := svc.NewAIGame(ctx, alice, alice.ChatID, 8, 1, game.ChooseWhite)
	if err != nil {
		t.Fatal(err)
	}
	// The dead process's lease: the level-1 budget and the margin.
	if _, ok, err := st.AcquireLease(ctx, "ai:"+g.Game.ID, 545*time.Millisecond); err != nil || !ok {
		t.Fatalf("AcquireLease = %v, %v", ok, err)
	}
	r, err := svc.AIReply(ctx, g.Game.ID)
	if err != nil || !r.Thinking || len(r.Played) != 0 {
		t.Fatalf("AIReply under another's lease = %+v, %v; want Thinking", r, err)
	}
	if len(m.Started) != 0 {
		t.Fatal("a search started under another process's lease")
	}
	clock.Add(time.Second)
	if r, err = svc.AIReply(ctx, g.Game.ID); err != nil || len(r.Played) != 1 || r.Thinking {
		t.Fatalf("AIReply after the lease expired = %+v, %v; want the AI's move", r, err)
	}
}

// A write that does not move the game while the AI searches (a /board recording its new
// message) makes the AI's commit retry, not search again: the move lands after one search,
// however many such writes come.
func TestAIReplyDoesNotSearchAgainAfterABoardWrite(t *testing.T) {
	e := newEnv(t)
	m, svc, g := e.gatedAIGame(group, 6, game.ChooseWhite)
	lead, first := e.leadSearch(svc, m, g.Game.ID)
	for i := range 3 {
		if _, err := svc.AddBoard(e.ctx, g.Game.ID, game.MessageRef{ChatID: group, MessageID: 10 + i}); err != nil {
			t.Fatal(err)
		}
	}
	m.Open()
	rp := <-lead
	if rp.err != nil || len(rp.r.Played) != 1 {
		t.Fatalf("AIReply = %+v, %v; want the AI's move", rp.r, rp.err)
	}
	wantOneSearch(t, m, first, "searches")
}

// hookStore calls after once, from inside the first UpdateGame that writes a game with moves
// moves, once that write has landed: a step of another caller in the window between a
// write and what its writer does next.
type hookStore struct {
	*gametest.Memory
	moves int
	after func()
}

func (h *hookStore) UpdateGame(ctx context.Context, g *game.Game) error {
	err := h.Memory.UpdateGame(ctx, g)
	if err == nil && len(g.Moves) == h.moves && h.after != nil {
		f := h.after
		h.after = nil
		f()
	}
	return err
}

// A player who moves just after the AI's reply landed, while that AIReply still holds the
// game, is told the AI is thinking; that AIReply then answers the new move too, so no move is
// left waiting for the AI (in one process or across two).
func TestAIReplyAnswersAMoveMadeWhileItHeldTheGame(t *testing.T) {
	for _, two := range []bool{false, true} {
		t.Run(map[bool]string{false: "one process", true: "two processes"}[two], func(t *testing.T) {
			e := newEnv(t)
			hs := &hookStore{Memory: e.store, moves: 1}
			one := game.New(game.Config{Store: hs, Mover: firstMover{}, Now: e.clock.Now})
			t.Cleanup(one.Close)
			other := one
			if two {
				other = game.New(game.Config{Store: hs, Mover: firstMover{}, Now: e.clock.Now})
				t.Cleanup(other.Close)
			}
			g := e.ok(one.NewAIGame(e.ctx, alice, alice.ChatID, 8, 1, game.ChooseWhite))
			var joined *game.Snapshot
			hs.after = func() { // the AI's first move is in; its AIReply has not let go yet
				r := e.ok(other.Game(e.ctx, g.Game.ID))
				e.ok(other.Move(e.ctx, g.Game.ID, alice.UserID, firstLegal(t, r), game.Ply(r.Game)))
				joined = e.ok(other.AIReply(e.ctx, g.Game.ID))
			}
			r := e.ok(one.AIReply(e.ctx, g.Game.ID))
			if joined == nil || !joined.Thinking || len(joined.Played) != 0 {
				t.Fatalf("AIReply while another held the game = %+v, want Thinking", joined)
			}
			if n := len(r.Game.Moves); n != 3 || r.Reply != nil || len(r.Played) == 0 {
				t.Fatalf("after the holder's AIReply: %d moves, AI to move %v, played %v; want the AI's answer to the player's second move",
					n, r.Reply != nil, r.Played)
			}
		})
	}
}

// readHookStore calls after once, from inside the first read of a game with moves moves, once
// that read has been made: another caller's steps between a read and what its reader does.
type readHookStore struct {
	*gametest.Memory
	moves int
	after func()
}

func (h *readHookStore) Game(ctx context.Context, id string) (*game.Game, error) {
	g, err := h.Memory.Game(ctx, id)
	if err == nil && len(g.Moves) == h.moves && h.after != nil {
		f := h.after
		h.after = nil
		f()
	}
	return g, err
}

// A player who moves while the AIReply holding the game is looking at it again (and sees no
// move to answer, having read just before the move landed) is told the AI is thinking; the
// holder, turned to, looks once more and answers.
func TestAIReplyLooksAgainWhenTurnedTo(t *testing.T) {
	e := newEnv(t)
	hs := &readHookStore{Memory: e.store}
	svc := game.New(game.Config{Store: hs, Mover: firstMover{}, Now: e.clock.Now})
	t.Cleanup(svc.Close)
	g := e.ok(svc.NewAIGame(e.ctx, alice, alice.ChatID, 8, 1, game.ChooseWhite))
	var joined *game.Snapshot
	hs.moves = 1 // the holder's read after the AI's first move
	hs.after = func() {
		r := e.ok(e.svc.Game(e.ctx, g.Game.ID)) // a read that does not fire the hook again
		e.ok(svc.Move(e.ctx, g.Game.ID, alice.UserID, firstLegal(t, r), game.Ply(r.Game)))
		joined = e.ok(svc.AIReply(e.ctx, g.Game.ID))
	}
	r := e.ok(svc.AIReply(e.ctx, g.Game.ID))
	if joined == nil || !joined.Thinking {
		t.Fatalf("AIReply while the holder looked = %+v, want Thinking", joined)
	}
	if n := len(r.Game.Moves); n != 3 || r.Reply != nil {
		t.Fatalf("after the holder's AIReply: %d moves, AI to move %v; want the AI's answer to the player's move", n, r.Reply != nil)
	}
}
