package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// observer stands in front of the fake Bot API server: it passes every request on, counts
// them, and counts the failed ones by method, status and description. It reads no request
// body (the players wait on the fake server itself), so it costs little per call, except for
// edits when it times them for the board lag (-limits, edited). With
// swallowWebhook it answers setWebhook and deleteWebhook itself: a bot process in webhook
// mode behind the load command's balancer must not switch the fake server to webhook
// delivery.
type observer struct {
	inner          http.Handler
	swallowWebhook bool
	// edited, when set, is told of every successful edit of a chat's message, with the
	// time its answer left the fake server (lag.go); the observer then reads the chat and
	// message ids of each edit request's body.
	edited func(chat int64, id int, at time.Time)
	calls  atomic.Int64

	mu       sync.Mutex
	failed   map[string]int // "method code description" → count
	webhooks int            // setWebhook calls swallowed
	hooked   chan struct{}  // closed at the next swallowed setWebhook
}

func newObserver(inner http.Handler) *observer {
	return &observer{inner: inner, failed: make(map[string]int), hooked: make(chan struct{})}
}

func (o *observer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	method := strings.ToLower(r.URL.Path[strings.LastIndexByte(r.URL.Path, '/')+1:])
	o.calls.Add(1)
	if o.swallowWebhook && (method == "setwebhook" || method == "deletewebhook") {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"ok":true,"result":true}`)
		if method == "setwebhook" {
			o.mu.Lock()
			o.webhooks++
			close(o.hooked)
			o.hooked = make(chan struct{})
			o.mu.Unlock()
		}
		return
	}
	var (
		chat   int64
		msg    int
		target bool
	)
	if o.edited != nil && editMethods[method] {
		chat, msg, target = editTarget(r)
	}
	rec := &statusWriter{ResponseWriter: w, code: http.StatusOK}
	o.inner.ServeHTTP(rec, r)
	if target && rec.code == http.StatusOK {
		o.edited(chat, msg, time.Now())
	}
	if rec.code != http.StatusOK {
		o.mu.Lock()
		o.failed[method+" "+strconv.Itoa(rec.code)+" "+describe(rec.body.Bytes())]++
		o.mu.Unlock()
	}
}

// webhookCalls is how many setWebhook calls were swallowed, and a channel closed at the next.
func (o *observer) webhookCalls() (int, <-chan struct{}) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.webhooks, o.hooked
}

// failures returns the failed requests by "method status description", and the number of
// all requests.
func (o *observer) failures() (map[string]int, int64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := make(map[string]int, len(o.failed))
	for k, v := range o.failed {
		out[k] = v
	}
	return out, o.calls.Load()
}

// statusWriter remembers the status code written and the start of an error answer.
type statusWriter struct {
	http.ResponseWriter
	code int
	body bytes.Buffer
}

func (s *statusWriter) WriteHeader(code int) {
	s.code = code
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusWriter) Write(p []byte) (int, error) {
	if s.code != http.StatusOK && s.body.Len() < 512 {
		s.body.Write(p[:min(len(p), 512)])
	}
	return s.ResponseWriter.Write(p)
}

// Flush lets long-polling answers through at once.
func (s *statusWriter) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// describe returns the start of the description of a Bot API error answer.
func describe(body []byte) string {
	var e struct {
		Description string `json:"description"`
	}
	_ = json.Unmarshal(body, &e)
	d := e.Description
	if len(d) > 48 {
		d = d[:48]
	}
	return d
}
