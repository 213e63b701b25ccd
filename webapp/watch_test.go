package webapp_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/game/gametest"
	"github.com/reversibot/reversi/webapp"
)

// watch starts a watch of game id after version by the holder of initData; its answer comes on
// the channel.
func (e *env) watch(ctx context.Context, initData, id string, after int64) <-chan answer {
	ch := make(chan answer, 1)
	go func() {
		ch <- e.doCtx(ctx, "GET", fmt.Sprintf("/api/watch?g=%s&after=%d", id, after), initData, nil)
	}()
	return ch
}

// timed is newEnv with fake timers: pollers tick and watches time out when the test says.
func timed(t *testing.T, tune ...func(*webapp.Options)) (*env, *fakeTimers) {
	e := newEnv(t, tune...)
	ft := &fakeTimers{}
	ft.install(e.srv)
	return e, ft
}

// waitWatches waits until game id has n watches, each past its first read of the game
// (reads counts the reads expected by then).
func (e *env) waitWatches(id string, n, reads int) {
	e.t.Helper()
	gametest.Until(e.t, fmt.Sprintf("%d watches of %s after %d reads", n, id, reads), func() bool {
		w, _ := e.srv.Watching(id)
		return w == n && e.games.gameReads() >= reads
	})
}

func TestWatchAnswersAtOnce(t *testing.T) {
	e, _ := timed(t)
	g := e.aiGame(alice, 8)
	for _, q := range []string{"", "&after=0"} {
		a := e.do("GET", "/api/watch?g="+g.Game.ID+q, e.initData(alice), nil)
		if a.status != http.StatusOK || a.state(t).Version != g.Game.Version {
			t.Errorf("watch%s of version %d: %d %s", q, g.Game.Version, a.status, a.body)
		}
	}
	gametest.Until(t, "no watch open", func() bool { return e.srv.OpenWatches() == 0 })
}

func TestWatchWokenByChanged(t *testing.T) {
	e, ft := timed(t)
	g := e.peopleGame(game.FlowGroup, 8)
	got := e.watch(e.ctx, e.initData(bob), g.Game.ID, g.Game.Version)
	e.waitWatches(g.Game.ID, 1, 1)
	r := e.move(g.Game.ID) // alice's move, made on the Service as the bot does
	e.srv.Changed(r.Game)
	a := gametest.Receive(t, got, "the watch never answered")
	st := a.state(t)
	if a.status != http.StatusOK || st.Version != r.Game.Version || !st.CanMove || st.Turn != "white" {
		t.Errorf("the watch answered %d %+v, want version %d with bob to move", a.status, st, r.Game.Version)
	}
	if reads := e.games.gameReads(); reads != 1 || ft.tickersMade() > 1 {
		t.Errorf("%d reads of the game, want 1: no poll was needed", reads)
	}
}

func TestWatchWokenByPolling(t *testing.T) {
	e, ft := timed(t)
	g := e.peopleGame(game.FlowGroup, 8)
	got := e.watch(e.ctx, e.initData(bob), g.Game.ID, g.Game.Version)
	e.waitWatches(g.Game.ID, 1, 1)
	gametest.Until(t, "the poller's ticker", func() bool { return ft.tickersMade() == 1 })
	r := e.move(g.Game.ID) // another process: nobody calls Changed
	select {
	case a := <-got:
		t.Fatalf("the watch answered before the poll: %d %s", a.status, a.body)
	default:
	}
	if n := ft.tick(); n != 1 {
		t.Fatalf("%d pollers ticked, want 1", n)
	}
	a := gametest.Receive(t, got, "the watch never answered")
	if st := a.state(t); a.status != http.StatusOK || st.Version != r.Game.Version {
		t.Errorf("the watch answered %d %+v, want version %d", a.status, st, r.Game.Version)
	}
	if reads := e.games.gameReads(); reads != 2 {
		t.Errorf("%d reads of the game, want 2 (the watch's, the poll's)", reads)
	}
	gametest.Until(t, "the poller stops", func() bool { _, p := e.srv.Watching(g.Game.ID); return p == 0 })
}

func TestOnePollerPerGame(t *testing.T) {
	e, ft := timed(t)
	g := e.peopleGame(game.FlowGroup, 8)
	var got []<-chan answer
	for _, p := range []game.Player{alice, bob, carol} {
		got = append(got, e.watch(e.ctx, e.initData(p), g.Game.ID, g.Game.Version))
	}
	e.waitWatches(g.Game.ID, 3, 3)
	gametest.Until(t, "the poller's ticker", func() bool { return ft.tickersMade() >= 1 })
	if n := ft.tickersMade(); n != 1 {
		t.Fatalf("%d pollers for one game, want 1", n)
	}
	r := e.move(g.Game.ID)
	ft.tick()
	for i, ch := range got {
		a := gametest.Receive(t, ch, "a watch never answered")
		st := a.state(t)
		if st.Version != r.Game.Version || st.CanMove != (i == 1) {
			t.Errorf("watcher %d: %+v", i, st)
		}
	}
	if reads := e.games.gameReads(); reads != 4 {
		t.Errorf("%d reads of the game, want 4 (3 watches, 1 poll for all)", reads)
	}
}

func TestWatchHeld(t *testing.T) {
	e, ft := timed(t)
	g := e.aiGame(alice, 8)
	got := e.watch(e.ctx, e.initData(alice), g.Game.ID, g.Game.Version)
	e.waitWatches(g.Game.ID, 1, 1)
	gametest.Until(t, "the hold timer", func() bool { ft.mu.Lock(); defer ft.mu.Unlock(); return len(ft.holds) == 1 })
	ft.expire()
	if a := gametest.Receive(t, got, "the watch never answered"); a.status != http.StatusNoContent || len(a.body) != 0 {
		t.Errorf("after the hold: %d %s, want 204", a.status, a.body)
	}
	gametest.Until(t, "no watch open", func() bool { return e.srv.OpenWatches() == 0 })
}

func TestWatchSeesTheAIReply(t *testing.T) {
	e, _ := timed(t)
	g := e.aiGame(alice, 8)
	mv := e.do("POST", "/api/move", e.initData(alice), map[string]any{"g": g.Game.ID, "sq": "f5", "pos": g.Pos.Tag()}).state(t)
	a := gametest.Receive(t, e.watch(e.ctx, e.initData(alice), g.Game.ID, mv.Version), "no AI reply")
	if st := a.state(t); st.Ply != 2 || !st.CanMove || st.LastBy != "white" {
		t.Errorf("after the AI's reply: %+v", st)
	}
}

func TestWatchPrivate(t *testing.T) {
	e, _ := timed(t)
	g := e.aiGame(alice, 8)
	a := e.do("GET", fmt.Sprintf("/api/watch?g=%s&after=%d", g.Game.ID, g.Game.Version), e.initData(carol), nil)
	if a.status != http.StatusForbidden || a.failure(t).Error.Code != webapp.CodePrivate {
		t.Errorf("a stranger's watch: %d %s", a.status, a.body)
	}
	if a := e.do("GET", "/api/watch?g=nosuchgame&after=1", e.initData(carol), nil); a.status != http.StatusNotFound {
		t.Errorf("a watch of no game: %d %s", a.status, a.body)
	}
	gametest.Until(t, "no watch open", func() bool { return e.srv.OpenWatches() == 0 })
}

func TestWatchCaps(t *testing.T) {
	e, _ := timed(t, func(o *webapp.Options) { o.MaxWatchesPerUser = 2; o.MaxWatches = 3 })
	g := e.peopleGame(game.FlowGroup, 8)
	id, v := g.Game.ID, g.Game.Version
	ctx, cancel := context.WithCancel(e.ctx)
	defer cancel()
	var held []<-chan answer
	for range 2 {
		held = append(held, e.watch(ctx, e.initData(carol), id, v))
	}
	e.waitWatches(id, 2, 2)
	a := e.do("GET", fmt.Sprintf("/api/watch?g=%s&after=%d", id, v), e.initData(carol), nil)
	if a.status != http.StatusTooManyRequests || a.failure(t).Error.Code != webapp.CodeTooManyWatches {
		t.Errorf("carol's third watch: %d %s, want 429 too_many_watches", a.status, a.body)
	}
	held = append(held, e.watch(ctx, e.initData(bob), id, v))
	e.waitWatches(id, 3, 3)
	a = e.do("GET", fmt.Sprintf("/api/watch?g=%s&after=%d", id, v), e.initData(alice), nil)
	if a.status != http.StatusServiceUnavailable || a.failure(t).Error.Code != webapp.CodeServerBusy {
		t.Errorf("the fourth watch in all: %d %s, want 503 server_busy", a.status, a.body)
	}
	cancel() // the pages go away: their watches end
	for _, ch := range held {
		gametest.Receive(t, ch, "a cancelled watch never returned")
	}
	gametest.Until(t, "the watches freed", func() bool { return e.srv.OpenWatches() == 0 })
	if a := e.do("GET", fmt.Sprintf("/api/watch?g=%s&after=0", id), e.initData(carol), nil); a.status != http.StatusOK {
		t.Errorf("a watch after the others ended: %d %s", a.status, a.body)
	}
}

func TestCloseEndsWatches(t *testing.T) {
	e, _ := timed(t)
	g := e.peopleGame(game.FlowGroup, 8)
	got := e.watch(e.ctx, e.initData(carol), g.Game.ID, g.Game.Version)
	e.waitWatches(g.Game.ID, 1, 1)
	e.srv.Close()
	if a := gametest.Receive(t, got, "the watch never ended"); a.status != http.StatusNoContent {
		t.Errorf("a watch when the server closes: %d %s, want 204", a.status, a.body)
	}
	a := e.do("GET", fmt.Sprintf("/api/watch?g=%s&after=%d", g.Game.ID, g.Game.Version), e.initData(carol), nil)
	if a.status != http.StatusServiceUnavailable {
		t.Errorf("a watch after Close: %d %s, want 503", a.status, a.body)
	}
	if _, p := e.srv.Watching(g.Game.ID); p != 0 {
		t.Errorf("%d pollers after Close", p)
	}
	// The rest still works.
	if a := e.do("GET", "/api/state?g="+g.Game.ID, e.initData(carol), nil); a.status != http.StatusOK {
		t.Errorf("state after Close: %d", a.status)
	}
}

// TestChangedIgnoresOld checks that an older version given to Changed wakes nobody.
func TestChangedIgnoresOld(t *testing.T) {
	e, _ := timed(t)
	g := e.peopleGame(game.FlowGroup, 8)
	old := g.Game.Clone()
	r := e.move(g.Game.ID)
	got := e.watch(e.ctx, e.initData(carol), g.Game.ID, r.Game.Version)
	e.waitWatches(g.Game.ID, 1, 1)
	e.srv.Changed(old)
	e.srv.Changed(nil)
	e.srv.Changed(r.Game)
	select {
	case a := <-got:
		t.Fatalf("an old version woke the watch: %d %s", a.status, a.body)
	default:
	}
	r2 := e.move(g.Game.ID)
	e.srv.Changed(r2.Game)
	if st := gametest.Receive(t, got, "no answer").state(t); st.Version != r2.Game.Version {
		t.Errorf("version %d, want %d", st.Version, r2.Game.Version)
	}
}
