package webapp_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reversibot/reversi/bot/i18n"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/webapp"
	"github.com/reversibot/reversi/webapp/webapptest"
)

var screenshots = flag.Bool("screenshots", false, "write the screenshots of TestScreenshots to ../docs")

// open opens the page of game id for viewer p in the shared browser, as Telegram opens it
// (initData in the fragment, telegram-web-app.js unreachable unless opt says otherwise).
func (e *env) open(t *testing.T, p game.Player, id string, opt webapptest.PageOptions, theme map[string]string) *webapptest.Page {
	t.Helper()
	b := webapptest.Shared(t)
	url := webapptest.PageURL(e.http.URL+"/?g="+id, webapptest.Launch{InitData: e.initData(p), Theme: theme})
	return b.Open(t, url, opt)
}

// noErrors fails t when the page had script errors.
func noErrors(t *testing.T, p *webapptest.Page) {
	t.Helper()
	if errs := p.Errors(); len(errs) > 0 {
		t.Errorf("script errors: %q", errs)
	}
}

func ready(b webapptest.Board) bool { return b.State == "ready" }

func TestBrowserShowsTheBoard(t *testing.T) {
	e := newEnv(t)
	g := e.aiGame(alice, 8)
	p := e.open(t, alice, g.Game.ID, webapptest.PageOptions{}, nil)
	b := p.Until(t, "the board drawn", ready)
	if b.Size != 8 || b.Discs != "---------------------------OX------XO---------------------------" ||
		!slices.Equal(b.Legal, []string{"d3", "c4", "f5", "e6"}) || b.Status != "Your move" || !strings.Contains(b.StatusClass, "mine") {
		t.Errorf("the page shows %v", b)
	}
	if b.Black.Name != "Alice" || b.Black.Tag != "You" || !b.Black.Turn || b.White.Name != "Bot" || b.White.Tag != "Beginner" ||
		b.Black.Count != 2 || b.Black.Label != "2 discs" {
		t.Errorf("cards %+v %+v", b.Black, b.White)
	}
	if b.Title != "Reversi" || b.Lang != "en" || b.Info != [3]string{"8×8 · Move 1", "", ""} {
		t.Errorf("the page is titled %q in %q, its footer says %q", b.Title, b.Lang, b.Info)
	}
	if !b.BoardVisible || b.BoardPx > b.ViewportPx || b.CellPx < 38 {
		t.Errorf("the board is %.1f px wide in a %.0f px viewport, cells %.1f px", b.BoardPx, b.ViewportPx, b.CellPx)
	}
	if blocked := p.Blocked(); len(blocked) != 1 || !strings.Contains(blocked[0], "telegram.org") {
		t.Errorf("requests off the machine: %q, want telegram.org's script only", blocked)
	}
	noErrors(t, p)
}

func TestBrowserRefusals(t *testing.T) {
	e := newEnv(t)
	g := e.aiGame(alice, 8)
	b := webapptest.Shared(t)
	base := e.http.URL + "/?g=" + g.Game.ID
	cases := []struct {
		name, initData, want string
	}{
		{"forged", webapptest.SignInitData(otherToken, user(alice), "", e.clock.Now()), "could not confirm who you are"},
		{"expired", webapptest.SignInitData(token, user(alice), "", e.clock.Now().Add(-48*time.Hour)), "opened too long ago"},
		// The refusal of initData that fails its check is in the language the page guessed.
		{"expired, in Russian", webapptest.SignInitData(token, user(bob), "", e.clock.Now().Add(-48*time.Hour)),
			i18n.T(i18n.RU, i18n.KeyAppAuthExpired)},
		{"none", "", "Open this board from the chat"},
		{"a stranger to a private game", e.initData(carol), "only its two players"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := b.Open(t, webapptest.PageURL(base, webapptest.Launch{InitData: c.initData}), webapptest.PageOptions{})
			got := p.Until(t, "a refusal", func(b webapptest.Board) bool { return b.State == "refused" })
			if !strings.Contains(got.Refusal, c.want) || got.BoardVisible || got.Discs != "" {
				t.Errorf("the page shows %v, want the refusal %q and no board", got, c.want)
			}
			noErrors(t, p)
		})
	}
}

func TestBrowserTapPlays(t *testing.T) {
	e := newEnv(t)
	g := e.aiGame(alice, 8)
	p := e.open(t, alice, g.Game.ID, webapptest.PageOptions{}, nil)
	p.Until(t, "the board drawn", ready)
	if err := p.Tap("f5"); err != nil {
		t.Fatal(err)
	}
	// The AI (FirstMover) answers with its lowest legal move, and the page shows it without a
	// reload: alice's f5 flipped e5, the AI then played d6 (flipping e5 back... or d5).
	b := p.Until(t, "the AI's reply shown", func(b webapptest.Board) bool { return b.Ply == 2 && b.Status == "Your move" })
	if got := e.games.movesAsked(); !slices.Equal(got, []string{"101 f5"}) {
		t.Errorf("Games saw %v, want alice's f5", got)
	}
	r, err := e.svc.Game(e.ctx, g.Game.ID)
	if err != nil {
		t.Fatal(err)
	}
	if want := boardOf(r.Pos); b.Discs != want || b.Last != engine.Square(r.Game.Moves[1]).String() {
		t.Errorf("the page shows %v, the game is %s", b, want)
	}
	noErrors(t, p)
}

// boardOf writes pos as State.Board does.
func boardOf(pos engine.Position) string {
	var sb strings.Builder
	for r := 0; r < pos.Size(); r++ {
		for c := 0; c < pos.Size(); c++ {
			switch col, ok := pos.At(engine.SquareAt(c, r)); {
			case !ok:
				sb.WriteByte('-')
			case col == engine.Black:
				sb.WriteByte('X')
			default:
				sb.WriteByte('O')
			}
		}
	}
	return sb.String()
}

// playOn plays n plies of game id on the Service, each a legal move of the side to move
// drawn by rng (deterministic), and returns the result.
func (e *env) playOn(id string, n int, seed uint64) *game.Snapshot {
	e.t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	r, err := e.svc.Game(e.ctx, id)
	if err != nil {
		e.t.Fatal(err)
	}
	for range n {
		_, p, ok := r.Turn()
		if !ok {
			break
		}
		ms := r.Pos.LegalMoves()
		if r, err = e.svc.Move(e.ctx, id, p.UserID, ms[rng.IntN(len(ms))], game.Ply(r.Game)); err != nil {
			e.t.Fatal(err)
		}
	}
	return r
}

// TestScreenshots shows mid-game positions at a phone's size; with -screenshots it writes them
// to docs/miniapp-8.png and docs/miniapp-16.png.
func TestScreenshots(t *testing.T) {
	for _, c := range []struct {
		size, plies int
		theme       map[string]string
		lang, file  string
	}{
		{8, 23, nil, "en", "miniapp-8.png"},
		{16, 101, webapptest.DarkTheme, "ru", "miniapp-16.png"},
	} {
		t.Run(c.file, func(t *testing.T) {
			e := newEnv(t)
			g := e.peopleGame(game.FlowInvite, c.size)
			r := e.playOn(g.Game.ID, c.plies, uint64(c.size))
			_, mover, _ := r.Turn()
			e.games.langs[mover.UserID] = c.lang
			p := e.open(t, mover, g.Game.ID, webapptest.PageOptions{}, c.theme)
			p.Until(t, "the board drawn", ready)
			if err := p.Settle(); err != nil {
				t.Fatal(err)
			}
			png, err := p.Screenshot()
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			if *screenshots {
				dir = filepath.Join("..", "docs")
			}
			path := filepath.Join(dir, c.file)
			if err := os.WriteFile(path, png, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("wrote %s (%d bytes)", path, len(png))
			noErrors(t, p)
		})
	}
}

func TestBrowserOpponentMoveAppears(t *testing.T) {
	e := newEnv(t, func(o *webapp.Options) { o.Poll = time.Hour }) // only Changed wakes the page
	g := e.peopleGame(game.FlowGroup, 8)
	p := e.open(t, bob, g.Game.ID, webapptest.PageOptions{}, nil)
	b := p.Until(t, "the board drawn", ready)
	if b.Status != i18n.T(i18n.RU, i18n.KeyAppWaitingFor, "Alice") || len(b.Legal) != 0 || b.Lang != "ru" {
		t.Errorf("bob waits, but the page shows %v", b)
	}
	r := e.move(g.Game.ID) // alice moves in the chat
	e.srv.Changed(r.Game)
	b = p.Until(t, "alice's move shown", func(b webapptest.Board) bool { return b.Version == r.Game.Version })
	if b.Discs != boardOf(r.Pos) || b.Status != i18n.T(i18n.RU, i18n.KeyAppYourMove) || len(b.Legal) == 0 || b.Last != "d3" {
		t.Errorf("after alice's d3 the page shows %v", b)
	}
	noErrors(t, p)
}

func TestBrowserPollSeesOtherProcesses(t *testing.T) {
	e := newEnv(t, func(o *webapp.Options) { o.Poll = 20 * time.Millisecond })
	g := e.peopleGame(game.FlowInline, 8)
	p := e.open(t, carol, g.Game.ID, webapptest.PageOptions{}, nil) // a watcher
	p.Until(t, "the board drawn", ready)
	r := e.move(g.Game.ID) // another process: no Changed here
	b := p.Until(t, "the move shown", func(b webapptest.Board) bool { return b.Version == r.Game.Version })
	if len(b.Legal) != 0 || b.Note != i18n.T(i18n.EN, i18n.KeyAppWatching) || !strings.Contains(b.Status, "Bob") {
		t.Errorf("a watcher sees %v", b)
	}
	noErrors(t, p)
}

func TestBrowser16(t *testing.T) {
	e := newEnv(t)
	g := e.aiGame(alice, 16)
	p := e.open(t, alice, g.Game.ID, webapptest.PageOptions{}, nil)
	b := p.Until(t, "the board drawn", ready)
	if b.Size != 16 || len(b.Discs) != 256 || b.Status != "Your move" || len(b.Legal) != 4 {
		t.Fatalf("the page shows %v", b)
	}
	if b.BoardPx > b.ViewportPx-8 || b.CellPx < 20 {
		t.Errorf("a 16×16 board %.1f px wide in %.0f px, cells %.1f px: does not fit a phone", b.BoardPx, b.ViewportPx, b.CellPx)
	}
	t.Logf("16×16 at %.0f px: board %.1f px, cells %.1f px", b.ViewportPx, b.BoardPx, b.CellPx)
	sq := b.Legal[len(b.Legal)-1]
	if err := p.Tap(sq); err != nil {
		t.Fatal(err)
	}
	p.Until(t, "the move and the reply", func(b webapptest.Board) bool { return b.Ply == 2 && b.Status == "Your move" })
	if got := e.games.movesAsked(); !slices.Equal(got, []string{"101 " + sq}) {
		t.Errorf("Games saw %v", got)
	}
	noErrors(t, p)
}

// TestBrowserRefusedTapRollsBack taps a square of a board that went stale behind the page's
// back: the server refuses it, and the page shows the game as it is, with the reason.
func TestBrowserRefusedTapRollsBack(t *testing.T) {
	e := newEnv(t, func(o *webapp.Options) { o.Poll = time.Hour })
	g := e.aiGame(alice, 8)
	p := e.open(t, alice, g.Game.ID, webapptest.PageOptions{}, nil)
	p.Until(t, "the board drawn", ready)
	r, err := e.svc.Move(e.ctx, g.Game.ID, alice.UserID, engine.SquareAt(3, 2), 0) // d3, typed in the chat
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Tap("f5"); err != nil {
		t.Fatal(err)
	}
	b := p.Until(t, "the refusal shown", func(b webapptest.Board) bool { return b.Toast != "" && b.Version >= r.Game.Version })
	if !strings.Contains(b.Toast, "The board changed") || b.At("f5") != '-' || b.At("d3") != 'X' {
		t.Errorf("after a stale tap the page shows %v", b)
	}
	noErrors(t, p)
}

// TestBrowserTelegram opens the page as a client that loaded telegram-web-app.js: initData
// comes from Telegram.WebApp (the fragment has none), and the page calls ready, expand and
// the haptics.
func TestBrowserTelegram(t *testing.T) {
	e := newEnv(t)
	g := e.aiGame(alice, 8)
	b := webapptest.Shared(t)
	stub := &webapptest.TelegramStub{InitData: e.initData(alice), Theme: webapptest.DarkTheme}
	p := b.Open(t, e.http.URL+"/?g="+g.Game.ID, webapptest.PageOptions{Telegram: stub})
	p.Until(t, "the board drawn", ready)
	if err := p.Tap("c4"); err != nil {
		t.Fatal(err)
	}
	p.Until(t, "the reply", func(b webapptest.Board) bool { return b.Ply == 2 })
	var calls []string
	if err := p.Eval(`window.__tgCalls`, &calls); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"ready", "expand", "haptic:light"} {
		if !slices.Contains(calls, want) {
			t.Errorf("Telegram.WebApp calls %v: no %s", calls, want)
		}
	}
	var bg string
	if err := p.Eval(`getComputedStyle(document.body).backgroundColor`, &bg); err != nil || bg != "rgb(23, 33, 43)" {
		t.Errorf("background %q (%v), want the theme's bg_color #17212b", bg, err)
	}
	if len(p.Blocked()) != 0 {
		t.Errorf("blocked %v", p.Blocked())
	}
	noErrors(t, p)
}

// TestBrowserMeasure reports what the page measured on this machine (loopback): first paint,
// the board drawn, and tap to the server's state shown. It asserts nothing about time.
func TestBrowserMeasure(t *testing.T) {
	e := newEnv(t)
	g := e.aiGame(alice, 8)
	p := e.open(t, alice, g.Game.ID, webapptest.PageOptions{}, nil)
	b := p.Until(t, "the board drawn", ready)
	for i := range 5 {
		if len(b.Legal) == 0 {
			break
		}
		if err := p.Tap(b.Legal[0]); err != nil {
			t.Fatal(err)
		}
		// Wait without reading the DOM, which would slow the page down while it measures.
		if err := p.WaitJS(fmt.Sprintf(`performance.getEntriesByName('reversi:tap-shown', 'measure').length > %d`, i)); err != nil {
			t.Fatal(err)
		}
		ply := b.Ply
		b = p.Until(t, "the move and the reply", func(b webapptest.Board) bool { return b.Ply >= ply+2 && b.Status == "Your move" })
	}
	m, err := p.Metrics()
	if err != nil {
		t.Fatal(err)
	}
	raw, gz := webapp.PageWeight()
	taps := slices.Sorted(slices.Values(m.TapShown))
	var median, worst time.Duration
	if len(taps) > 0 {
		median, worst = taps[len(taps)/2], taps[len(taps)-1]
	}
	t.Logf("first contentful paint %v, board drawn %v, tap→shown median %v max %v of %d %v, transferred %d B (page weight %d B raw, %d B gzip)",
		m.FirstContentfulPaint.Round(time.Millisecond), m.BoardDrawn.Round(time.Millisecond), median.Round(time.Millisecond),
		worst.Round(time.Millisecond), len(taps), m.TapShown, m.Transferred, raw, gz)
	if m.BoardDrawn == 0 || len(m.TapShown) == 0 {
		t.Errorf("the page measured nothing: %+v", m)
	}
	noErrors(t, p)
}

// TestBrowserRetriesABusyStart opens the page while the user is over their budget: it says
// so, tries again, and shows the board.
func TestBrowserRetriesABusyStart(t *testing.T) {
	e := newEnv(t)
	g := e.aiGame(alice, 8)
	e.games.mu.Lock()
	e.games.deny[alice.UserID] = 1
	e.games.mu.Unlock()
	p := e.open(t, alice, g.Game.ID, webapptest.PageOptions{}, nil)
	b := p.Until(t, "the refusal", func(b webapptest.Board) bool { return b.State == "refused" })
	if !strings.Contains(b.Refusal, "Too many requests") {
		t.Errorf("over the budget, the page shows %v", b)
	}
	b = p.Until(t, "the board after a retry", ready)
	if b.Refusal != "" || !b.BoardVisible || b.Status != "Your move" {
		t.Errorf("after the retry the page shows %v", b)
	}
	noErrors(t, p)
}
