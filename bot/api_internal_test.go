package bot

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/game"
)

const testToken = "123456:SECRET-token_value"

// apiCall is one request the test server got.
type apiCall struct {
	method      string
	contentType string
	body        map[string]any
}

// apiServer answers each request with the next reply (status, body) and records the request.
type apiServer struct {
	t       *testing.T
	mu      sync.Mutex
	replies []apiReply
	calls   []apiCall
}

type apiReply struct {
	status int
	body   string
}

func (s *apiServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	data, _ := io.ReadAll(r.Body)
	var body map[string]any
	if err := json.Unmarshal(data, &body); err != nil {
		s.t.Errorf("%s: body %q is not JSON: %v", r.URL.Path, data, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, apiCall{method: strings.TrimPrefix(r.URL.Path, "/bot"+testToken+"/"),
		contentType: r.Header.Get("Content-Type"), body: body})
	rep := apiReply{http.StatusOK, `{"ok":true,"result":true}`}
	if len(s.replies) > 0 {
		rep, s.replies = s.replies[0], s.replies[1:]
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(rep.status)
	_, _ = io.WriteString(w, rep.body)
}

func (s *apiServer) reply(status int, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.replies = append(s.replies, apiReply{status, body})
}

func (s *apiServer) log() []apiCall {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]apiCall(nil), s.calls...)
}

// apiBot is a Bot that has only what the lean request path needs, over a test server.
func apiBot(t *testing.T) (*Bot, *apiServer) {
	t.Helper()
	s := &apiServer{t: t}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	b := &Bot{token: testToken, log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		api: newBotAPI(srv.Client(), srv.URL+"/", testToken)}
	return b, s
}

func TestAPIErrors(t *testing.T) {
	ctx := context.Background()
	edited := `{"ok":true,"result":{"message_id":5,"date":1,"chat":{"id":7,"type":"private"},"text":"x"}}`
	tests := []struct {
		name    string
		status  int
		reply   string
		inline  bool
		wantErr func(error) bool // nil: success
		kind    string
	}{
		{name: "edited message", status: 200, reply: edited},
		{name: "inline edit returns true", status: 200, reply: `{"ok":true,"result":true}`, inline: true},
		{name: "spaced success", status: 200, reply: ` { "ok" : true, "result" : true }`},
		{name: "not modified", status: 400, reply: `{"ok":false,"error_code":400,"description":"Bad Request: message is not modified: specified new message content and reply markup are exactly the same"}`},
		{name: "bad request", status: 400, reply: `{"ok":false,"error_code":400,"description":"Bad Request: message to edit not found"}`,
			wantErr: func(err error) bool {
				return errors.Is(err, tgbot.ErrorBadRequest) && strings.Contains(err.Error(), "message to edit not found")
			}, kind: "bad_request"},
		{name: "migrated", status: 400, reply: `{"ok":false,"error_code":400,"description":"Bad Request: group chat was upgraded","parameters":{"migrate_to_chat_id":-100123}}`,
			wantErr: func(err error) bool {
				var m *tgbot.MigrateError
				return errors.As(err, &m) && m.MigrateToChatID == -100123
			}, kind: "network"},
		{name: "forbidden", status: 403, reply: `{"ok":false,"error_code":403,"description":"Forbidden: bot was blocked by the user"}`,
			wantErr: func(err error) bool { return errors.Is(err, tgbot.ErrorForbidden) }, kind: "forbidden"},
		{name: "too many requests", status: 429, reply: `{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 7","parameters":{"retry_after":7}}`,
			wantErr: func(err error) bool {
				var tm *tgbot.TooManyRequestsError
				return errors.As(err, &tm) && tm.RetryAfter == 7
			}, kind: "too_many_requests"},
		{name: "server error", status: 500, reply: `{"ok":false,"error_code":500,"description":"Internal Server Error"}`,
			wantErr: func(err error) bool { return strings.Contains(err.Error(), "500 Internal Server Error") }, kind: "server"},
		{name: "proxy page", status: 502, reply: `<html>Bad Gateway</html>`,
			wantErr: func(err error) bool { return strings.Contains(err.Error(), "HTTP 502") }, kind: "server"},
		{name: "truncated", status: 200, reply: `{"ok":tr`,
			wantErr: func(err error) bool { return strings.Contains(err.Error(), "malformed") }, kind: "server"},
		{name: "failure without code", status: 200, reply: `{"ok":false}`,
			wantErr: func(err error) bool { return strings.Contains(err.Error(), "malformed") }, kind: "server"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, s := apiBot(t)
			s.reply(tt.status, tt.reply)
			ref := game.MessageRef{ChatID: 7, MessageID: 5}
			if tt.inline {
				ref = game.MessageRef{InlineID: "AAQ-inline"}
			}
			err := b.editOnce(ctx, ref, content{text: "board"})
			switch {
			case tt.wantErr == nil && err != nil:
				t.Fatalf("editOnce = %v, want success", err)
			case tt.wantErr != nil && (err == nil || !tt.wantErr(err)):
				t.Fatalf("editOnce = %v, not the error wanted", err)
			case err != nil:
				if got := errKind(err); got != tt.kind {
					t.Errorf("errKind(%v) = %q, want %q", err, got, tt.kind)
				}
				if strings.Contains(err.Error(), testToken) || strings.Contains(err.Error(), "SECRET") {
					t.Errorf("error %q shows the token", err)
				}
			}
			calls := s.log()
			if len(calls) != 1 || calls[0].method != "editMessageText" || calls[0].contentType != "application/json" {
				t.Fatalf("calls %+v, want one JSON editMessageText", calls)
			}
		})
	}
}

func TestAPITokenNotInTransportErrors(t *testing.T) {
	// A server that is gone: the error names the request, whose URL holds the token.
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	b := &Bot{token: testToken, api: newBotAPI(http.DefaultClient, url, testToken)}
	err := b.answer(context.Background(), "q1", "hi", false)
	if err == nil {
		t.Fatal("answer to a closed server succeeded")
	}
	if strings.Contains(err.Error(), testToken) {
		t.Errorf("error %q shows the token", err)
	}
	if !strings.Contains(err.Error(), "answerCallbackQuery") {
		t.Errorf("error %q does not name the method", err)
	}
	if got := errKind(err); got != "network" {
		t.Errorf("errKind = %q, want network", got)
	}
	// A cancelled request is still seen as cancelled through the scrubbing.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	b2, _ := apiBot(t)
	if err := b2.answer(ctx, "q1", "", false); !errors.Is(err, context.Canceled) {
		t.Errorf("answer with a cancelled context = %v, want context.Canceled", err)
	}
}

func TestAPIRetriesAfter429(t *testing.T) {
	b, s := apiBot(t)
	s.reply(429, `{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 0","parameters":{"retry_after":0}}`)
	if err := b.answer(context.Background(), "q1", "Not your turn", true); err != nil {
		t.Fatalf("answer after one 429 = %v, want success", err)
	}
	calls := s.log()
	if len(calls) != 2 {
		t.Fatalf("%d calls, want 2 (the 429 and the retry)", len(calls))
	}
	want := map[string]any{"callback_query_id": "q1", "text": "Not your turn", "show_alert": true}
	for _, c := range calls {
		if c.method != "answerCallbackQuery" || !reflect.DeepEqual(c.body, want) {
			t.Errorf("call %s %v, want answerCallbackQuery %v", c.method, c.body, want)
		}
	}
}

func TestAPIRequestBodies(t *testing.T) {
	ctx := context.Background()
	b, s := apiBot(t)
	kb := &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{
		{{Text: "⚫", CallbackData: "1m0:3"}, {Text: "·", CallbackData: "1m0:4"}},
		{{Text: "Join \"now\"", URL: "https://t.me/bot?start=jX"}},
	}}
	if err := b.answer(ctx, "q2", "", true); err != nil {
		t.Fatal(err)
	}
	if err := b.editOnce(ctx, game.MessageRef{ChatID: -100, MessageID: 9}, content{text: "a\nb", kb: kb}); err != nil {
		t.Fatal(err)
	}
	if err := b.editOnce(ctx, game.MessageRef{InlineID: "AAQ"}, content{text: "t"}); err != nil {
		t.Fatal(err)
	}
	if err := b.editMarkup(ctx, game.MessageRef{ChatID: 5, MessageID: 6}, nil); err != nil {
		t.Fatal(err)
	}
	markup := map[string]any{"inline_keyboard": []any{
		[]any{map[string]any{"text": "⚫", "callback_data": "1m0:3"}, map[string]any{"text": "·", "callback_data": "1m0:4"}},
		[]any{map[string]any{"text": "Join \"now\"", "url": "https://t.me/bot?start=jX"}},
	}}
	want := []apiCall{
		// No text means no text field, and then no alert either.
		{method: "answerCallbackQuery", body: map[string]any{"callback_query_id": "q2"}},
		{method: "editMessageText", body: map[string]any{"chat_id": float64(-100), "message_id": float64(9), "text": "a\nb", "reply_markup": markup}},
		{method: "editMessageText", body: map[string]any{"inline_message_id": "AAQ", "text": "t"}},
		// No keyboard: the field is left out, which removes the keyboard.
		{method: "editMessageReplyMarkup", body: map[string]any{"chat_id": float64(5), "message_id": float64(6)}},
	}
	got := s.log()
	if len(got) != len(want) {
		t.Fatalf("%d calls, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i].method != want[i].method || !reflect.DeepEqual(got[i].body, want[i].body) {
			t.Errorf("call %d = %s %v, want %s %v", i, got[i].method, got[i].body, want[i].method, want[i].body)
		}
	}
}
