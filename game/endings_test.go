package game_test

import (
	"errors"
	"testing"
	"time"

	"github.com/reversibot/reversi/game"
)

// wantUnrated checks that the game r ended aborted and that nobody's record or rating moved.
func wantUnrated(t *testing.T, e *env, what string, r *game.Snapshot) {
	t.Helper()
	if r.End == nil || r.End.Reason != game.EndAbandoned || r.End.Outcome != game.OutcomeNone ||
		r.End.Winner != -1 || !r.Game.Aborted() || r.Game.Rating.Rated {
		t.Fatalf("%s: ended %+v (aborted %v, rating %+v), want aborted", what, r.End, r.Game.Aborted(), r.Game.Rating)
	}
	for _, p := range []game.Player{alice, bob} {
		s := e.profile(p.UserID).Stats
		if s.Wins+s.Losses+s.Draws != 0 || s.Rating != game.InitialRating || len(s.VsAI) != 0 {
			t.Fatalf("%s: %s's stats moved: %+v", what, p.Name, s)
		}
	}
}

// TestEndBeforeEachMovedAborts: a game that ends before each player has placed a disc, by a
// resignation or a claim, is aborted: no result, no rating, no record.
func TestEndBeforeEachMovedAborts(t *testing.T) {
	e := newEnv(t)
	r := startGroupGame(t, e, 8, game.ChooseBlack) // Alice black, to move
	wantUnrated(t, e, "Alice resigns before any move", e.ok(e.svc.Resign(e.ctx, r.Game.ID, alice.UserID)))

	r = startGroupGame(t, e, 8, game.ChooseBlack)
	r = e.ok(e.svc.Move(e.ctx, r.Game.ID, alice.UserID, firstLegal(t, r), game.AnyPly))
	wantUnrated(t, e, "Bob resigns before his first move", e.ok(e.svc.Resign(e.ctx, r.Game.ID, bob.UserID)))

	r = startGroupGame(t, e, 8, game.ChooseBlack)
	r = e.ok(e.svc.Move(e.ctx, r.Game.ID, alice.UserID, firstLegal(t, r), game.AnyPly))
	wantUnrated(t, e, "Alice resigns after her first move only", e.ok(e.svc.Resign(e.ctx, r.Game.ID, alice.UserID)))

	r = startGroupGame(t, e, 8, game.ChooseBlack)
	e.clock.Add(time.Hour)
	wantUnrated(t, e, "Bob claims a game Alice never moved in", e.ok(e.svc.ClaimIdle(e.ctx, r.Game.ID, bob.UserID)))

	ai := e.ok(e.svc.NewAIGame(e.ctx, alice, alice.ChatID, 8, 2, game.ChooseWhite))
	ai = e.ok(e.svc.AIReply(e.ctx, ai.Game.ID))
	wantUnrated(t, e, "Alice resigns to the AI before her first move", e.ok(e.svc.Resign(e.ctx, ai.Game.ID, alice.UserID)))
	// An aborted game may be played again: against the AI at once.
	if re := e.ok(e.svc.Rematch(e.ctx, ai.Game.ID, alice.UserID)); re.Offered || re.Game.ID == ai.Game.ID {
		t.Fatalf("rematch of an aborted AI game = %+v", re)
	}

	// Once each has moved, a resignation counts.
	r = e.eachMoves(startGroupGame(t, e, 8, game.ChooseBlack))
	r = e.ok(e.svc.Resign(e.ctx, r.Game.ID, bob.UserID))
	if r.End.Reason != game.EndResign || r.End.Winner != game.Side(r.Game, alice.UserID) || r.Game.Aborted() {
		t.Fatalf("resignation after a move each ended %+v", r.End)
	}
	if s := e.profile(alice.UserID).Stats; s.Wins != 1 {
		t.Fatalf("Alice's stats after Bob resigned: %+v", s)
	}
}

// TestFinishedGameKeepsRatingChange: the step that ends a rated game between people returns,
// and stores on the game, what its result did to both ratings.
func TestFinishedGameKeepsRatingChange(t *testing.T) {
	e := newEnv(t)
	r := e.eachMoves(startGroupGame(t, e, 8, game.ChooseBlack))
	r = e.ok(e.svc.Resign(e.ctx, r.Game.ID, bob.UserID))
	a, b := game.Side(r.Game, alice.UserID), game.Side(r.Game, bob.UserID)
	rc := r.Game.Rating
	if !rc.Rated || rc.Before[a] != game.InitialRating || rc.Before[b] != game.InitialRating ||
		rc.Delta(a) != game.EloK/2 || rc.Delta(b) != -game.EloK/2 {
		t.Fatalf("rating change of Bob's resignation = %+v", rc)
	}
	if s := e.profile(alice.UserID).Stats; s.Rating != rc.After[a] {
		t.Fatalf("Alice's rating %d, the game says %d", s.Rating, rc.After[a])
	}
	if got := e.ok(e.svc.Game(e.ctx, r.Game.ID)).Game; got.Rating != rc || got.Version != r.Game.Version {
		t.Fatalf("stored game has rating %+v (version %d), want %+v (version %d)", got.Rating, got.Version, rc, r.Game.Version)
	}
	// Recording it again (Settle) changes nothing and tells the same.
	if err := e.svc.Settle(e.ctx, r.Game.ID); err != nil {
		t.Fatal(err)
	}
	if s := e.profile(alice.UserID).Stats; s.Rating != rc.After[a] || s.Wins != 1 {
		t.Fatalf("after Settle Alice has %+v", s)
	}

	ai := e.eachMoves(e.ok(e.svc.NewAIGame(e.ctx, carol, carol.ChatID, 8, 1, game.ChooseBlack)))
	if ai = e.ok(e.svc.Resign(e.ctx, ai.Game.ID, carol.UserID)); ai.Game.Rating.Rated {
		t.Fatalf("a game against the AI moved ratings: %+v", ai.Game.Rating)
	}
}

// finishedGroupGame plays a group game to a rated end (Bob resigns) and returns it.
func finishedGroupGame(t *testing.T, e *env) *game.Snapshot {
	t.Helper()
	r := e.eachMoves(startGroupGame(t, e, 8, game.ChooseBlack))
	return e.ok(e.svc.Resign(e.ctx, r.Game.ID, bob.UserID))
}

// TestRematchNeedsConsent: between people a rematch is an offer; only the other player's
// accept starts it.
func TestRematchNeedsConsent(t *testing.T) {
	e := newEnv(t)
	r := finishedGroupGame(t, e)
	id := r.Game.ID
	o := e.ok(e.svc.Rematch(e.ctx, id, alice.UserID))
	if !o.Offered || o.Game.ID != id || o.Game.Rematch != game.RematchOffered || o.Game.RematchBy != alice.UserID {
		t.Fatalf("Alice's rematch = %+v, want an offer on the finished game", o.Game)
	}
	if _, err := e.svc.Current(e.ctx, group); err == nil {
		t.Fatal("an offer started a game in the group")
	}
	if again := e.ok(e.svc.Rematch(e.ctx, id, alice.UserID)); !again.Offered || again.Game.Version != o.Game.Version {
		t.Fatalf("Alice asking again = %+v, want her offer unchanged", again.Game)
	}
	_, err := e.svc.AcceptRematch(e.ctx, id, alice.UserID)
	wantErr(t, "Alice accepting her own offer", err, game.ErrOwnOffer)
	_, err = e.svc.AcceptRematch(e.ctx, id, carol.UserID)
	wantErr(t, "a spectator accepting", err, game.ErrNotYourGame)
	_, err = e.svc.DeclineRematch(e.ctx, id, carol.UserID)
	wantErr(t, "a spectator declining", err, game.ErrNotYourGame)

	re := e.ok(e.svc.AcceptRematch(e.ctx, id, bob.UserID))
	if re.Game.ID == id || re.Game.Status != game.StatusPlaying ||
		re.Game.Players[0].UserID != r.Game.Players[1].UserID || re.Game.Players[1].UserID != r.Game.Players[0].UserID {
		t.Fatalf("accepted rematch = %+v, want a new game with the colours swapped", re.Game)
	}
	if cur := e.ok(e.svc.Current(e.ctx, group)); cur.Game.ID != re.Game.ID {
		t.Fatalf("the group shows %s, want the rematch %s", cur.Game.ID, re.Game.ID)
	}
	if old := e.ok(e.svc.Game(e.ctx, id)).Game; old.Rematch != game.RematchAccepted {
		t.Fatalf("the finished game's offer is %v, want accepted", old.Rematch)
	}
	// Accepting again, or either asking, finds the rematch made.
	for _, u := range []int64{alice.UserID, bob.UserID} {
		if again := e.ok(e.svc.Rematch(e.ctx, id, u)); !again.Existing || again.Game.ID != re.Game.ID {
			t.Fatalf("Rematch by %d after the accept = %+v", u, again)
		}
	}
	_, err = e.svc.DeclineRematch(e.ctx, id, alice.UserID)
	wantErr(t, "withdrawing an accepted offer", err, game.ErrNoOffer)
}

// TestRematchDeclinedWithdrawnExpired: the other player may decline, the offerer withdraw,
// and an offer nobody answers expires after RematchFor; none starts a game.
func TestRematchDeclinedWithdrawnExpired(t *testing.T) {
	e := newEnv(t)
	r := finishedGroupGame(t, e)
	id := r.Game.ID
	_, err := e.svc.AcceptRematch(e.ctx, id, bob.UserID)
	wantErr(t, "accepting without an offer", err, game.ErrNoOffer)
	_, err = e.svc.DeclineRematch(e.ctx, id, bob.UserID)
	wantErr(t, "declining without an offer", err, game.ErrNoOffer)

	e.ok(e.svc.Rematch(e.ctx, id, alice.UserID))
	d := e.ok(e.svc.DeclineRematch(e.ctx, id, bob.UserID))
	if d.Game.Rematch != game.RematchDeclined {
		t.Fatalf("after Bob declined the offer is %v", d.Game.Rematch)
	}
	_, err = e.svc.AcceptRematch(e.ctx, id, bob.UserID)
	wantErr(t, "accepting a declined offer", err, game.ErrNoOffer)

	// Bob may offer in turn; he withdraws it.
	if o := e.ok(e.svc.Rematch(e.ctx, id, bob.UserID)); o.Game.RematchBy != bob.UserID || o.Game.Rematch != game.RematchOffered {
		t.Fatalf("Bob's offer = %+v", o.Game)
	}
	if w := e.ok(e.svc.DeclineRematch(e.ctx, id, bob.UserID)); w.Game.Rematch != game.RematchWithdrawn {
		t.Fatalf("after Bob withdrew the offer is %v", w.Game.Rematch)
	}

	// An offer stands for RematchFor, by the service's clock.
	o := e.ok(e.svc.Rematch(e.ctx, id, alice.UserID))
	if left := e.svc.RematchLeft(o.Game); left != game.DefaultRematchFor {
		t.Fatalf("RematchLeft of a new offer = %v, want %v", left, game.DefaultRematchFor)
	}
	e.clock.Add(game.DefaultRematchFor)
	_, err = e.svc.AcceptRematch(e.ctx, id, bob.UserID)
	wantErr(t, "accepting an expired offer", err, game.ErrOfferExpired)
	if g := e.ok(e.svc.Game(e.ctx, id)).Game; g.Rematch != game.RematchExpired {
		t.Fatalf("after a late accept the offer is %v, want expired", g.Rematch)
	}
	if _, err := e.svc.Current(e.ctx, group); err == nil {
		t.Fatal("an expired offer started a game")
	}
	// An expired offer of the other player is no consent: Bob's ask is a new offer.
	e.ok(e.svc.Rematch(e.ctx, id, alice.UserID))
	e.clock.Add(game.DefaultRematchFor + time.Second)
	if o := e.ok(e.svc.Rematch(e.ctx, id, bob.UserID)); !o.Offered || o.Game.RematchBy != bob.UserID {
		t.Fatalf("Bob asking after Alice's offer expired = %+v, want his own offer", o.Game)
	}
	e.clock.Add(game.DefaultRematchFor)
	_, err = e.svc.DeclineRematch(e.ctx, id, alice.UserID)
	wantErr(t, "declining an expired offer", err, game.ErrOfferExpired)
}

// TestRematchAcceptRacesWithdrawal: an accept and a withdrawal of the same offer at once leave
// the finished game saying what happened: a rematch was started exactly when the offer reads
// accepted; otherwise it reads withdrawn and nothing started.
func TestRematchAcceptRacesWithdrawal(t *testing.T) {
	e := newEnv(t)
	for i := range 20 {
		r := finishedGroupGame(t, e)
		id := r.Game.ID
		e.ok(e.svc.Rematch(e.ctx, id, alice.UserID))
		errs := make(chan error, 2)
		go func() { _, err := e.svc.AcceptRematch(e.ctx, id, bob.UserID); errs <- err }()
		go func() { _, err := e.svc.DeclineRematch(e.ctx, id, alice.UserID); errs <- err }()
		for range 2 {
			if err := <-errs; err != nil && !errors.Is(err, game.ErrNoOffer) && !errors.Is(err, game.ErrConflict) {
				t.Fatalf("run %d: %v", i, err)
			}
		}
		old := e.ok(e.svc.Game(e.ctx, id)).Game
		cur, err := e.svc.Current(e.ctx, group)
		started := err == nil && cur.Game.ID != id && cur.Game.Status == game.StatusPlaying
		switch {
		case started && old.Rematch != game.RematchAccepted:
			t.Fatalf("run %d: a rematch started but the offer reads %v", i, old.Rematch)
		case !started && old.Rematch == game.RematchAccepted:
			t.Fatalf("run %d: the offer reads accepted but no rematch started", i)
		case !started && old.Rematch != game.RematchWithdrawn:
			t.Fatalf("run %d: nothing started and the offer reads %v", i, old.Rematch)
		}
		if started {
			e.eachMoves(cur)
			e.ok(e.svc.Resign(e.ctx, cur.Game.ID, alice.UserID))
		}
	}
}

// TestExpireRematch: an offer expires by itself (ExpireRematch) only once its time is up, and
// only once: the first call after the deadline records the expiry and returns the game to
// redraw, every later one nothing; before the deadline it tells how long the offer has left.
// An offer withdrawn, declined or accepted has nothing to expire.
func TestExpireRematch(t *testing.T) {
	e := newEnv(t)
	id := finishedGroupGame(t, e).Game.ID
	if r, left, err := e.svc.ExpireRematch(e.ctx, id); r != nil || left != 0 || err != nil {
		t.Fatalf("expiring without an offer = %v, %v, %v", r, left, err)
	}
	o := e.ok(e.svc.Rematch(e.ctx, id, alice.UserID))
	if d := e.svc.RematchDeadline(o.Game); !d.Equal(e.clock.Now().Add(game.DefaultRematchFor)) {
		t.Fatalf("RematchDeadline = %v, want %v", d, e.clock.Now().Add(game.DefaultRematchFor))
	}
	e.clock.Add(game.DefaultRematchFor - time.Minute)
	if r, left, err := e.svc.ExpireRematch(e.ctx, id); r != nil || left != time.Minute || err != nil {
		t.Fatalf("expiring a minute early = %v, %v, %v; want nothing and a minute left", r, left, err)
	}
	if g := e.ok(e.svc.Game(e.ctx, id)).Game; g.Rematch != game.RematchOffered {
		t.Fatalf("an early expiry changed the offer to %v", g.Rematch)
	}
	e.clock.Add(time.Minute)
	r, left, err := e.svc.ExpireRematch(e.ctx, id)
	if err != nil || left != 0 || r == nil || r.Game.Rematch != game.RematchExpired || r.Game.RematchBy != alice.UserID {
		t.Fatalf("expiring at the deadline = %+v, %v, %v", r, left, err)
	}
	if r, left, err := e.svc.ExpireRematch(e.ctx, id); r != nil || left != 0 || err != nil {
		t.Fatalf("expiring twice = %v, %v, %v", r, left, err)
	}
	if d := e.svc.RematchDeadline(r.Game); !d.IsZero() {
		t.Fatalf("RematchDeadline of an expired offer = %v", d)
	}
	if _, err := e.svc.Current(e.ctx, group); err == nil {
		t.Fatal("an expired offer started a game")
	}

	// Answered offers: nothing expires later.
	for _, answer := range []func(id string) (*game.Snapshot, error){
		func(id string) (*game.Snapshot, error) { return e.svc.DeclineRematch(e.ctx, id, alice.UserID) },
		func(id string) (*game.Snapshot, error) { return e.svc.DeclineRematch(e.ctx, id, bob.UserID) },
		func(id string) (*game.Snapshot, error) { return e.svc.AcceptRematch(e.ctx, id, bob.UserID) },
	} {
		id := finishedGroupGame(t, e).Game.ID
		e.ok(e.svc.Rematch(e.ctx, id, alice.UserID))
		re := e.ok(answer(id))
		before := e.ok(e.svc.Game(e.ctx, id)).Game.Rematch
		e.clock.Add(2 * game.DefaultRematchFor)
		if r, left, err := e.svc.ExpireRematch(e.ctx, id); r != nil || left != 0 || err != nil {
			t.Fatalf("expiring an offer answered %v = %v, %v, %v", before, r, left, err)
		}
		if g := e.ok(e.svc.Game(e.ctx, id)).Game; g.Rematch != before {
			t.Fatalf("expiring an offer answered %v changed it to %v", before, g.Rematch)
		}
		if re.Game.ID != id && re.Game.Status == game.StatusPlaying {
			e.ok(e.svc.Resign(e.ctx, re.Game.ID, alice.UserID)) // free the group
		}
	}
	if _, _, err := e.svc.ExpireRematch(e.ctx, "nosuchgame"); !errors.Is(err, game.ErrNoGame) {
		t.Fatalf("expiring a game that is gone: %v, want ErrNoGame", err)
	}
}
