package webapp_test

import (
	"net/http"
	"testing"

	"github.com/reversibot/reversi/bot/i18n"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/game/gametest"
	"github.com/reversibot/reversi/webapp"
)

// A Redis failover may lose the last writes of a game after a page showed them: the page is
// then ahead of the stored game. Its move is answered that the last move was lost, with the
// game as stored, and its watch answers the stored game at once instead of waiting for the
// game to pass a version it lost.

// aheadOfStore plays alice's move and the AI's reply in her AI game id and then puts the game
// back as it was before them, as a failover that lost both writes leaves it; it returns what
// a page that drew the lost state shows and the game as stored.
func (e *env) aheadOfStore(id string) (shown answer, stored *game.Game) {
	e.t.Helper()
	before, err := e.svc.Game(e.ctx, id)
	if err != nil {
		e.t.Fatal(err)
	}
	e.move(id)
	if _, err := e.svc.AIReply(e.ctx, id); err != nil {
		e.t.Fatal(err)
	}
	shown = e.do("GET", "/api/state?g="+id, e.initData(alice), nil)
	e.store.PutGame(id, before.Game)
	return shown, before.Game
}

// TestMoveFromAPageAheadIsLost: a move from a page ahead of the store is answered 409
// CodeMoveLost with the stored game, in the player's language, and changes nothing; a move
// from a page without the version (sent before pages named it) is the usual stale refusal.
func TestMoveFromAPageAheadIsLost(t *testing.T) {
	e := newEnv(t)
	id := e.aiGame(alice, 8).Game.ID
	shown, stored := e.aheadOfStore(id)
	st := shown.state(t)
	sq := st.Legal[0]
	body := map[string]any{"g": id, "sq": sq, "pos": st.Pos, "ver": st.Version}
	a := e.do("POST", "/api/move", e.initData(alice), body)
	f := a.failure(t)
	if a.status != http.StatusConflict || f.Error.Code != webapp.CodeMoveLost || f.State == nil ||
		f.State.Version != stored.Version || f.Error.Text != i18n.T("en", i18n.KeyGameMoveLost) {
		t.Errorf("a move from a page ahead of the store: %d %s, want 409 %s with the stored game", a.status, a.body, webapp.CodeMoveLost)
	}
	delete(body, "ver")
	a = e.do("POST", "/api/move", e.initData(alice), body)
	if f := a.failure(t); a.status != http.StatusConflict || f.Error.Code != string(game.CodeStale) {
		t.Errorf("a move from a page ahead of the store, naming no version: %d %s, want 409 stale", a.status, a.body)
	}
	if r, err := e.svc.Game(e.ctx, id); err != nil || r.Game.Version != stored.Version {
		t.Fatalf("the refused moves changed the game: %+v, %v", r, err)
	}
}

// TestWatchOfAPageAhead: a watch already waiting after a version the store no longer has
// answers the stored game once the poller reads it; a new watch after that version answers it
// at once; and the watch of a page back on the stored version waits for the next move.
func TestWatchOfAPageAhead(t *testing.T) {
	e, ft := timed(t)
	id := e.aiGame(alice, 8).Game.ID
	// A watch that saw the lost state waits after it.
	g, err := e.svc.Game(e.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	e.move(id)
	r, err := e.svc.AIReply(e.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	waiting := e.watch(e.ctx, e.initData(alice), id, r.Game.Version)
	e.waitWatches(id, 1, 1)
	gametest.Until(t, "the poller's ticker", func() bool { return ft.tickersMade() == 1 })
	e.store.PutGame(id, g.Game) // the failover

	if n := ft.tick(); n != 1 { // the poller reads the stored game
		t.Fatalf("%d pollers ticked, want 1", n)
	}
	if a := gametest.Receive(t, waiting, "the waiting watch never answered"); a.status != http.StatusOK || a.state(t).Version != g.Game.Version {
		t.Errorf("the waiting watch answered %d %s, want the stored version %d", a.status, a.body, g.Game.Version)
	}
	gametest.Until(t, "the poller stops", func() bool { _, p := e.srv.Watching(id); return p == 0 })

	// A new watch after the lost version: at once.
	a := e.do("GET", "/api/watch?g="+id+"&after="+itoa(r.Game.Version), e.initData(alice), nil)
	if a.status != http.StatusOK || a.state(t).Version != g.Game.Version {
		t.Fatalf("a watch after the lost version %d: %d %s, want the stored version %d at once", r.Game.Version, a.status, a.body, g.Game.Version)
	}
	back := e.watch(e.ctx, e.initData(alice), id, g.Game.Version)
	gametest.Until(t, "the watch of the page back", func() bool { w, _ := e.srv.Watching(id); return w == 1 })
	select {
	case a := <-back:
		t.Fatalf("the watch of the page back on the stored version answered %d %s before any move", a.status, a.body)
	default:
	}
	next := e.move(id)
	e.srv.Changed(next.Game)
	if a := gametest.Receive(t, back, "the watch never saw the next move"); a.status != http.StatusOK || a.state(t).Version != next.Game.Version {
		t.Errorf("the watch answered %d %s, want version %d", a.status, a.body, next.Game.Version)
	}
}
