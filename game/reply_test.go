package game_test

import (
	"context"
	"testing"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/game/gametest"
)

// The Service, not its caller, says when the AI is to move: every step that leaves the AI to
// move carries its Reply, and waiting on it plays the AI's move.

// A move in a game against the AI comes back with the AI's reply owed; waiting on it plays the
// AI's move and hands the turn back to the player, with nothing more owed.
func TestMoveAgainstTheAIOwesItsReply(t *testing.T) {
	e := newEnv(t)
	r := e.ok(e.svc.NewAIGame(e.ctx, alice, alice.ChatID, 8, 1, game.ChooseBlack))
	if r.Reply != nil {
		t.Fatal("a new game where the player moves first owes the AI's reply")
	}
	r = e.ok(e.svc.Move(e.ctx, r.Game.ID, alice.UserID, firstLegal(t, r), game.Ply(r.Game)))
	if r.Reply == nil || r.Reply.GameID() != r.Game.ID {
		t.Fatalf("Move against the AI: Reply = %+v, want the AI's reply of game %s", r.Reply, r.Game.ID)
	}
	ai := e.ok(r.Reply.Wait(e.ctx))
	if len(ai.Played) != 1 || ai.Played[0].UserID != 0 || ai.Played[0].Color != engine.White {
		t.Fatalf("Reply.Wait played %+v, want the AI's one move as white", ai.Played)
	}
	if _, p, ok := ai.Turn(); !ok || p.UserID != alice.UserID || ai.Reply != nil || ai.Thinking {
		t.Fatalf("after the AI's reply: turn %+v (%v), Reply %v, Thinking %v; want Alice to move, nothing owed",
			p, ok, ai.Reply, ai.Thinking)
	}
	if g := e.ok(e.svc.Game(e.ctx, r.Game.ID)); len(g.Game.Moves) != 2 || g.Reply != nil {
		t.Fatalf("stored game: %d moves, Reply %v; want the player's and the AI's", len(g.Game.Moves), g.Reply)
	}
	// Waiting again (a second look at the same step) plays nothing.
	if again := e.ok(r.Reply.Wait(e.ctx)); len(again.Played) != 0 {
		t.Fatalf("a second Wait played %+v", again.Played)
	}

	// A new game where the AI plays black owes its first move at once.
	n := e.ok(e.svc.NewAIGame(e.ctx, bob, bob.ChatID, 8, 1, game.ChooseWhite))
	if n.Reply == nil {
		t.Fatal("a new game where the AI plays black owes no reply")
	}
	if ai := e.ok(n.Reply.Wait(e.ctx)); len(ai.Played) != 1 || ai.Played[0].Color != engine.Black {
		t.Fatalf("the AI's first move: played %+v", ai.Played)
	}
}

// A process that stopped after a player's move and before the AI answered leaves the game
// owing the reply; another Service on the same store (the process restarted) finds it owed
// on any read of the game and plays it when waited on.
func TestRestartedServiceRepliesWhenRead(t *testing.T) {
	e := newEnv(t)
	r := e.ok(e.svc.NewAIGame(e.ctx, alice, alice.ChatID, 8, 1, game.ChooseBlack))
	r = e.ok(e.svc.Move(e.ctx, r.Game.ID, alice.UserID, firstLegal(t, r), game.Ply(r.Game)))
	if r.Reply == nil {
		t.Fatal("the move owes no reply")
	}
	// The first process stops here: its reply is never waited on.
	pool := game.NewAIPool(1, 0)
	restarted := game.New(game.Config{Store: e.store, Mover: firstMover{}, Pool: pool, Now: e.clock.Now})
	t.Cleanup(func() { restarted.Close(); pool.Close() })

	byID := e.ok(restarted.Game(e.ctx, r.Game.ID))
	byChat := e.ok(restarted.Current(e.ctx, alice.ChatID))
	if byID.Reply == nil || byChat.Reply == nil {
		t.Fatalf("reads after the restart: Game's Reply %v, Current's %v; want the reply owed", byID.Reply, byChat.Reply)
	}
	ai := e.ok(byChat.Reply.Wait(e.ctx))
	if len(ai.Played) != 1 || ai.Played[0].UserID != 0 || len(ai.Game.Moves) != 2 {
		t.Fatalf("the restarted Service's reply played %+v (%d moves stored), want the AI's move", ai.Played, len(ai.Game.Moves))
	}
	if g := e.ok(restarted.Game(e.ctx, r.Game.ID)); g.Reply != nil {
		t.Fatal("the game still owes a reply after it was played")
	}
	// The reply read before it was played is spent: it plays nothing more.
	if late := e.ok(byID.Reply.Wait(e.ctx)); len(late.Played) != 0 {
		t.Fatalf("a second read's Reply played %+v after the reply was in", late.Played)
	}
}

// Two steps at once that both leave the AI to move (two reads of a game that owes its reply,
// by two processes sharing the store) start one search: one Wait plays the move, the other
// returns at once saying the AI is thinking; whichever comes first leads.
func TestConcurrentStepsStartOneReply(t *testing.T) {
	e := newEnv(t)
	m := gametest.NewGatedMover()
	one, two := e.newService(m), e.newService(m)
	g := e.ok(one.NewAIGame(e.ctx, alice, alice.ChatID, 8, 6, game.ChooseWhite)) // the AI plays black
	replies := make(chan reply, 2)
	for _, step := range []func() (*game.Snapshot, error){
		func() (*game.Snapshot, error) { return one.Game(e.ctx, g.Game.ID) },
		func() (*game.Snapshot, error) { return two.Current(e.ctx, alice.ChatID) },
	} {
		go func() {
			r, err := step()
			if err != nil || r.Reply == nil {
				replies <- reply{r, err}
				return
			}
			r, err = r.Reply.Wait(e.ctx)
			replies <- reply{r, err}
		}()
	}
	key := m.Next(t)
	// The other step's Wait returns while the one search is held.
	select {
	case rp := <-replies:
		if rp.err != nil || !rp.r.Thinking || len(rp.r.Played) != 0 {
			t.Fatalf("the Wait that found a search under way = %+v, %v; want Thinking, nothing played", rp.r, rp.err)
		}
	case again := <-m.Started:
		t.Fatalf("a second search started while the first ran (%s)", again)
	}
	m.Open()
	rp := gametest.Receive(t, replies, "the leading Wait never returned")
	if rp.err != nil || len(rp.r.Played) != 1 || rp.r.Played[0].UserID != 0 {
		t.Fatalf("the leading Wait = %+v, %v; want the AI's move", rp.r, rp.err)
	}
	wantOneSearch(t, m, key, "searches")
	if r := e.ok(two.Game(e.ctx, g.Game.ID)); len(r.Game.Moves) != 1 || r.Reply != nil {
		t.Fatalf("the game has %d moves (Reply %v), want the AI's one", len(r.Game.Moves), r.Reply)
	}
}

// A reply the AI cannot give in time (the waiter's context ends, or no search slot is left)
// fails with ErrBusy and plays nothing; the game still owes it, and the next step's Reply
// plays it.
func TestReplyReportsErrBusy(t *testing.T) {
	e := newEnv(t)
	m := gametest.NewGatedMover()
	svc := e.newService(m)
	g := e.ok(svc.NewAIGame(e.ctx, alice, alice.ChatID, 8, 1, game.ChooseWhite))

	// The waiter gives up while the AI searches.
	ctx, cancel := context.WithCancel(e.ctx)
	done := make(chan reply, 1)
	go func() { r, err := g.Reply.Wait(ctx); done <- reply{r, err} }()
	m.Next(t)
	cancel()
	rp := gametest.Receive(t, done, "Wait did not return when its context ended")
	wantErr(t, "Wait whose context ended", rp.err, game.ErrBusy)
	if r := e.ok(svc.Game(e.ctx, g.Game.ID)); r.Reply == nil || len(r.Game.Moves) != 0 {
		t.Fatalf("after ErrBusy: %d moves, Reply %v; want nothing played, the reply still owed", len(r.Game.Moves), r.Reply)
	}

	// No search slot: a Service whose pool is closed.
	closed := game.NewAIPool(1, 0)
	closed.Close()
	stopped := game.New(game.Config{Store: e.store, Mover: m, Pool: closed})
	defer stopped.Close()
	r := e.ok(stopped.Game(e.ctx, g.Game.ID))
	_, err := r.Reply.Wait(e.ctx)
	wantErr(t, "Wait with no search slot", err, game.ErrBusy)

	// A later step wakes the AI.
	m.Open()
	r = e.ok(svc.Current(e.ctx, alice.ChatID))
	if r.Reply == nil {
		t.Fatal("the game no longer owes the reply that failed")
	}
	if ai := e.ok(r.Reply.Wait(e.ctx)); len(ai.Played) != 1 || ai.Reply != nil {
		t.Fatalf("the later Wait played %+v (Reply %v), want the AI's move", ai.Played, ai.Reply)
	}
}
