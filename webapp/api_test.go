package webapp_test

import (
	"compress/gzip"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/webapp"
	"github.com/reversibot/reversi/webapp/webapptest"
)

func TestNewNeedsTokenAndGames(t *testing.T) {
	if _, err := webapp.New(webapp.Options{Games: &fakeGames{}}); err == nil {
		t.Error("New without a token: no error")
	}
	if _, err := webapp.New(webapp.Options{Token: token}); err == nil {
		t.Error("New without Games: no error")
	}
}

func TestStateOfAPlayer(t *testing.T) {
	e := newEnv(t)
	g := e.aiGame(alice, 8)
	a := e.do("GET", "/api/state?g="+g.Game.ID, e.initData(alice), nil)
	if a.status != http.StatusOK {
		t.Fatalf("state: %d %s", a.status, a.body)
	}
	if cc := a.header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("Cache-Control %q, want no-store", cc)
	}
	st := a.state(t)
	want := "---------------------------OX------XO---------------------------"
	if st.Board != want || st.Size != 8 || st.Status != "playing" || st.Turn != "black" || st.You != "black" ||
		!st.Player || !st.CanMove || st.Ply != 0 || st.Version != g.Game.Version || st.Lang != "en" {
		t.Errorf("state %+v", st)
	}
	if !slices.Equal(st.Legal, []string{"d3", "c4", "f5", "e6"}) {
		t.Errorf("Legal = %v, want d3 c4 f5 e6", st.Legal)
	}
	if st.Score != (webapp.Score{Black: 2, White: 2}) || st.Last != "" || st.Result != nil {
		t.Errorf("score %+v, last %q, result %+v", st.Score, st.Last, st.Result)
	}
	if st.Players[0].Name != "Alice" || !st.Players[0].You || st.Players[0].Color != "black" ||
		st.Players[1].Name != "Bot (Beginner)" || !st.Players[1].AI || st.Players[1].Color != "white" {
		t.Errorf("players %+v", st.Players)
	}
}

func TestStateByStartParam(t *testing.T) {
	e := newEnv(t)
	g := e.peopleGame(game.FlowGroup, 10)
	init := webapptest.SignInitData(token, user(carol), g.Game.ID, e.clock.Now())
	a := e.do("GET", "/api/state", init, nil)
	if a.status != http.StatusOK {
		t.Fatalf("state by start_param: %d %s", a.status, a.body)
	}
	if st := a.state(t); st.Game != g.Game.ID || st.Size != 10 {
		t.Errorf("state %+v", st)
	}
	// ?g= wins over start_param.
	other := e.aiGame(carol, 8)
	if st := e.do("GET", "/api/state?g="+other.Game.ID, init, nil).state(t); st.Game != other.Game.ID {
		t.Errorf("?g= names %s, got %s", other.Game.ID, st.Game)
	}
}

func TestWhoMaySee(t *testing.T) {
	e := newEnv(t)
	e.games.langs[carol.UserID] = "ru"
	ai := e.aiGame(alice, 8)
	groupGame := e.peopleGame(game.FlowGroup, 8)
	cases := []struct {
		name   string
		game   string
		viewer game.Player
		status int
		canSee bool // and as a player
		player bool
	}{
		{"player of an AI game", ai.Game.ID, alice, 200, true, true},
		{"stranger to an AI game", ai.Game.ID, carol, 403, false, false},
		{"player to move in a group game", groupGame.Game.ID, alice, 200, true, true},
		{"player waiting in a group game", groupGame.Game.ID, bob, 200, true, true},
		{"watcher of a group game", groupGame.Game.ID, carol, 200, true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := e.do("GET", "/api/state?g="+c.game, e.initData(c.viewer), nil)
			if a.status != c.status {
				t.Fatalf("status %d %s, want %d", a.status, a.body, c.status)
			}
			if !c.canSee {
				f := a.failure(t)
				if f.Error.Code != webapp.CodePrivate || !strings.Contains(f.Error.Text, "закрытая") || f.State != nil {
					t.Errorf("refusal %+v, want private_game in Russian and no state", f)
				}
				return
			}
			st := a.state(t)
			if st.Player != c.player {
				t.Errorf("Player = %v, want %v", st.Player, c.player)
			}
			if mine := st.CanMove; mine != (c.viewer.UserID == alice.UserID) || (len(st.Legal) > 0) != mine {
				t.Errorf("%s: CanMove %v, Legal %v", c.viewer.Name, st.CanMove, st.Legal)
			}
			if !c.player && (st.You != "" || st.Players[0].You || st.Players[1].You) {
				t.Errorf("a watcher got a colour: %+v", st)
			}
		})
	}
}

func TestWhoMaySeePrivateFlows(t *testing.T) {
	e := newEnv(t)
	for _, flow := range []game.Flow{game.FlowInvite, game.FlowInline, game.FlowGroup} {
		g := e.peopleGame(flow, 8)
		a := e.do("GET", "/api/state?g="+g.Game.ID, e.initData(carol), nil)
		shared := flow == game.FlowGroup || flow == game.FlowInline
		if (a.status == http.StatusOK) != shared || !shared && a.status != http.StatusForbidden {
			t.Errorf("%v game, a stranger: %d %s", flow, a.status, a.body)
		}
		if b := e.do("GET", "/api/state?g="+g.Game.ID, e.initData(bob), nil); b.status != http.StatusOK {
			t.Errorf("%v game, its player: %d", flow, b.status)
		}
		// Finish it, so that the next flow can use the same chats.
		if _, err := e.svc.Resign(e.ctx, g.Game.ID, alice.UserID); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLanguage(t *testing.T) {
	e := newEnv(t)
	g := e.aiGame(bob, 8) // bob's Telegram speaks Russian
	if st := e.do("GET", "/api/state?g="+g.Game.ID, e.initData(bob), nil).state(t); st.Lang != "ru" || st.Players[1].Name != "Бот (Начинающий)" {
		t.Errorf("language_code ru: lang %q, bot %q", st.Lang, st.Players[1].Name)
	}
	e.games.langs[bob.UserID] = "en" // chosen in the bot: wins
	if st := e.do("GET", "/api/state?g="+g.Game.ID, e.initData(bob), nil).state(t); st.Lang != "en" {
		t.Errorf("chose en: lang %q", st.Lang)
	}
	noLang := game.Player{UserID: 404, Name: "Zed", ChatID: 404}
	h := e.aiGame(noLang, 8)
	if st := e.do("GET", "/api/state?g="+h.Game.ID, e.initData(noLang), nil).state(t); st.Lang != "en" {
		t.Errorf("no language: lang %q", st.Lang)
	}
}

func TestAuthRefusals(t *testing.T) {
	e := newEnv(t)
	g := e.aiGame(alice, 8)
	path := "/api/state?g=" + g.Game.ID
	good := e.initData(alice)
	old := webapptest.SignInitData(token, user(alice), "", e.clock.Now().Add(-25*time.Hour))
	cases := []struct {
		name, header string
		code         string
	}{
		{"no header", "", webapp.CodeAuthBad},
		{"not tma", "Bearer " + good, webapp.CodeAuthBad},
		{"forged", "tma " + webapptest.SignInitData(otherToken, user(alice), "", e.clock.Now()), webapp.CodeAuthBad},
		{"expired", "tma " + old, webapp.CodeAuthExpired},
		{"huge", "tma " + good + "&x=" + strings.Repeat("y", 20<<10), webapp.CodeAuthBad},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req, _ := http.NewRequest("GET", e.http.URL+path, nil)
			if c.header != "" {
				req.Header.Set("Authorization", c.header)
			}
			req.Header.Set("Accept-Language", "ru-RU,ru;q=0.9")
			res, err := e.http.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			a := answer{status: res.StatusCode, body: body}
			if a.status != http.StatusUnauthorized {
				t.Fatalf("status %d %s, want 401", a.status, a.body)
			}
			if f := a.failure(t); f.Error.Code != c.code || f.State != nil || !strings.Contains(f.Error.Text, "Откройте") {
				t.Errorf("refusal %+v, want %s in Russian", f, c.code)
			}
		})
	}
	if moves := e.games.movesAsked(); len(moves) != 0 {
		t.Errorf("refused requests reached Games: %v", moves)
	}
}

// TestLogsKeepSecrets checks that refused and accepted requests leave a log for the operator
// that quotes neither the token, nor initData, nor its hash.
func TestLogsKeepSecrets(t *testing.T) {
	e := newEnv(t)
	g := e.aiGame(alice, 8)
	good := e.initData(alice)
	forged := good[:len(good)-1] + "0"
	if strings.HasSuffix(good, "0") {
		forged = good[:len(good)-1] + "1"
	}
	e.do("GET", "/api/state?g="+g.Game.ID, forged, nil)
	e.do("GET", "/api/state?g="+g.Game.ID, good, nil)
	e.do("POST", "/api/move", good, map[string]any{"g": g.Game.ID, "sq": "a1", "pos": g.Pos.Tag()})
	e.do("POST", "/api/move", good, `{"g":`)
	logs := e.log.String()
	if !strings.Contains(logs, "the hash does not match") {
		t.Errorf("no log line for the forged initData:\n%s", logs)
	}
	hash := good[strings.LastIndex(good, "=")+1:]
	for _, secret := range []string{token, hash, forged[strings.LastIndex(forged, "=")+1:], "Alice", "query_id"} {
		if strings.Contains(logs, secret) {
			t.Errorf("the log holds %q:\n%s", secret, logs)
		}
	}
}

func TestMove(t *testing.T) {
	e := newEnv(t)
	g := e.aiGame(alice, 8)
	a := e.do("POST", "/api/move", e.initData(alice), map[string]any{"g": g.Game.ID, "sq": "d3", "pos": g.Pos.Tag()})
	if a.status != http.StatusOK {
		t.Fatalf("move: %d %s", a.status, a.body)
	}
	st := a.state(t)
	if st.Last != "d3" || st.LastBy != "black" || !slices.Equal(st.Flipped, []string{"d4"}) || st.Ply != 1 ||
		st.Score != (webapp.Score{Black: 4, White: 1}) || st.CanMove || !st.Thinking || st.Turn != "white" {
		t.Errorf("after d3: %+v", st)
	}
	if got := e.games.movesAsked(); !slices.Equal(got, []string{"101 d3"}) {
		t.Errorf("Games saw %v, want [101 d3]", got)
	}
	e.games.bg.Wait() // the AI's reply
	st = e.do("GET", "/api/state?g="+g.Game.ID, e.initData(alice), nil).state(t)
	if st.Ply != 2 || !st.CanMove || st.LastBy != "white" {
		t.Errorf("after the AI's reply: %+v", st)
	}
}

func TestMoveErrors(t *testing.T) {
	e := newEnv(t)
	g := e.peopleGame(game.FlowGroup, 8) // alice black to move, bob white
	id := g.Game.ID
	pos := g.Pos.Tag() // the start
	mv := func(sq string, pos any) map[string]any { return map[string]any{"g": id, "sq": sq, "pos": pos} }
	cases := []struct {
		name   string
		viewer game.Player
		body   any
		status int
		code   string
		state  bool // the answer carries the game's state
	}{
		{"not your turn", bob, mv("d3", pos), 409, "not_your_turn", true},
		{"stale", alice, mv("d3", pos^1), 409, "stale", true},
		{"no position named", alice, mv("d3", 0), 409, "stale", true},
		{"illegal", alice, mv("a1", pos), 422, "illegal", true},
		{"occupied", alice, mv("d4", pos), 422, "occupied", true},
		{"off board", alice, mv("i9", pos), 422, "off_board", true},
		{"a stranger", carol, mv("d3", pos), 403, "not_your_game", true},
		{"pass", alice, mv("pass", pos), 400, webapp.CodeBadMoveRequest, false},
		{"no square", alice, mv("", pos), 400, webapp.CodeBadMoveRequest, false},
		// A page loaded before moves named their position sends the ply alone.
		{"a page of before", alice, map[string]any{"g": id, "sq": "d3", "ply": 0}, 409, webapp.CodePageOld, true},
		{"no position", alice, map[string]any{"g": id, "sq": "d3"}, 409, webapp.CodePageOld, true},
		{"position and ply", alice, map[string]any{"g": id, "sq": "d3", "ply": 0, "pos": pos ^ 1}, 409, "stale", true},
		{"any ply", alice, map[string]any{"g": id, "sq": "d3", "ply": -1, "pos": pos}, 400, webapp.CodeBadMoveRequest, false},
		{"position not a number", alice, mv("d3", "0"), 400, webapp.CodeBadMoveRequest, false},
		{"negative position", alice, mv("d3", -1), 400, webapp.CodeBadMoveRequest, false},
		{"not JSON", alice, `{"g":`, 400, webapp.CodeBadMoveRequest, false},
		{"bad game id", alice, map[string]any{"g": "../x", "sq": "d3", "pos": pos}, 400, webapp.CodeMissingGame, false},
		{"no game", alice, map[string]any{"g": "nosuchgame", "sq": "d3", "pos": pos}, 404, "no_game", false},
		{"too large", alice, `{"g":"` + id + `","sq":"d3","pos":1,"x":"` + strings.Repeat("a", webapp.MaxBody) + `"}`, 413, webapp.CodeTooLarge, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := e.do("POST", "/api/move", e.initData(c.viewer), c.body)
			if a.status != c.status {
				t.Fatalf("status %d %s, want %d", a.status, a.body, c.status)
			}
			f := a.failure(t)
			if f.Error.Code != c.code || f.Error.Text == "" {
				t.Errorf("error %+v, want %s with a text", f.Error, c.code)
			}
			if (f.State != nil) != c.state {
				t.Errorf("state %+v, want one: %v", f.State, c.state)
			}
			if f.State != nil && (f.State.Ply != 0 || f.State.Version != g.Game.Version) {
				t.Errorf("the state is not the game as it is: %+v", f.State)
			}
		})
	}
	if st, err := e.svc.Game(e.ctx, id); err != nil || game.Ply(st.Game) != 0 {
		t.Errorf("the refused moves changed the game: %v %v", st, err)
	}
	// The texts are the viewer's: bob speaks Russian.
	f := e.do("POST", "/api/move", e.initData(bob), mv("d3", pos)).failure(t)
	if f.Error.Text != "Сейчас не ваш ход." {
		t.Errorf("bob's text %q", f.Error.Text)
	}
}

func TestMoveAfterTheEnd(t *testing.T) {
	e := newEnv(t)
	g := e.aiGame(alice, 8)
	if _, err := e.svc.Resign(e.ctx, g.Game.ID, alice.UserID); err != nil {
		t.Fatal(err)
	}
	a := e.do("POST", "/api/move", e.initData(alice), map[string]any{"g": g.Game.ID, "sq": "d3", "pos": g.Pos.Tag()})
	if f := a.failure(t); a.status != 409 || f.Error.Code != "game_over" || f.State == nil || f.State.Status != "finished" {
		t.Errorf("move in a finished game: %d %+v", a.status, f)
	}
}

// TestErrorMapping checks that every code of package game has a status and a text in both
// languages.
func TestErrorMapping(t *testing.T) {
	for _, code := range game.Codes() {
		status, en, ru := webapp.ErrorStatus(string(code)), webapp.ErrorText("en", string(code)), webapp.ErrorText("ru", string(code))
		if status < 400 || status > 599 || en == "" || ru == "" || en == ru {
			t.Errorf("%s: status %d, en %q, ru %q", code, status, en, ru)
		}
	}
	for _, code := range []string{webapp.CodeAuthBad, webapp.CodeAuthExpired, webapp.CodePrivate, webapp.CodeTooMany,
		webapp.CodeTooManyWatches, webapp.CodeServerBusy, webapp.CodeTooLarge, webapp.CodeMissingGame, webapp.CodeBadMoveRequest} {
		if en, ru := webapp.ErrorText("en", code), webapp.ErrorText("ru", code); en == "" || ru == "" || en == ru {
			t.Errorf("%s: en %q, ru %q", code, en, ru)
		}
	}
	want := map[game.Code]int{game.CodeNotYourTurn: 409, game.CodeStale: 409, game.CodeIllegal: 422,
		game.CodeGameOver: 409, game.CodeNoGame: 404, game.CodeNotYourGame: 403, game.CodeBusy: 503,
		game.CodeInternal: 500, game.CodeCorrupt: 500, game.CodeUnavailable: 503}
	for code, status := range want {
		if got := webapp.ErrorStatus(string(code)); got != status {
			t.Errorf("%s: status %d, want %d", code, got, status)
		}
	}
}

func TestBudget(t *testing.T) {
	e := newEnv(t)
	g := e.aiGame(alice, 8)
	e.games.setBudget(alice.UserID, 2)
	for i := range 2 {
		if a := e.do("GET", "/api/state?g="+g.Game.ID, e.initData(alice), nil); a.status != 200 {
			t.Fatalf("request %d within the budget: %d", i, a.status)
		}
	}
	for _, r := range []struct{ method, path string }{{"GET", "/api/state?g=" + g.Game.ID}, {"POST", "/api/move"},
		{"GET", "/api/watch?g=" + g.Game.ID}} {
		var body any
		if r.method == "POST" {
			body = map[string]any{"g": g.Game.ID, "sq": "d3", "pos": g.Pos.Tag()}
		}
		a := e.do(r.method, r.path, e.initData(alice), body)
		if f := a.failure(t); a.status != http.StatusTooManyRequests || f.Error.Code != webapp.CodeTooMany {
			t.Errorf("%s %s over the budget: %d %+v", r.method, r.path, a.status, f)
		}
	}
	if len(e.games.movesAsked()) != 0 {
		t.Error("a move over the budget reached Games")
	}
	// Another user has a budget of their own.
	if a := e.do("GET", "/api/state?g="+e.peopleGame(game.FlowGroup, 8).Game.ID, e.initData(carol), nil); a.status != 200 {
		t.Errorf("carol: %d", a.status)
	}
}

func TestBadRequests(t *testing.T) {
	e := newEnv(t)
	init := e.initData(alice)
	for _, path := range []string{"/api/state", "/api/state?g=", "/api/state?g=a%20b", "/api/state?g=" + strings.Repeat("a", 13),
		"/api/watch?g=abc&after=-1", "/api/watch?g=abc&after=x"} {
		a := e.do("GET", path, init, nil)
		if a.status != http.StatusBadRequest {
			t.Errorf("%s: %d %s, want 400", path, a.status, a.body)
		}
	}
	if a := e.do("GET", "/api/state?g=nosuchgame", init, nil); a.status != 404 || a.failure(t).Error.Code != "no_game" {
		t.Errorf("no such game: %d %s", a.status, a.body)
	}
	if a := e.do("DELETE", "/api/move", init, nil); a.status != http.StatusMethodNotAllowed {
		t.Errorf("DELETE: %d", a.status)
	}
	if a := e.do("GET", "/api/nothing", init, nil); a.status != http.StatusNotFound {
		t.Errorf("an unknown path: %d", a.status)
	}
}

func TestFinishedState(t *testing.T) {
	e := newEnv(t)
	g := e.peopleGame(game.FlowGroup, 8)
	e.move(g.Game.ID) // alice
	e.move(g.Game.ID) // bob
	if _, err := e.svc.Resign(e.ctx, g.Game.ID, bob.UserID); err != nil {
		t.Fatal(err)
	}
	st := e.do("GET", "/api/state?g="+g.Game.ID, e.initData(alice), nil).state(t)
	if st.Status != "finished" || st.Result == nil || st.Result.Winner != "black" || st.Result.Reason != "resign" ||
		st.Result.Mine != "win" || st.CanMove || st.Turn != "" || !strings.Contains(st.Result.Text, "Alice") {
		t.Errorf("alice sees %+v %+v", st, st.Result)
	}
	w := e.do("GET", "/api/state?g="+g.Game.ID, e.initData(carol), nil).state(t)
	if w.Result == nil || w.Result.Mine != "" || w.Result.Text != st.Result.Text {
		t.Errorf("a watcher sees %+v", w.Result)
	}
	b := e.do("GET", "/api/state?g="+g.Game.ID, e.initData(bob), nil).state(t)
	if b.Result.Mine != "loss" || b.Lang != "ru" || !strings.Contains(b.Result.Text, "Победа") {
		t.Errorf("bob sees %+v", b.Result)
	}
}

func TestPage(t *testing.T) {
	e := newEnv(t)
	for _, p := range []string{"/", "/app.js", "/app.css"} {
		req, _ := http.NewRequest("GET", e.http.URL+p, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		res, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(res.Body)
		if err != nil {
			t.Fatalf("%s: not gzipped: %v", p, err)
		}
		body, _ := io.ReadAll(zr)
		res.Body.Close()
		if res.StatusCode != 200 || len(body) < 100 || res.Header.Get("ETag") == "" {
			t.Errorf("%s: %d, %d bytes, ETag %q", p, res.StatusCode, len(body), res.Header.Get("ETag"))
		}
		if p == "/" && (!strings.Contains(res.Header.Get("Content-Security-Policy"), "connect-src 'self'") ||
			!strings.Contains(string(body), `src="app.js"`)) {
			t.Errorf("the page: CSP %q", res.Header.Get("Content-Security-Policy"))
		}
		req.Header.Set("If-None-Match", res.Header.Get("ETag"))
		res2, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		res2.Body.Close()
		if res2.StatusCode != http.StatusNotModified {
			t.Errorf("%s again with its ETag: %d, want 304", p, res2.StatusCode)
		}
	}
}

// TestPageWeight checks the page against its budget of 200 KB and reports its weight.
func TestPageWeight(t *testing.T) {
	raw, gz := webapp.PageWeight()
	t.Logf("page weight: %d bytes raw, %d bytes gzipped", raw, gz)
	if raw > 200<<10 || raw == 0 {
		t.Errorf("the page weighs %d bytes, over 200 KB", raw)
	}
}
