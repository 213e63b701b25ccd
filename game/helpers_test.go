package game_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/game/gametest"
)

func TestMain(m *testing.M) {
	gametest.VerifyTestMain(m)
}

// firstMover plays the lowest legal square; its hint is the highest.
type firstMover = gametest.FirstMover

type env struct {
	t     testing.TB
	svc   *game.Service
	store *gametest.Memory
	clock *gametest.Clock
	ctx   context.Context
}

func newEnv(t testing.TB) *env {
	t.Helper()
	c := gametest.NewClock(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	st := gametest.NewMemory(gametest.MemoryOptions{Now: c.Now})
	pool := game.NewAIPool(2, 8)
	svc := game.New(game.Config{Store: st, Mover: firstMover{}, Pool: pool, Now: c.Now,
		Rand: rand.New(rand.NewPCG(1, 2)), IdleAfter: time.Hour, AllowSmall: true})
	t.Cleanup(func() { svc.Close(); pool.Close() })
	// The players have talked to the bot: only then do their results count (RecordResult).
	for _, p := range []game.Player{alice, bob, carol} {
		if err := st.TouchUser(context.Background(), p.UserID, p.Name); err != nil {
			t.Fatal(err)
		}
	}
	return &env{t: t, svc: svc, store: st, clock: c, ctx: context.Background()}
}

var (
	alice = game.Player{UserID: 101, Name: "Alice", ChatID: 101, Lang: "en"}
	bob   = game.Player{UserID: 202, Name: "Bob", ChatID: 202, Lang: "ru"}
	carol = game.Player{UserID: 303, Name: "Carol", ChatID: 303, Lang: "en"}
)

const group = -1001

// ok fails the test on err and returns r.
func (e *env) ok(r *game.Snapshot, err error) *game.Snapshot {
	e.t.Helper()
	if err != nil {
		e.t.Fatalf("unexpected error: %v", err)
	}
	return r
}

// profile returns a user's profile.
func (e *env) profile(userID int64) *game.Profile {
	e.t.Helper()
	p, err := e.store.Profile(e.ctx, userID)
	if err != nil {
		e.t.Fatalf("Profile(%d): %v", userID, err)
	}
	return p
}

func wantErr(t testing.TB, what string, err, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("%s: error %v, want %v", what, err, want)
	}
}

// firstLegal returns the lowest legal move of the side to move.
func firstLegal(t testing.TB, r *game.Snapshot) engine.Square {
	t.Helper()
	ms := r.Pos.LegalMoves()
	if len(ms) == 0 {
		t.Fatalf("no legal move in %v", r.Pos)
	}
	return ms[0]
}

// checkConsistent replays the stored moves with the engine and compares with the Result.
func checkConsistent(t testing.TB, r *game.Snapshot) {
	t.Helper()
	sq := make([]engine.Square, len(r.Game.Moves))
	for i, b := range r.Game.Moves {
		sq[i] = engine.Square(b)
	}
	eg, err := engine.Replay(r.Game.Size, sq)
	if err != nil {
		t.Fatalf("stored moves do not replay: %v", err)
	}
	pos := eg.Position()
	for pos.MustPass() {
		pos, _, _ = pos.Play(engine.Pass)
	}
	if pos != r.Pos {
		t.Fatalf("Result.Pos = %v, replay gives %v", r.Pos, pos)
	}
	if pos.GameOver() && r.Game.Status != game.StatusFinished {
		t.Fatalf("no side can move but the game is %v", r.Game.Status)
	}
	if r.Game.Status == game.StatusFinished && r.Game.Reason == game.EndNormal && !pos.GameOver() {
		t.Fatalf("game ended normally in a position with moves: %v", pos)
	}
}

// eachMoves plays, from r, until each side has placed a disc: the lowest legal move for a
// person, the AI's reply for the AI. A resignation after it is rated; before it, the game is
// aborted.
func (e *env) eachMoves(r *game.Snapshot) *game.Snapshot {
	e.t.Helper()
	for range 2 {
		if r.Reply != nil {
			r = e.ok(r.Reply.Wait(e.ctx))
			continue
		}
		_, p, ok := r.Turn()
		if !ok {
			e.t.Fatalf("no turn in %+v", r.Game)
		}
		r = e.ok(e.svc.Move(e.ctx, r.Game.ID, p.UserID, firstLegal(e.t, r), game.AnyPly))
	}
	if r.Reply != nil {
		r = e.ok(r.Reply.Wait(e.ctx))
	}
	return r
}
