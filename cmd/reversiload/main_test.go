package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"
)

// keepGOMAXPROCS puts GOMAXPROCS back when the test ends: bot.New raises it for the real AI.
func keepGOMAXPROCS(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	t.Cleanup(func() { runtime.GOMAXPROCS(procs) })
}

// runLoad runs Load with the config of the command's flags args and logs its report. It
// returns the config, the result, the report and the run's log; bad flags or a failed run
// fail the test.
func runLoad(t *testing.T, args ...string) (Config, Result, string, *bytes.Buffer) {
	t.Helper()
	var logs bytes.Buffer
	cfg, err := parseFlags(args, &logs)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Load(context.Background(), cfg, &logs)
	if err != nil {
		t.Fatalf("Load: %v\nlog:\n%s", err, logs.String())
	}
	var out bytes.Buffer
	res.print(&out)
	t.Logf("\n%s", out.String())
	return cfg, res, out.String(), &logs
}

// TestLoadSmoke runs a tiny load (three games between people and two against the AI, on an
// in-process bot over REDIS_URL or an embedded Redis) to a budget of moves and checks that
// both kinds of game moved, every tap was measured and nothing failed.
func TestLoadSmoke(t *testing.T) {
	keepGOMAXPROCS(t)
	cfg, res, out, logs := runLoad(t, "-chats", "8", "-ai", "0.25", "-duration", "2m", "-moves", "120", "-ai-workers", "1")
	if res.PeopleMoves == 0 || res.AIMoves == 0 {
		t.Errorf("moves: %d people, %d AI; want both above 0", res.PeopleMoves, res.AIMoves)
	}
	if got := res.PeopleMoves + res.AIMoves; got < cfg.Moves {
		t.Errorf("%d moves, want the budget of %d (the run ended early)", got, cfg.Moves)
	}
	if res.ErrorCount() != 0 {
		t.Errorf("errors: %v\nlog:\n%s", res.Errors, logs.String())
	}
	for _, kind := range []string{"people", "ai"} {
		if a, b := res.Ack[kind], res.Board[kind]; a.N == 0 || b.N == 0 || a.P50 > a.Max || b.P99 > b.Max {
			t.Errorf("%s latencies: answer %v, board %v", kind, a, b)
		}
	}
	if !strings.Contains(out, "moves/s") || !strings.Contains(out, "tap→answer") {
		t.Errorf("report lacks its figures:\n%s", out)
	}
}

// TestRunExitCodes checks the command's exit codes for bad flags and a good tiny run.
func TestRunExitCodes(t *testing.T) {
	keepGOMAXPROCS(t)
	var out, errs bytes.Buffer
	if code := run(context.Background(), []string{"-chats", "2", "-duration", "10s", "-moves", "10"}, &out, &errs); code != 0 {
		t.Errorf("run = %d, want 0\nstdout:\n%s\nstderr:\n%s", code, out.String(), errs.String())
	}
	if code := run(context.Background(), []string{"-chats", "0"}, &out, &errs); code != 2 {
		t.Errorf("run -chats 0 = %d, want 2", code)
	}
}

func TestParseFlagsRejects(t *testing.T) {
	for _, args := range [][]string{
		{"-chats", "0"},
		{"-chats", "0", "-groups", "0"},
		{"-groups", "-1"},
		{"-groups", "20000"},
		{"-chats", "100000"},
		{"-ai", "1.5"},
		{"-duration", "1h"},
		{"-duration", "0s"},
		{"-addr", "0.0.0.0:8080"},
		{"-addr", "example.com:80"},
		{"-redis", "redis://10.0.0.1:6379"},
		{"-targets", "http://10.0.0.2:8080/hook"},
		{"-targets", "https://127.0.0.1:8080/hook"},
		{"-external", "-targets", "http://127.0.0.1:8080/hook"},
		{"-bots", "0"},
		{"-rate", "-1"},
		{"stray"},
	} {
		var errs bytes.Buffer
		if _, err := parseFlags(args, &errs); err == nil {
			t.Errorf("parseFlags(%q) accepted", args)
		}
	}
	cfg, err := parseFlags([]string{"-redis", "redis://127.0.0.1:6379/2", "-addr", "[::1]:0", "-targets", "http://localhost:8081/a,http://127.0.0.1:8082/b"}, &bytes.Buffer{})
	if err != nil || len(cfg.Targets) != 2 {
		t.Errorf("parseFlags of loopback addresses = %+v, %v", cfg, err)
	}
}

func TestSummarize(t *testing.T) {
	var d []time.Duration
	for i := 1000; i >= 1; i-- { // 1ms … 1000ms, unsorted
		d = append(d, time.Duration(i)*time.Millisecond)
	}
	s := summarize(d)
	want := Summary{N: 1000, P50: 500 * time.Millisecond, P90: 900 * time.Millisecond, P99: 990 * time.Millisecond,
		P999: 999 * time.Millisecond, Max: 1000 * time.Millisecond}
	if s != want {
		t.Errorf("summarize = %+v, want %+v", s, want)
	}
	if s := summarize(nil); s != (Summary{}) {
		t.Errorf("summarize(nil) = %+v", s)
	}
	if s := summarize([]time.Duration{7}); s.P50 != 7 || s.P999 != 7 || s.Max != 7 {
		t.Errorf("summarize(one) = %+v", s)
	}
}

// TestObserver checks that the observer counts every call and the failed ones by method,
// status and description, and answers setWebhook itself when told to.
func TestObserver(t *testing.T) {
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/editMessageText") {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, `{"ok":false,"error_code":400,"description":"Bad Request: message is not modified: same"}`)
			return
		}
		_, _ = io.WriteString(w, `{"ok":true,"result":true}`)
	})
	o := newObserver(inner)
	o.swallowWebhook = true
	call := func(method string) int {
		rec := httptest.NewRecorder()
		o.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/bot1:x/"+method, strings.NewReader("{}")))
		return rec.Code
	}
	n0, hooked := o.webhookCalls()
	for _, m := range []string{"sendMessage", "editMessageText", "editMessageText", "setWebhook"} {
		call(m)
	}
	failed, calls := o.failures()
	if calls != 4 || len(failed) != 1 || failed["editmessagetext 400 Bad Request: message is not modified: same"] != 2 {
		t.Errorf("failures = %v, %d calls", failed, calls)
	}
	select {
	case <-hooked:
	default:
		t.Error("a swallowed setWebhook did not close the channel")
	}
	if n, _ := o.webhookCalls(); n != n0+1 {
		t.Errorf("webhook calls %d, want %d", n, n0+1)
	}
}

// TestLoadFloodSmoke runs a tiny load with a flooder beside it: the players, at a human's
// pace, are all answered; the flooder sends far more taps than its budget lets through.
func TestLoadFloodSmoke(t *testing.T) {
	keepGOMAXPROCS(t)
	cfg, res, out, logs := runLoad(t, "-chats", "4", "-duration", "2m", "-moves", "24", "-flood")
	if cfg.Think != defaultFloodThink {
		t.Errorf("-flood without -think: think %v, want %v", cfg.Think, defaultFloodThink)
	}
	if res.ErrorCount() != 0 {
		t.Errorf("errors: %v\nlog:\n%s", res.Errors, logs.String())
	}
	f := res.Flood
	if f == nil || !strings.Contains(out, "flooder:") {
		t.Fatalf("no flooder figures:\n%s", out)
	}
	// The budget: a burst of 20 (two of it for /ai and its first move), then 5 a second.
	if limit := int64(20 + 5*(f.Duration/time.Second+1)); f.Handled > limit || f.Sent <= f.Handled+f.Toasts {
		t.Errorf("flooder sent %d, handled %d, %d slow down; want at most %d handled and the rest refused", f.Sent, f.Handled, f.Toasts, limit)
	}
}

// TestLoadGroups runs games in a group chat only, to a budget of more moves than a game has:
// both players move on the one board, a game finishes and the next begins.
func TestLoadGroups(t *testing.T) {
	keepGOMAXPROCS(t)
	_, res, out, logs := runLoad(t, "-chats", "0", "-groups", "1", "-duration", "2m", "-moves", "90")
	if res.GroupMoves < 90 || res.PeopleMoves+res.AIMoves != 0 || res.Games == 0 {
		t.Errorf("moves: %d group, %d people, %d AI, %d games; want 90 group moves, a game finished and nothing else",
			res.GroupMoves, res.PeopleMoves, res.AIMoves, res.Games)
	}
	if res.ErrorCount() != 0 {
		t.Errorf("errors: %v\nlog:\n%s", res.Errors, logs.String())
	}
	if !strings.Contains(out, "group  tap→board:") {
		t.Errorf("report lacks the group latencies:\n%s", out)
	}
}

// TestRedundantEdits checks that the edits Telegram refused as "message is not modified" are
// reported per move, and that more than MaxRedundantPerMove of them fail the run.
func TestRedundantEdits(t *testing.T) {
	const notModified = "api editmessagetext 400 Bad Request: message is not modified: specified"
	r := Result{Elapsed: time.Second, PeopleMoves: 100, Errors: map[string]int{notModified: 5}}
	if r.Redundant() != 5 || r.RedundantPerMove() != 0.05 || r.Failed() {
		t.Errorf("5 redundant edits in 100 moves: %d, %v per move, failed %v; want 5, 0.05, not failed",
			r.Redundant(), r.RedundantPerMove(), r.Failed())
	}
	var out bytes.Buffer
	r.print(&out)
	if !strings.Contains(out.String(), "redundant edits (message is not modified): 5, 0.0500 per move\n") {
		t.Errorf("report lacks the redundant edits:\n%s", out.String())
	}
	r.Errors[notModified] = 6
	if !r.Failed() {
		t.Error("6 redundant edits in 100 moves did not fail the run")
	}
	out.Reset()
	r.print(&out)
	if !strings.Contains(out.String(), "0.0600 per move — over 0.05: the run fails") {
		t.Errorf("report does not say the redundant edits fail the run:\n%s", out.String())
	}
}
