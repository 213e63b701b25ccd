package storage_test

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/game/gametest"
	"github.com/reversibot/reversi/storage"
	"github.com/reversibot/reversi/storage/storagetest"
)

// The tests of the hosting service that need Redis itself (its commands, its memory) run here;
// the others run in package game on the in-memory store.

// hostEnv is a game.Service over a Redis store.
type hostEnv struct {
	t     testing.TB
	svc   *game.Service
	store *storage.Store
	clock *gametest.Clock
	ctx   context.Context
}

var (
	alice = game.Player{UserID: 101, Name: "Alice", ChatID: 101, Lang: "en"}
	bob   = game.Player{UserID: 202, Name: "Bob", ChatID: 202, Lang: "ru"}
)

const hostGroup = -1001

// newHostEnv returns a Service over a store of the test's own (storagetest.New), whose players
// Alice and Bob have talked to the bot.
func newHostEnv(t testing.TB) *hostEnv {
	t.Helper()
	c := gametest.NewClock(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	st := storagetest.New(t, storage.Options{Now: c.Now})
	pool := game.NewAIPool(2, 8)
	svc := game.New(game.Config{Store: st, Mover: gametest.FirstMover{}, Pool: pool, Now: c.Now,
		Rand: rand.New(rand.NewPCG(1, 2)), IdleAfter: time.Hour, AllowSmall: true})
	t.Cleanup(func() { svc.Close(); pool.Close() })
	for _, p := range []game.Player{alice, bob} {
		if err := st.TouchUser(context.Background(), p.UserID, p.Name); err != nil {
			t.Fatal(err)
		}
	}
	return &hostEnv{t: t, svc: svc, store: st, clock: c, ctx: context.Background()}
}

// ok fails the test on err and returns r.
func (e *hostEnv) ok(r *game.Snapshot, err error) *game.Snapshot {
	e.t.Helper()
	if err != nil {
		e.t.Fatalf("unexpected error: %v", err)
	}
	return r
}

// startGroupGame opens a group lobby by Alice and lets Bob join.
func startGroupGame(e *hostEnv) *game.Snapshot {
	lobby := e.ok(e.svc.OpenLobby(e.ctx, game.Lobby{Flow: game.FlowGroup, Creator: alice,
		ChatID: hostGroup, Size: 8, Color: game.ChooseBlack, Lang: "ru"}))
	return e.ok(e.svc.Join(e.ctx, lobby.Game.ID, bob))
}

// play plays every person's side with the lowest legal move, and lets the AI answer, until the
// game ends.
func play(e *hostEnv, r *game.Snapshot) *game.Snapshot {
	for steps := 0; r.End == nil; steps++ {
		if steps > 600 {
			e.t.Fatal("game does not end")
		}
		if r.Reply != nil {
			r = e.ok(r.Reply.Wait(e.ctx))
			continue
		}
		_, p, ok := r.Turn()
		if !ok {
			e.t.Fatalf("no turn in a game in play")
		}
		r = e.ok(e.svc.Move(e.ctx, r.Game.ID, p.UserID, r.Pos.LegalMoves()[0], game.Ply(r.Game)))
	}
	return r
}
