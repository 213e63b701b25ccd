package webapp_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/game/gametest"
	"github.com/reversibot/reversi/webapp"
	"github.com/reversibot/reversi/webapp/webapptest"
)

// The undo-then-replay attack on the Mini App: a page (an old tab, or a request made by hand)
// still shows a board of a line that was taken back since, while the game came back to the
// same ply by another line. A move sent from it names a current ply and may name a square
// legal on the new position too; it must not be played there.

// undoneLine plays in alice's AI game id her first legal move and the AI's reply, runs
// between (if not nil), then, behind the pages' back (as another process would, or a chat
// tap: the Server is not told), takes both back and plays other first moves until the game
// stands at ply 2 on a position that shares a legal move with the first line's. It returns the
// first line's step, the game now and a square legal on both positions.
func (e *env) undoneLine(id string, between func(old *game.Snapshot)) (old, now *game.Snapshot, sq engine.Square) {
	e.t.Helper()
	must := func(r *game.Snapshot, err error) *game.Snapshot {
		e.t.Helper()
		if err != nil {
			e.t.Fatal(err)
		}
		return r
	}
	r := must(e.svc.Game(e.ctx, id))
	first := r.Pos.LegalMoves()
	must(e.svc.Move(e.ctx, id, alice.UserID, first[0], 0))
	old = must(e.svc.AIReply(e.ctx, id))
	if between != nil {
		between(old)
	}
	for _, m := range first[1:] {
		must(e.svc.Undo(e.ctx, id, alice.UserID, game.AnyPly))
		must(e.svc.Move(e.ctx, id, alice.UserID, m, 0))
		now = must(e.svc.AIReply(e.ctx, id))
		if game.Ply(now.Game) != 2 || now.Pos == old.Pos {
			e.t.Fatalf("the other line stands at ply %d on %v, want ply 2 on another position than %v", game.Ply(now.Game), now.Pos, old.Pos)
		}
		for _, s := range old.Pos.LegalMoves() {
			if now.Pos.IsLegal(s) {
				return old, now, s
			}
		}
	}
	e.t.Fatalf("no other line shares a legal move with %v", old.Pos)
	return nil, nil, 0
}

// pageMove is the body of the move to sq that a page showing the state a (an answer of
// api/state) sends: the fields of the state that name the board, as they came.
func pageMove(t *testing.T, a answer, sq engine.Square) map[string]any {
	t.Helper()
	var st map[string]any
	if err := json.Unmarshal(a.body, &st); err != nil || a.status != http.StatusOK {
		t.Fatalf("state %d %s: %v", a.status, a.body, err)
	}
	return map[string]any{"g": st["game"], "sq": sq.String(), "ply": st["ply"], "pos": st["pos"]}
}

// TestMoveOnAnUndoneLine: a move sent from the state of a line taken back since, with its
// (current) ply and a square legal now, is refused as stale with the game as it is, and
// changes nothing; sent from the state as it is, it plays.
func TestMoveOnAnUndoneLine(t *testing.T) {
	e := newEnv(t)
	id := e.aiGame(alice, 8).Game.ID
	var shown answer // the state a page of the first line drew
	_, now, sq := e.undoneLine(id, func(*game.Snapshot) {
		shown = e.do("GET", "/api/state?g="+id, e.initData(alice), nil)
	})
	a := e.do("POST", "/api/move", e.initData(alice), pageMove(t, shown, sq))
	f := a.failure(t)
	if a.status != http.StatusConflict || f.Error.Code != string(game.CodeStale) || f.State == nil ||
		f.State.Board != boardOf(now.Pos) || f.State.Version != now.Game.Version {
		t.Errorf("a move of the undone line: %d %s, want 409 stale with the game as it is", a.status, a.body)
	}
	if r, err := e.svc.Game(e.ctx, id); err != nil || r.Game.Version != now.Game.Version {
		t.Fatalf("the refused move changed the game: %+v, %v", r, err)
	}

	shown = e.do("GET", "/api/state?g="+id, e.initData(alice), nil)
	if a := e.do("POST", "/api/move", e.initData(alice), pageMove(t, shown, sq)); a.status != http.StatusOK || a.state(t).Ply != 3 {
		t.Errorf("the move on the game as it is: %d %s", a.status, a.body)
	}
}

// TestBrowserUndoneLineTapIsRefused: the page shows a line that was taken back behind its
// back (its watch did not see it: no poll, no Changed); a tap there on a square legal on the
// new position too is refused, plays nothing, and the page shows the game as it is, with the
// reason.
func TestBrowserUndoneLineTapIsRefused(t *testing.T) {
	e := newEnv(t, func(o *webapp.Options) { o.Poll = time.Hour }) // only Changed wakes the page
	id := e.aiGame(alice, 8).Game.ID
	var p *webapptest.Page
	_, now, sq := e.undoneLine(id, func(old *game.Snapshot) {
		p = e.open(t, alice, id, webapptest.PageOptions{}, nil)
		p.Until(t, "the first line shown", func(b webapptest.Board) bool {
			return b.State == "ready" && b.Version == old.Game.Version && b.Discs == boardOf(old.Pos)
		})
		// The page's watch has read the game (api/state read it first): from now on only
		// Changed, which nobody calls, would show the page a change.
		gametest.Until(t, "the page's watch read the game", func() bool { return e.games.gameReads() >= 2 })
	})
	if b, _ := p.Board(); !slices.Contains(b.Legal, sq.String()) || b.Discs == boardOf(now.Pos) {
		t.Fatalf("the page shows %v, want the first line with %v legal", b, sq)
	}
	if err := p.Tap(sq.String()); err != nil {
		t.Fatal(err)
	}
	b := p.Until(t, "the refusal shown", func(b webapptest.Board) bool { return b.Toast != "" && b.Version == now.Game.Version })
	if !strings.Contains(b.Toast, "The board changed") || b.Discs != boardOf(now.Pos) || b.Ply != 2 {
		t.Errorf("after a tap on the undone line the page shows %v, want the game as it is (%s)", b, boardOf(now.Pos))
	}
	if r, err := e.svc.Game(e.ctx, id); err != nil || r.Game.Version != now.Game.Version {
		t.Fatalf("the tap changed the game: %+v, %v", r, err)
	}
	// A tap on the board as it is now plays.
	if err := p.Tap(sq.String()); err != nil {
		t.Fatal(err)
	}
	p.Until(t, "the move and the reply", func(b webapptest.Board) bool { return b.Ply == 4 && b.Status == "Your move" })
	noErrors(t, p)
}
