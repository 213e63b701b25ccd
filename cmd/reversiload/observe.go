package main

import (
	"bytes"
	"encoding/json"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// notifier wakes the waiters of one key (a chat, a callback query) at a time, so that a wait
// costs nothing while other chats change; the fake server's own WaitFor wakes every waiter on
// every change, which at thousands of changes a second would make the load generator the
// bottleneck.
type notifier struct {
	mu sync.Mutex
	m  map[string]*slot
}

// slot is the state of one key: how often it fired, when it fired last, and the channel
// closed at the next firing.
type slot struct {
	n  int64
	at time.Time
	ch chan struct{}
}

func newNotifier() *notifier { return &notifier{m: make(map[string]*slot)} }

func (n *notifier) slotLocked(key string) *slot {
	s := n.m[key]
	if s == nil {
		s = &slot{ch: make(chan struct{})}
		n.m[key] = s
	}
	return s
}

// fire records an event of key at time at and wakes its waiters.
func (n *notifier) fire(key string, at time.Time) {
	n.mu.Lock()
	s := n.slotLocked(key)
	s.n++
	s.at = at
	close(s.ch)
	s.ch = make(chan struct{})
	n.mu.Unlock()
}

// watch returns how often key fired, when last, and a channel closed at its next firing.
func (n *notifier) watch(key string) (int64, time.Time, <-chan struct{}) {
	n.mu.Lock()
	defer n.mu.Unlock()
	s := n.slotLocked(key)
	return s.n, s.at, s.ch
}

// forget drops key (a callback query that was waited for), so the map stays small.
func (n *notifier) forget(key string) {
	n.mu.Lock()
	delete(n.m, key)
	n.mu.Unlock()
}

// observer is the load generator's view of the Bot API traffic: it stands in front of the fake
// server, passes every request on, and after a successful answerCallbackQuery fires "q:<id>",
// after a successful send or edit into a chat fires "c:<chat id>". It counts failed requests
// by method. With swallowWebhook it answers setWebhook itself (a bot process in webhook mode
// behind the load command's balancer must not switch the fake server to webhook delivery).
type observer struct {
	inner          http.Handler
	note           *notifier
	swallowWebhook bool

	mu     sync.Mutex
	failed map[string]int // "method code" → count
	calls  int64
}

func newObserver(inner http.Handler) *observer {
	return &observer{inner: inner, note: newNotifier(), failed: make(map[string]int)}
}

// webhookKey fires when a process behind the balancer calls setWebhook.
const webhookKey = "setWebhook"

// watched are the methods whose fields the observer reads, and the fields.
var watched = map[string][]string{
	"answercallbackquery":    {"callback_query_id"},
	"sendmessage":            {"chat_id"},
	"sendphoto":              {"chat_id"},
	"editmessagetext":        {"chat_id"},
	"editmessagecaption":     {"chat_id"},
	"editmessagereplymarkup": {"chat_id"},
	"editmessagemedia":       {"chat_id"},
}

// maxBody bounds the request bodies the observer reads (a photo upload is far smaller).
const maxBody = 20 << 20

func (o *observer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	method := strings.ToLower(r.URL.Path[strings.LastIndexByte(r.URL.Path, '/')+1:])
	if o.swallowWebhook && (method == "setwebhook" || method == "deletewebhook") {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"ok":true,"result":true}`)
		if method == "setwebhook" {
			o.note.fire(webhookKey, time.Now())
		}
		return
	}
	names, ok := watched[method]
	var fields map[string]string
	if ok {
		body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
		if err != nil {
			http.Error(w, "read body", http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		fields = formFields(r.Header.Get("Content-Type"), r.URL.RawQuery, body, names)
	}
	rec := &statusWriter{ResponseWriter: w, code: http.StatusOK}
	o.inner.ServeHTTP(rec, r)
	now := time.Now()
	o.mu.Lock()
	o.calls++
	if rec.code != http.StatusOK {
		o.failed[method+" "+strconv.Itoa(rec.code)+" "+describe(rec.body.Bytes())]++
	}
	o.mu.Unlock()
	if !ok || rec.code != http.StatusOK {
		return
	}
	if id := fields["callback_query_id"]; id != "" {
		o.note.fire("q:"+id, now)
	}
	if chat := fields["chat_id"]; chat != "" {
		o.note.fire("c:"+chat, now)
	}
}

// failures returns the failed requests by "method status".
func (o *observer) failures() (map[string]int, int64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := make(map[string]int, len(o.failed))
	for k, v := range o.failed {
		out[k] = v
	}
	return out, o.calls
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

// Flush lets long-polling answers through at once.
func (s *statusWriter) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// maxField bounds a field value the observer keeps.
const maxField = 256

// formFields returns the named fields of a Bot API request, which may come as multipart/form-data,
// a URL-encoded form, a JSON object or the query string. A field it cannot read is left out;
// it never fails.
func formFields(contentType, rawQuery string, body []byte, names []string) map[string]string {
	out := make(map[string]string, len(names))
	want := func(k string) bool {
		for _, n := range names {
			if n == k {
				_, have := out[k]
				return !have
			}
		}
		return false
	}
	if q, err := url.ParseQuery(rawQuery); err == nil {
		for _, n := range names {
			if v := q.Get(n); v != "" && len(v) <= maxField {
				out[n] = v
			}
		}
	}
	mt, params, _ := mime.ParseMediaType(contentType)
	switch mt {
	case "multipart/form-data":
		mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
		for {
			p, err := mr.NextPart()
			if err != nil {
				break
			}
			if name := p.FormName(); p.FileName() == "" && want(name) {
				v, err := io.ReadAll(io.LimitReader(p, maxField+1))
				if err == nil && len(v) <= maxField {
					out[name] = string(v)
				}
			}
			p.Close()
		}
	case "application/x-www-form-urlencoded":
		if q, err := url.ParseQuery(string(body)); err == nil {
			for _, n := range names {
				if v := q.Get(n); v != "" && want(n) && len(v) <= maxField {
					out[n] = v
				}
			}
		}
	case "application/json":
		var obj map[string]json.RawMessage
		if json.Unmarshal(body, &obj) == nil {
			for _, n := range names {
				raw, ok := obj[n]
				if !ok || !want(n) {
					continue
				}
				var s string
				if json.Unmarshal(raw, &s) != nil {
					s = string(raw) // a number
				}
				if s != "" && len(s) <= maxField {
					out[n] = s
				}
			}
		}
	}
	return out
}
