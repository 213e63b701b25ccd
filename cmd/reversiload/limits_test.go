package main

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reversibot/reversi/bot/botapi"
)

// TestPaceEnv checks the PACE_* settings of spawned processes: Telegram's figures at
// -speedup 1, every span (and so every window) as many times as short above that, in the form
// reversibot reads.
func TestPaceEnv(t *testing.T) {
	for _, c := range []struct {
		speedup int
		want    map[string]string
	}{
		{1, map[string]string{"PACE_PRIVATE": "1/s:2", "PACE_GROUP": "20/m:3", "PACE_INLINE": "20/m:3", "PACE_GLOBAL": "25/s:20"}},
		{100, map[string]string{"PACE_PRIVATE": "1/10ms:2", "PACE_GROUP": "20/600ms:3", "PACE_INLINE": "20/600ms:3", "PACE_GLOBAL": "25/10ms:20"}},
		{60, map[string]string{"PACE_PRIVATE": "1/16.666666ms:2", "PACE_GROUP": "20/s:3", "PACE_INLINE": "20/s:3", "PACE_GLOBAL": "25/16.666666ms:20"}},
	} {
		got := paceEnv(paceLimits(Config{Speedup: c.speedup}))
		if envLine(got) != envLine(c.want) {
			t.Errorf("-speedup %d: %s, want %s", c.speedup, envLine(got), envLine(c.want))
		}
	}
	for _, c := range []struct {
		l    botapi.Limit
		want string
	}{
		{botapi.Limit{Rate: -1}, "off"},
		{botapi.Limit{Rate: 3, Per: time.Hour, Burst: 1}, "3/h:1"},
		{botapi.Limit{Rate: 1, Per: 7 * time.Millisecond, Burst: 4}, "1/7ms:4"},
	} {
		if got := paceSetting(c.l); got != c.want {
			t.Errorf("paceSetting(%+v) = %q, want %q", c.l, got, c.want)
		}
	}
}

func TestParseFlagsLimits(t *testing.T) {
	for _, args := range [][]string{
		{"-speedup", "10"},
		{"-limits", "-speedup", "0"},
		{"-limits", "-speedup", "1001"},
	} {
		if _, err := parseFlags(args, &bytes.Buffer{}); err == nil {
			t.Errorf("parseFlags(%q) accepted", args)
		}
	}
	cfg, err := parseFlags([]string{"-limits"}, &bytes.Buffer{})
	if err != nil || !cfg.Limits || cfg.Speedup != 1 {
		t.Errorf("parseFlags(-limits) = %+v, %v; want limits at Telegram's speed", cfg, err)
	}
}

// TestFailedOn429 checks that a single 429 fails a run and that the report names its chat.
func TestFailedOn429(t *testing.T) {
	r := Result{Elapsed: time.Second, Limits: &LimitStats{Speedup: 1, PaceSpeedup: 1}}
	if r.Failed() {
		t.Error("a run without 429s or errors failed")
	}
	r.Limits.TooMany = TooMany{Total: 1, Chats: map[int64]int{-7: 1}}
	if !r.Failed() {
		t.Error("a run with a 429 did not fail")
	}
	var out bytes.Buffer
	r.print(&out)
	if !strings.Contains(out.String(), "429s: 1 chat -7: 1;") {
		t.Errorf("report lacks the 429 and its chat:\n%s", out.String())
	}
}

// TestLoadLimits runs a load under the fake's flood limits, sped up fifty times, on an
// in-process bot pacing itself as fast, until games of every kind (by invitation, against the
// AI, in a group) have made their moves: the fake gave no 429 and the report says so. The run
// ends on the moves, not after a span of time (-duration only bounds a run that fails), and
// the pacing counts every call from before it leaves until its answer came, so neither a slow
// machine nor a late call can fail it (before, two calls that left a private chat's budget
// together could reach the fake closer than its second allowed).
func TestLoadLimits(t *testing.T) {
	keepGOMAXPROCS(t)
	const each = 12
	_, res, out, logs := runLoad(t, "-limits", "-speedup", "50", "-chats", "4", "-ai", "0.5", "-groups", "1",
		"-each", fmt.Sprint(each), "-duration", "2m", "-ai-workers", "1")
	if res.PeopleMoves < each || res.AIMoves < each || res.GroupMoves < each {
		t.Errorf("moves: %d people, %d AI, %d group; want each at least %d", res.PeopleMoves, res.AIMoves, res.GroupMoves, each)
	}
	if res.Limits == nil || res.Limits.TooMany.Total != 0 || res.Failed() {
		t.Errorf("limits %+v, errors %v; want no 429 and no error\nlog:\n%s", res.Limits, res.Errors, logs.String())
	}
	if !strings.Contains(out, "429s: 0\n") {
		t.Errorf("report lacks the 429 count:\n%s", out)
	}
	// Every applied move has its board lag.
	moves := map[string]int64{"people": res.PeopleMoves, "ai": res.AIMoves, "group": res.GroupMoves}
	for kind, n := range moves {
		lag, board := res.Limits.Lag[kind], res.Board[kind]
		if int64(lag.N) != n || lag.P50 <= 0 || lag.P99 > lag.Max {
			t.Errorf("%s: %d moves, board lag %v, tap→board %v", kind, n, lag, board)
		}
		if !strings.Contains(out, fmt.Sprintf("%-6s board lag:  n=%d ", kind, n)) {
			t.Errorf("report lacks the %s board lag:\n%s", kind, out)
		}
	}
}

// TestEditTarget checks that the observer reads the chat and message of an edit from a
// multipart or form body, leaves the body for the server behind it, and tells the clock only
// of edits the server accepted.
func TestEditTarget(t *testing.T) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	_ = mw.WriteField("chat_id", "-1001000000001")
	_ = mw.WriteField("message_id", "42")
	_ = mw.WriteField("text", "board")
	mw.Close()
	var seen []string // what the server behind read
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		seen = append(seen, string(b))
		if strings.Contains(string(b), "refuse") {
			w.WriteHeader(http.StatusTooManyRequests)
		}
	})
	o := newObserver(inner)
	type edit struct {
		chat int64
		id   int
	}
	var edits []edit
	o.edited = func(chat int64, id int, _ time.Time) { edits = append(edits, edit{chat, id}) }
	post := func(method, ctype, b string) {
		req := httptest.NewRequest(http.MethodPost, "/bot1:x/"+method, strings.NewReader(b))
		req.Header.Set("Content-Type", ctype)
		o.ServeHTTP(httptest.NewRecorder(), req)
	}
	post("editMessageText", mw.FormDataContentType(), body.String())
	post("editMessageReplyMarkup", "application/x-www-form-urlencoded", "chat_id=7&message_id=3")
	post("editMessageText", "application/x-www-form-urlencoded", "chat_id=7&message_id=4&text=refuse")
	post("sendMessage", "application/x-www-form-urlencoded", "chat_id=7&text=hi")
	post("editMessageText", "application/x-www-form-urlencoded", "inline_message_id=abc&text=x")
	if want := []edit{{-1001000000001, 42}, {7, 3}}; !slices.Equal(edits, want) {
		t.Errorf("edits told %v, want %v", edits, want)
	}
	if len(seen) != 5 || seen[0] != body.String() || seen[1] != "chat_id=7&message_id=3" {
		t.Errorf("the server behind read %q", seen)
	}
}
