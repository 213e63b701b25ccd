package e2e_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reversibot/reversi/bot"
	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/webapp"
	"github.com/reversibot/reversi/webapp/webapptest"
)

// miniAppPage is the address of the Mini App page that the web_app button of board m opens,
// on base (where the test serves the page) instead of the bot's public address.
func miniAppPage(t *testing.T, m telegramtest.ChatMessage, base string) string {
	t.Helper()
	for _, row := range m.Buttons() {
		for _, b := range row {
			if b.WebApp == nil {
				continue
			}
			u, err := url.Parse(b.WebApp.URL)
			if err != nil || u.Path != "/app/" || u.Query().Get("g") == "" {
				t.Fatalf("web_app button %q", b.WebApp.URL)
			}
			return base + "/app/?" + u.RawQuery
		}
	}
	t.Fatalf("board has no web_app button:%s", dump(m))
	return ""
}

// TestMiniAppAcrossProcesses plays a game between people in a real browser and in the chat,
// with two bot processes on one Redis. Bot 0 serves the Mini App; every chat update goes to
// bot 1. Black plays in the Mini App: the page shows the move at once, both chat boards
// follow. White answers by a tap in the chat, handled by the other process: the page shows
// it without a reload (bot 0 sees it only by reading the store). A stranger's page and a
// forged or expired initData are refused and show no board.
func TestMiniAppAcrossProcesses(t *testing.T) {
	browser := webapptest.Shared(t)
	var app atomic.Pointer[webapp.Server]
	c := newClusterWith(t, redisURL(t), func(int64) []int { return []int{1} }, func(i int, o *bot.Options) {
		healthyRedis(i, o)
		o.PublicURL = "https://reversi.example"
		if i == 0 {
			o.OnGameChange = func(g *game.Game) {
				if s := app.Load(); s != nil {
					s.Changed(g)
				}
			}
		}
	})
	srv, err := webapp.New(webapp.Options{Token: c.srv.Token(), Games: c.bots[0].MiniApp(),
		Poll: 100 * time.Millisecond, Logger: c.logs.logger("app0")})
	if err != nil {
		t.Fatal(err)
	}
	app.Store(srv)
	mux := http.NewServeMux()
	mux.Handle("/app/", http.StripPrefix("/app", srv.Handler()))
	pages := httptest.NewServer(mux)
	t.Cleanup(func() { srv.Close(); pages.Close() })

	alice, bob := c.user("Alice"), c.user("Bob")
	g := c.startPeople(5, alice, bob)
	page := miniAppPage(t, g.boards[engine.Black], pages.URL)
	if !strings.Contains(page, "g="+g.id) {
		t.Fatalf("the page %s is not of game %s", page, g.id)
	}
	signed := func(u *telegramtest.Person, name string, at time.Time) string {
		return webapptest.SignInitData(c.srv.Token(), webapp.User{ID: u.ID(), FirstName: name, LanguageCode: "en"}, "", at)
	}

	p := browser.Open(t, webapptest.PageURL(page, webapptest.Launch{InitData: signed(alice, "Alice", time.Now())}),
		webapptest.PageOptions{})
	b := p.Until(t, "Alice's board", func(b webapptest.Board) bool { return b.State == "ready" && b.Ply == 0 })
	if len(b.Legal) == 0 || b.Size != 8 || !strings.Contains(b.StatusClass, "mine") {
		t.Fatalf("Alice's page at the start: %+v", b)
	}
	sq := g.ref.legal()[0]
	if err := p.Tap(sq.String()); err != nil {
		t.Fatal(err)
	}
	p.Until(t, "Alice's move in the page", func(b webapptest.Board) bool {
		return b.Ply == 1 && b.At(sq.String()) == 'X' && b.Last == sq.String()
	})
	c.played(g, sq) // both chat boards follow

	reply := g.ref.legal()[0]
	white, _ := c.srv.Message(g.boards[engine.White].ChatID, g.boards[engine.White].ID)
	if a := c.tap(bob, white, reply); a.ShowAlert {
		t.Fatalf("Bob's tap refused: %q", a.Text)
	}
	c.played(g, reply)
	b = p.Until(t, "Bob's reply in Alice's page, without a reload", func(b webapptest.Board) bool {
		return b.Ply == 2 && b.At(reply.String()) == 'O' && b.Last == reply.String() && len(b.Legal) > 0
	})
	if !strings.Contains(b.StatusClass, "mine") {
		t.Errorf("after Bob's reply the page does not say it is Alice's move: %+v", b)
	}

	carol := c.user("Carol")
	refused := func(who, initData string) {
		t.Helper()
		q := browser.Open(t, webapptest.PageURL(page, webapptest.Launch{InitData: initData}), webapptest.PageOptions{})
		r := q.Until(t, who+" refused", func(b webapptest.Board) bool { return b.State == "refused" })
		if r.BoardVisible || r.Refusal == "" || r.Discs != "" {
			t.Errorf("%s: the page shows %+v", who, r)
		}
	}
	refused("a stranger to a private game", signed(carol, "Carol", time.Now()))
	refused("initData signed with another token",
		webapptest.SignInitData("1:forged", webapp.User{ID: alice.ID(), FirstName: "Alice"}, "", time.Now()))
	refused("expired initData", signed(alice, "Alice", time.Now().Add(-2*webapp.DefaultMaxAge)))

	// Nothing the refused pages did moved the game.
	if b, err := p.Board(); err != nil || b.Ply != 2 {
		t.Errorf("Alice's page now: %+v, %v; want ply 2", b, err)
	}
}
