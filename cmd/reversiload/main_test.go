package main

import (
	"bytes"
	"context"
	"mime/multipart"
	"net/url"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestLoadSmoke runs a tiny load (three games between people and two against the AI, on an
// in-process bot over REDIS_URL or an embedded Redis) to a budget of moves and checks that
// both kinds of game moved, every tap was measured and nothing failed.
func TestLoadSmoke(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	t.Cleanup(func() { runtime.GOMAXPROCS(procs) }) // bot.New raises it for the real AI
	var logs bytes.Buffer
	cfg, err := parseFlags([]string{"-chats", "8", "-ai", "0.25", "-duration", "20s", "-moves", "120", "-ai-workers", "1"}, &logs)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Load(context.Background(), cfg, &logs)
	if err != nil {
		t.Fatalf("Load: %v\n%s", err, logs.String())
	}
	var out bytes.Buffer
	res.print(&out)
	t.Logf("\n%s", out.String())
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
	if !strings.Contains(out.String(), "moves/s") || !strings.Contains(out.String(), "tap→answer") {
		t.Errorf("report lacks its figures:\n%s", out.String())
	}
}

// TestRunExitCodes checks the command's exit codes for bad flags and a good tiny run.
func TestRunExitCodes(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	t.Cleanup(func() { runtime.GOMAXPROCS(procs) })
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

// multipartBody encodes fields as go-telegram/bot does.
func multipartBody(t testing.TB, fields map[string]string) (string, []byte) {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for k, v := range fields {
		if err := w.WriteField(k, v); err != nil {
			t.Fatal(err)
		}
	}
	fw, _ := w.CreateFormFile("photo", "board.png")
	_, _ = fw.Write([]byte("\x89PNG chat_id"))
	_ = w.Close()
	return w.FormDataContentType(), b.Bytes()
}

func TestFormFields(t *testing.T) {
	names := []string{"chat_id", "callback_query_id"}
	ct, body := multipartBody(t, map[string]string{"chat_id": "-100123", "text": "hi", "reply_markup": `{"a":1}`})
	if got := formFields(ct, "", body, names); got["chat_id"] != "-100123" || len(got) != 1 {
		t.Errorf("multipart: %v", got)
	}
	form := url.Values{"callback_query_id": {"42"}}.Encode()
	if got := formFields("application/x-www-form-urlencoded", "", []byte(form), names); got["callback_query_id"] != "42" {
		t.Errorf("form: %v", got)
	}
	if got := formFields("application/json", "", []byte(`{"chat_id":77,"callback_query_id":"q1"}`), names); got["chat_id"] != "77" || got["callback_query_id"] != "q1" {
		t.Errorf("json: %v", got)
	}
	if got := formFields("", "chat_id=5", nil, names); got["chat_id"] != "5" {
		t.Errorf("query: %v", got)
	}
	if got := formFields("multipart/form-data; boundary=x", "", []byte("--x\r\nbroken"), names); len(got) != 0 {
		t.Errorf("broken multipart: %v", got)
	}
}

func TestParseRedisCPU(t *testing.T) {
	info := "# CPU\r\nused_cpu_sys:1.500000\r\nused_cpu_user:2.25\r\nused_cpu_sys_children:9\r\nused_cpu_user:x\r\n"
	if got, want := parseRedisCPU(info), 3750*time.Millisecond; got != want {
		t.Errorf("parseRedisCPU = %v, want %v", got, want)
	}
	if got := parseRedisCPU("garbage"); got != 0 {
		t.Errorf("parseRedisCPU(garbage) = %v", got)
	}
}

// FuzzFormFields feeds arbitrary requests to the observer's field reader: it never panics,
// keeps only the names asked for, and never keeps a value over maxField bytes.
func FuzzFormFields(f *testing.F) {
	ct, body := multipartBody(f, map[string]string{"chat_id": "1", "callback_query_id": "2"})
	f.Add(ct, "", body)
	f.Add("application/json", "", []byte(`{"chat_id":"3"}`))
	f.Add("application/x-www-form-urlencoded", "chat_id=4", []byte("callback_query_id=5"))
	f.Add("multipart/form-data; boundary=", "%zz", []byte("--\r\n"))
	f.Fuzz(func(t *testing.T, contentType, query string, body []byte) {
		got := formFields(contentType, query, body, []string{"chat_id", "callback_query_id"})
		for k, v := range got {
			if k != "chat_id" && k != "callback_query_id" {
				t.Errorf("field %q not asked for", k)
			}
			if len(v) > maxField || v == "" {
				t.Errorf("field %q = %d bytes", k, len(v))
			}
		}
	})
}

func BenchmarkFormFields(b *testing.B) {
	ct, body := multipartBody(b, map[string]string{"chat_id": "123456", "message_id": "9", "text": strings.Repeat("x", 300),
		"reply_markup": strings.Repeat(`{"text":"·","callback_data":"1mabcdef,12,34"},`, 64)})
	names := []string{"chat_id"}
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if formFields(ct, "", body, names)["chat_id"] != "123456" {
			b.Fatal("chat_id lost")
		}
	}
}
