package game_test

import (
	"testing"

	"github.com/reversibot/reversi/game"
)

// TestSeekKeepsTheSearchMessage: a queued Seek says until when the search waits and keeps its
// message; a second Seek of the same user replaces it; the one who pairs gets the waiting
// opponent with their message; a search past its deadline ends once through ExpireSearches.
func TestSeekKeepsTheSearchMessage(t *testing.T) {
	e := newEnv(t)
	f, err := e.svc.Seek(e.ctx, alice, 8, 41)
	if err != nil || !f.Snapshot.Queued || !f.Until.Equal(e.clock.Now().Add(game.DefaultQueueTTL)) {
		t.Fatalf("Seek = %+v, %v; want queued until %v", f, err, e.clock.Now().Add(game.DefaultQueueTTL))
	}
	if f, err = e.svc.Seek(e.ctx, alice, 10, 41); err != nil || !f.Snapshot.Queued {
		t.Fatalf("second Seek = %+v, %v", f, err)
	}
	se, err := e.svc.Searching(e.ctx, alice.UserID)
	if err != nil || se == nil || se.Size != 10 || se.Waiter.MsgID != 41 {
		t.Fatalf("Searching = %+v, %v; want 10×10 in message 41", se, err)
	}
	f, err = e.svc.Seek(e.ctx, bob, 10, 52)
	if err != nil || f.Snapshot.Game == nil || f.Opponent.UserID != alice.UserID || f.Opponent.MsgID != 41 {
		t.Fatalf("Bob's Seek = %+v, %v; want paired with Alice's search in message 41", f, err)
	}
	if se, _ := e.svc.Searching(e.ctx, alice.UserID); se != nil {
		t.Fatalf("Alice still searches after the pairing: %+v", se)
	}
	if _, err := e.svc.Seek(e.ctx, carol, 12, 63); err != nil {
		t.Fatal(err)
	}
	if got, _ := e.svc.ExpireSearches(e.ctx, 5); len(got) != 0 {
		t.Fatalf("a search expired early: %+v", got)
	}
	e.clock.Add(game.DefaultQueueTTL)
	got, err := e.svc.ExpireSearches(e.ctx, 5)
	if err != nil || len(got) != 1 || got[0].Waiter.UserID != carol.UserID || got[0].Waiter.MsgID != 63 || got[0].Size != 12 {
		t.Fatalf("ExpireSearches = %+v, %v; want Carol's 12×12 search in message 63", got, err)
	}
	if again, _ := e.svc.ExpireSearches(e.ctx, 5); len(again) != 0 {
		t.Fatalf("a search expired twice: %+v", again)
	}
}
