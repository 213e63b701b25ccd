package game_test

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/game/gametest"
)

// The other player's chat counts too: a game never takes over a chat that has another one,
// whoever's it is.

// TestJoinInviteWhileCreatorPlays: the creator of an invitation who plays the AI meanwhile is
// not pulled out of that game by someone joining: the joiner is told, the invitation stays
// open, and works once the creator is free.
func TestJoinInviteWhileCreatorPlays(t *testing.T) {
	e := newEnv(t)
	lobby := e.ok(e.svc.OpenLobby(e.ctx, game.Lobby{Flow: game.FlowInvite, Creator: carol, Size: 8}))
	ai := e.ok(e.svc.NewAIGame(e.ctx, carol, carol.ChatID, 8, 1, game.ChooseBlack))
	_, err := e.svc.Join(e.ctx, lobby.Game.ID, bob)
	wantErr(t, "Join while the creator plays", err, game.ErrOpponentBusy)
	wantBound(t, e, carol.ChatID, ai.Game.ID)
	if _, err := e.svc.Current(e.ctx, bob.ChatID); err == nil {
		t.Fatal("a refused join bound the joiner's chat")
	}
	if g := e.ok(e.svc.Game(e.ctx, lobby.Game.ID)); g.Game.Status != game.StatusLobby {
		t.Fatalf("the invitation is %v after a refused join, want a lobby", g.Game.Status)
	}
	e.ok(e.svc.Resign(e.ctx, ai.Game.ID, carol.UserID))
	r := e.ok(e.svc.Join(e.ctx, lobby.Game.ID, bob))
	wantBound(t, e, carol.ChatID, r.Game.ID)
	wantBound(t, e, bob.ChatID, r.Game.ID)
}

// TestRematchWhileOpponentPlays: a rematch in the private chats of an invitation game waits
// until the opponent's chat is free, and says why.
func TestRematchWhileOpponentPlays(t *testing.T) {
	e := newEnv(t)
	lobby := e.ok(e.svc.OpenLobby(e.ctx, game.Lobby{Flow: game.FlowInvite, Creator: alice, Size: 8}))
	r := e.ok(e.svc.Join(e.ctx, lobby.Game.ID, bob))
	r = e.ok(e.svc.Resign(e.ctx, r.Game.ID, bob.UserID))
	ai := e.ok(e.svc.NewAIGame(e.ctx, bob, bob.ChatID, 8, 1, game.ChooseBlack))
	// Bob offers while he plays the AI: an offer takes no chat. Alice's accept waits.
	if o := e.ok(e.svc.Rematch(e.ctx, r.Game.ID, bob.UserID)); !o.Offered {
		t.Fatalf("Bob's rematch = %+v, want an offer", o)
	}
	_, err := e.svc.AcceptRematch(e.ctx, r.Game.ID, alice.UserID)
	wantErr(t, "Alice's accept while Bob plays the AI", err, game.ErrOpponentBusy)
	if g := e.ok(e.svc.Game(e.ctx, r.Game.ID)); g.Game.Rematch != game.RematchOffered {
		t.Fatalf("after a refused accept the offer is %v, want it standing", g.Game.Rematch)
	}
	wantBound(t, e, bob.ChatID, ai.Game.ID)
	e.ok(e.svc.Resign(e.ctx, ai.Game.ID, bob.UserID))
	re := e.ok(e.svc.AcceptRematch(e.ctx, r.Game.ID, alice.UserID))
	wantBound(t, e, alice.ChatID, re.Game.ID)
	wantBound(t, e, bob.ChatID, re.Game.ID)
}

// startsOnEnqueue is the store with a hook run once, after the next pairing and before its
// start: there a test starts another game, as a racing request would.
type startsOnEnqueue struct {
	*gametest.Memory
	after func()
}

func (s *startsOnEnqueue) Enqueue(ctx context.Context, size int, w game.Waiter) (*game.Waiter, error) {
	opp, err := s.Memory.Enqueue(ctx, size, w)
	if opp != nil && s.after != nil {
		after := s.after
		s.after = nil
		after()
	}
	return opp, err
}

// bobQueued returns a Service over e's store, wrapped so that a test can step in between a
// pairing and its start (set after), with Bob queued on it for an 8×8 game.
func (e *env) bobQueued() (*game.Service, *startsOnEnqueue) {
	e.t.Helper()
	wrapped := &startsOnEnqueue{Memory: e.store}
	svc := game.New(game.Config{Store: wrapped, Mover: firstMover{}, Now: e.clock.Now,
		Rand: rand.New(rand.NewPCG(3, 4)), IdleAfter: time.Hour})
	e.t.Cleanup(svc.Close)
	if q := e.ok(svc.Find(e.ctx, bob, 8)); !q.Queued {
		e.t.Fatal("Bob was not queued")
	}
	return svc, wrapped
}

// TestFindWhenOwnChatGetsAGame: a user whose /ai lands between their /find's pairing and its
// start plays the AI game only; the opponent they were paired with waits again.
func TestFindWhenOwnChatGetsAGame(t *testing.T) {
	e := newEnv(t)
	svc, wrapped := e.bobQueued()
	var ai *game.Snapshot
	wrapped.after = func() { ai = e.ok(e.svc.NewAIGame(e.ctx, alice, alice.ChatID, 8, 1, game.ChooseBlack)) }
	_, err := svc.Find(e.ctx, alice, 8)
	wantErr(t, "Find when Alice's chat got a game after the check", err, game.ErrAlreadyPlaying)
	wantBound(t, e, alice.ChatID, ai.Game.ID)
	if _, err := e.svc.Current(e.ctx, bob.ChatID); err == nil {
		t.Fatal("Bob's chat has a game although the pairing failed")
	}
	// Bob waits again: the next /find pairs with him.
	r := e.ok(svc.Find(e.ctx, carol, 8))
	if r.Queued || game.Side(r.Game, bob.UserID) < 0 {
		t.Fatalf("Carol's Find = %+v, want a game with Bob", r)
	}
}

// TestFindWhenOpponentGotAGame: a waiting player who started another game since is passed
// over: the /find looks further and queues.
func TestFindWhenOpponentGotAGame(t *testing.T) {
	e := newEnv(t)
	svc, wrapped := e.bobQueued()
	var ai *game.Snapshot
	wrapped.after = func() {
		// NewAIGame's LeaveQueue finds Bob already taken; its start wins his chat.
		ai = e.ok(e.svc.NewAIGame(e.ctx, bob, bob.ChatID, 8, 1, game.ChooseBlack))
	}
	r := e.ok(svc.Find(e.ctx, alice, 8))
	if !r.Queued {
		t.Fatalf("Alice's Find = %+v, want queued (Bob plays the AI)", r)
	}
	wantBound(t, e, bob.ChatID, ai.Game.ID)
	if ok, _ := e.svc.CancelFind(e.ctx, bob.UserID); ok {
		t.Fatal("Bob, who plays the AI, is back in the queue")
	}
}
