package webapp_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/webapp"
)

// FuzzMoveRequest sends api/move any body with a valid initData: the answer is always one
// of the API's statuses with a JSON body, and never a panic.
func FuzzMoveRequest(f *testing.F) {
	e := newEnv(f)
	g := e.peopleGame(game.FlowGroup, 8)
	init := e.initData(alice)
	h := e.srv.Handler()
	f.Add(`{"g":"` + g.Game.ID + `","sq":"d3","ply":0}`)
	f.Add(`{"g":"` + g.Game.ID + `","sq":"d3","pos":` + strconv.FormatUint(g.Pos.Tag(), 10) + `}`)
	f.Add(`{"g":"` + g.Game.ID + `","sq":"d3","pos":-1}`)
	f.Add(`{"g":"` + g.Game.ID + `","sq":"d3","pos":18446744073709551616}`)
	f.Add(`{"g":"` + g.Game.ID + `","sq":"p16","ply":99999999999999999999}`)
	f.Add(`{"sq":"a1","ply":-0}`)
	f.Add(`[1,2]`)
	f.Add(`{"g":null,"sq":{},"ply":"x"}`)
	f.Add("\x00\xff")
	allowed := map[int]bool{200: true, 400: true, 403: true, 404: true, 409: true, 413: true, 422: true}
	f.Fuzz(func(t *testing.T, body string) {
		req := httptest.NewRequest("POST", "/api/move", strings.NewReader(body))
		req.Header.Set("Authorization", "tma "+init)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if !allowed[rec.Code] || !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("body %q: %d %s", body, rec.Code, rec.Body)
		}
	})
}

// FuzzAuthorization sends api/state any Authorization header: a forged one never passes.
func FuzzAuthorization(f *testing.F) {
	e := newEnv(f)
	g := e.aiGame(alice, 8)
	h := e.srv.Handler()
	f.Add("tma " + e.initData(alice))
	f.Add("TMA " + e.initData(bob))
	f.Add("tma query_id=1&user=%7B%22id%22%3A101%7D&auth_date=1&hash=00")
	f.Add("Basic YWxhZGRpbjpvcGVuc2VzYW1l")
	f.Fuzz(func(t *testing.T, auth string) {
		req := httptest.NewRequest("GET", "/api/state?g="+g.Game.ID, nil)
		req.Header.Set("Authorization", auth)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		switch rec.Code {
		case http.StatusOK, http.StatusForbidden:
			// Only initData the bot signed passes.
			scheme, raw, _ := strings.Cut(auth, " ")
			if !strings.EqualFold(scheme, "tma") {
				t.Fatalf("%q passed", auth)
			}
			if _, err := webapp.ValidateInitData(strings.TrimSpace(raw), token, e.clock.Now(), 0); err != nil {
				t.Fatalf("%q passed, but does not validate: %v", auth, err)
			}
		case http.StatusUnauthorized:
		default:
			t.Fatalf("%q: %d %s", auth, rec.Code, rec.Body)
		}
	})
}

func benchmarkState(b *testing.B, size int) {
	e := newEnv(b)
	g := e.peopleGame(game.FlowGroup, size)
	e.playOn(g.Game.ID, size*size/2, 1)
	h := e.srv.Handler()
	init := e.initData(alice)
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest("GET", "/api/state?g="+g.Game.ID, nil)
		req.Header.Set("Authorization", "tma "+init)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatal(rec.Code, rec.Body)
		}
	}
}

// BenchmarkState is one api/state request through the handler: initData validated, the game
// read from the in-memory store and replayed, the viewer's State encoded.
func BenchmarkState8(b *testing.B)  { benchmarkState(b, 8) }
func BenchmarkState16(b *testing.B) { benchmarkState(b, 16) }
