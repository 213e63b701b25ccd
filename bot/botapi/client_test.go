package botapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/botapi"
	"github.com/reversibot/reversi/bot/telegramtest"
)

const testToken = "123456:SECRET-token_value"

// request is one request the scripted server got.
type request struct {
	method      string
	contentType string
	fields      map[string]string // form fields, or the members of a JSON body as JSON text
}

// scripted is a Bot API server that answers each request with the next scripted reply
// (default: {"ok":true,"result":true}) and records the requests.
type scripted struct {
	t       *testing.T
	mu      sync.Mutex
	replies []reply
	reqs    []request
}

type reply struct {
	status int
	body   string
}

func (s *scripted) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rq := request{method: strings.TrimPrefix(r.URL.Path, "/bot"+testToken+"/"),
		contentType: r.Header.Get("Content-Type"), fields: map[string]string{}}
	mt, params, _ := mime.ParseMediaType(rq.contentType)
	switch mt {
	case "multipart/form-data":
		mr := multipart.NewReader(r.Body, params["boundary"])
		for {
			p, err := mr.NextPart()
			if err != nil {
				break
			}
			data, _ := io.ReadAll(p)
			rq.fields[p.FormName()] = string(data)
		}
	case "application/json":
		var obj map[string]json.RawMessage
		if err := json.NewDecoder(r.Body).Decode(&obj); err != nil {
			s.t.Errorf("%s: body is not JSON: %v", rq.method, err)
		}
		for k, v := range obj {
			rq.fields[k] = string(v)
		}
	}
	s.mu.Lock()
	s.reqs = append(s.reqs, rq)
	rep := reply{http.StatusOK, `{"ok":true,"result":true}`}
	if len(s.replies) > 0 {
		rep, s.replies = s.replies[0], s.replies[1:]
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(rep.status)
	_, _ = io.WriteString(w, rep.body)
}

// then scripts the next reply.
func (s *scripted) then(status int, body string) *scripted {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.replies = append(s.replies, reply{status, body})
	return s
}

func (s *scripted) requests() []request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]request(nil), s.reqs...)
}

// failure is one call OnError was told of.
type failure struct {
	method string
	kind   botapi.Kind
}

// recorder collects what OnError is told.
type recorder struct {
	mu   sync.Mutex
	seen []failure
}

func (r *recorder) onError(method string, kind botapi.Kind) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seen = append(r.seen, failure{method, kind})
}

func (r *recorder) failures() []failure {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]failure(nil), r.seen...)
}

// newScripted starts a scripted server and a Client of it.
func newScripted(t *testing.T) (*botapi.Client, *scripted, *recorder) {
	t.Helper()
	s := &scripted{t: t}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	rec := &recorder{}
	c, err := botapi.New(botapi.Options{Token: testToken, ServerURL: srv.URL + "/", HTTPClient: srv.Client(),
		OnError: rec.onError})
	if err != nil {
		t.Fatal(err)
	}
	return c, s, rec
}

// newWithFake starts the fake Bot API of telegramtest and a Client of it.
func newWithFake(t *testing.T) (*telegramtest.Server, *botapi.Client) {
	t.Helper()
	srv := telegramtest.Start(t)
	c, err := botapi.New(botapi.Options{Token: srv.Token(), ServerURL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	return srv, c
}

const (
	edited   = `{"ok":true,"result":{"message_id":5,"date":1,"chat":{"id":7,"type":"private"},"text":"x"}}`
	tooMany0 = `{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 0","parameters":{"retry_after":0}}`
	notMod   = `{"ok":false,"error_code":400,"description":"Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message"}`
)

// noToken fails when err's text shows the token.
func noToken(t *testing.T, err error) {
	t.Helper()
	if err != nil && (strings.Contains(err.Error(), testToken) || strings.Contains(err.Error(), "SECRET")) {
		t.Errorf("error %q shows the token", err)
	}
}

func TestRetryAfter429(t *testing.T) {
	c, s, rec := newScripted(t)
	s.then(429, tooMany0)
	ok, err := c.AnswerCallbackQuery(context.Background(), &tgbot.AnswerCallbackQueryParams{CallbackQueryID: "q1",
		Text: "Not your turn", ShowAlert: true})
	if err != nil || !ok {
		t.Fatalf("answer after one 429 = %v, %v; want success", ok, err)
	}
	reqs := s.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2 (the 429 and the retry)", len(reqs))
	}
	for _, r := range reqs {
		if r.method != "answerCallbackQuery" || r.fields["callback_query_id"] != "q1" || r.fields["text"] != "Not your turn" ||
			r.fields["show_alert"] != "true" {
			t.Errorf("request %+v", r)
		}
	}
	if got := rec.failures(); len(got) != 1 || got[0] != (failure{"answerCallbackQuery", botapi.KindTooManyRequests}) {
		t.Errorf("OnError told %v, want one too_many_requests of answerCallbackQuery", got)
	}
}

func TestRetryAfter429IsBounded(t *testing.T) {
	c, s, _ := newScripted(t)
	for range botapi.MaxRetries + 2 {
		s.then(429, tooMany0)
	}
	_, err := c.EditMessageText(context.Background(), &tgbot.EditMessageTextParams{ChatID: 7, MessageID: 5, Text: "b"})
	var tm *tgbot.TooManyRequestsError
	if !errors.As(err, &tm) || botapi.KindOf(err) != botapi.KindTooManyRequests {
		t.Fatalf("edit after %d 429s = %v, want a TooManyRequestsError", botapi.MaxRetries+2, err)
	}
	if n := len(s.requests()); n != botapi.MaxRetries+1 {
		t.Errorf("%d requests, want %d", n, botapi.MaxRetries+1)
	}
}

func TestRetryAfterBeyondDeadlineGivesUp(t *testing.T) {
	c, s, _ := newScripted(t)
	s.then(429, `{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 30","parameters":{"retry_after":30}}`)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := c.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: 7, Text: "hi"})
	var tm *tgbot.TooManyRequestsError
	if !errors.As(err, &tm) || tm.RetryAfter != 30 {
		t.Fatalf("send = %v, want the 429 at once", err)
	}
	if ctx.Err() != nil {
		t.Errorf("waited for the context to end: a wait past the deadline should not start")
	}
	if n := len(s.requests()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
	// A cancelled wait returns as soon as the context ends.
	s.then(429, `{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 30","parameters":{"retry_after":30}}`)
	ctx2, cancel2 := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		_, err := c.AnswerCallbackQuery(ctx2, &tgbot.AnswerCallbackQueryParams{CallbackQueryID: "q"})
		done <- err
	}()
	cancel2()
	if err := <-done; err == nil {
		t.Error("a call cancelled while waiting out a 429 succeeded")
	}
}

func TestTransientRetriedOnlyWhereSafe(t *testing.T) {
	ctx := context.Background()
	c, s, rec := newScripted(t)
	// An edit may be repeated: a proxy's 502 page, then a 500, then success.
	s.then(502, `<html>Bad Gateway</html>`).then(500, `{"ok":false,"error_code":500,"description":"Internal Server Error"}`).then(200, edited)
	msg, err := c.EditMessageText(ctx, &tgbot.EditMessageTextParams{ChatID: 7, MessageID: 5, Text: "x"})
	if err != nil || msg == nil || msg.ID != 5 {
		t.Fatalf("edit after a 502 and a 500 = %+v, %v; want the edited message", msg, err)
	}
	if n := len(s.requests()); n != 3 {
		t.Errorf("%d requests, want 3", n)
	}
	want := []failure{{"editMessageText", botapi.KindServer}, {"editMessageText", botapi.KindServer}}
	if got := rec.failures(); len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("OnError told %v, want %v", got, want)
	}
	// A send is not: the message may have gone out.
	s.then(500, `{"ok":false,"error_code":500,"description":"Internal Server Error"}`)
	_, err = c.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: 7, Text: "once"})
	var e *botapi.Error
	if !errors.As(err, &e) || e.Kind != botapi.KindServer || e.Status != 500 || e.Method != "sendMessage" {
		t.Fatalf("send after a 500 = %#v, want a server error", err)
	}
	if n := len(s.requests()); n != 4 {
		t.Errorf("%d requests, want 4: the send is not repeated", n)
	}
	// Once makes a single attempt even after a 429.
	s.then(429, tooMany0)
	if _, err := c.Once().AnswerCallbackQuery(ctx, &tgbot.AnswerCallbackQueryParams{CallbackQueryID: "q"}); botapi.KindOf(err) != botapi.KindTooManyRequests {
		t.Fatalf("Once answer after a 429 = %v", err)
	}
	if n := len(s.requests()); n != 5 {
		t.Errorf("%d requests, want 5: Once does not retry", n)
	}
}

func TestRetryRepeatsAStep(t *testing.T) {
	ctx := context.Background()
	c, s, _ := newScripted(t)
	s.then(429, tooMany0).then(502, "bad gateway").then(200, edited)
	steps := 0
	err := c.Retry(ctx, func() error {
		steps++
		_, err := c.Once().EditMessageReplyMarkup(ctx, &tgbot.EditMessageReplyMarkupParams{ChatID: 7, MessageID: 5})
		return err
	})
	if err != nil || steps != 3 {
		t.Fatalf("Retry = %v after %d steps, want success after 3", err, steps)
	}
	// An error of no Bot API call is not retried.
	steps = 0
	boom := errors.New("store down")
	if err := c.Retry(ctx, func() error { steps++; return boom }); !errors.Is(err, boom) || steps != 1 {
		t.Errorf("Retry of a store error = %v after %d steps", err, steps)
	}
}

func TestUploadSentWholeOnRetry(t *testing.T) {
	c, s, _ := newScripted(t)
	s.then(429, tooMany0).then(200, edited)
	png := []byte("\x89PNG fake image bytes")
	_, err := c.SendPhoto(context.Background(), &tgbot.SendPhotoParams{ChatID: 7, Caption: "c",
		Photo: &models.InputFileUpload{Filename: "board.png", Data: bytes.NewReader(png)}})
	if err != nil {
		t.Fatal(err)
	}
	reqs := s.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	for i, r := range reqs {
		if r.fields["photo"] != string(png) {
			t.Errorf("request %d uploads %q, want the whole photo", i, r.fields["photo"])
		}
	}
	// So is an animation's.
	s.then(429, tooMany0).then(200, edited)
	gifData := []byte("GIF89a fake animation bytes")
	if _, err := c.SendAnimation(context.Background(), &tgbot.SendAnimationParams{ChatID: 7,
		Animation: &models.InputFileUpload{Filename: "replay.gif", Data: io.MultiReader(bytes.NewReader(gifData))}}); err != nil {
		t.Fatal(err)
	}
	for i, r := range s.requests()[2:] {
		if r.method != "sendAnimation" || r.fields["animation"] != string(gifData) {
			t.Errorf("animation request %d: %s uploads %q, want the whole animation", i, r.method, r.fields["animation"])
		}
	}
	// So is an upload that cannot seek, and the photo of an edit.
	s.then(429, tooMany0).then(200, edited).then(429, tooMany0).then(200, edited)
	if _, err = c.SendPhoto(context.Background(), &tgbot.SendPhotoParams{ChatID: 7,
		Photo: &models.InputFileUpload{Filename: "board.png", Data: io.MultiReader(bytes.NewReader(png))}}); err != nil {
		t.Fatal(err)
	}
	if _, err = c.EditMessageMedia(context.Background(), &tgbot.EditMessageMediaParams{ChatID: 7, MessageID: 5,
		Media: &models.InputMediaPhoto{Media: "attach://board.png", MediaAttachment: io.MultiReader(bytes.NewReader(png))}}); err != nil {
		t.Fatal(err)
	}
	reqs = s.requests()[2:]
	if len(reqs) != 6 {
		t.Fatalf("%d requests, want 6", len(reqs))
	}
	for i, r := range reqs[2:4] {
		if r.fields["photo"] != string(png) {
			t.Errorf("send %d uploads %q, want the whole photo", i, r.fields["photo"])
		}
	}
	for i, r := range reqs[4:] {
		if r.method != "editMessageMedia" || r.fields["board.png"] != string(png) {
			t.Errorf("edit %d: %s uploads %q, want the whole photo", i, r.method, r.fields["board.png"])
		}
	}
}

func TestInlineEditAnswersTrue(t *testing.T) {
	ctx := context.Background()
	c, s, rec := newScripted(t)
	kb := &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{{{Text: "a", CallbackData: "b"}}}}
	if msg, err := c.EditMessageText(ctx, &tgbot.EditMessageTextParams{InlineMessageID: "AAQ", Text: "t",
		ReplyMarkup: botapi.Markup(kb)}); err != nil || msg != nil {
		t.Fatalf("inline editMessageText answering true = %v, %v; want nil, nil", msg, err)
	}
	if _, err := c.EditMessageReplyMarkup(ctx, &tgbot.EditMessageReplyMarkupParams{InlineMessageID: "AAQ"}); err != nil {
		t.Fatalf("inline editMessageReplyMarkup answering true = %v", err)
	}
	if _, err := c.EditMessageCaption(ctx, &tgbot.EditMessageCaptionParams{InlineMessageID: "AAQ", Caption: "c"}); err != nil {
		t.Fatalf("inline editMessageCaption answering true = %v", err)
	}
	if _, err := c.EditMessageMedia(ctx, &tgbot.EditMessageMediaParams{InlineMessageID: "AAQ",
		Media: &models.InputMediaPhoto{Media: "https://example.com/b.png"}}); err != nil {
		t.Fatalf("inline editMessageMedia answering true = %v", err)
	}
	reqs := s.requests()
	if len(reqs) != 4 || reqs[0].fields["inline_message_id"] != "AAQ" || reqs[0].fields["chat_id"] != "" ||
		!strings.Contains(reqs[0].fields["reply_markup"], `"callback_data":"b"`) {
		t.Errorf("requests %+v", reqs)
	}
	// A message in a chat must come back as a Message: `true` there is a broken reply.
	_, err := c.Once().EditMessageText(ctx, &tgbot.EditMessageTextParams{ChatID: 7, MessageID: 5, Text: "t"})
	if botapi.KindOf(err) != botapi.KindServer {
		t.Errorf("chat editMessageText answering true = %v, want a server error", err)
	}
	if got := rec.failures(); len(got) != 1 {
		t.Errorf("OnError told %v, want the one broken reply", got)
	}
}

func TestNotModifiedIsSuccess(t *testing.T) {
	ctx := context.Background()
	c, s, rec := newScripted(t)
	s.then(400, notMod).then(400, notMod)
	if msg, err := c.EditMessageText(ctx, &tgbot.EditMessageTextParams{ChatID: 7, MessageID: 5, Text: "x"}); err != nil || msg != nil {
		t.Fatalf("edit not modified = %v, %v; want nil, nil", msg, err)
	}
	if _, err := c.EditMessageReplyMarkup(ctx, &tgbot.EditMessageReplyMarkupParams{InlineMessageID: "AAQ"}); err != nil {
		t.Fatalf("inline edit not modified = %v", err)
	}
	if n := len(s.requests()); n != 2 {
		t.Errorf("%d requests, want 2: not modified is not retried", n)
	}
	if got := rec.failures(); len(got) != 0 {
		t.Errorf("OnError told %v of successes", got)
	}
	// Not for a send: there it is an error of its own kind.
	s.then(400, notMod)
	if _, err := c.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: 7, Text: "x"}); !botapi.NotModified(err) ||
		botapi.KindOf(err) != botapi.KindNotModified {
		t.Errorf("send answered not modified = %v", err)
	}
}

func TestNotModifiedWithTheFake(t *testing.T) {
	srv, c := newWithFake(t)
	ctx := context.Background()
	u := srv.NewUser("Alice", "en")
	if _, err := u.Send(u.ID(), "/start"); err != nil {
		t.Fatal(err)
	}
	kb := &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{{{Text: "·", CallbackData: "1m:a1"}}}}
	msg, err := c.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: u.ID(), Text: "board", ReplyMarkup: botapi.Markup(kb)})
	if err != nil {
		t.Fatal(err)
	}
	// The same content again: the fake answers "message is not modified", as Telegram does.
	if _, err := c.EditMessageText(ctx, &tgbot.EditMessageTextParams{ChatID: u.ID(), MessageID: msg.ID, Text: "board",
		ReplyMarkup: botapi.Markup(kb)}); err != nil {
		t.Fatalf("identical edit = %v, want success", err)
	}
	log := srv.CallLog()
	if last := log[len(log)-1]; last.Method != "editMessageText" || last.Code != 400 || !strings.Contains(last.Description, "not modified") {
		t.Fatalf("the fake's last call %+v, want editMessageText answered not modified", last)
	}
	// An edit of a message that is not there is a bad request.
	_, err = c.EditMessageText(ctx, &tgbot.EditMessageTextParams{ChatID: u.ID(), MessageID: msg.ID + 100, Text: "x"})
	if !errors.Is(err, tgbot.ErrorBadRequest) || botapi.KindOf(err) != botapi.KindBadRequest {
		t.Errorf("edit of a missing message = %v, want a bad request", err)
	}
	noToken(t, err)
}

func TestErrorKinds(t *testing.T) {
	tests := []struct {
		status int
		body   string
		kind   botapi.Kind
		is     error
	}{
		{400, `{"ok":false,"error_code":400,"description":"Bad Request: message to edit not found"}`, botapi.KindBadRequest, tgbot.ErrorBadRequest},
		{400, `{"ok":false,"error_code":400,"description":"Bad Request: group chat was upgraded","parameters":{"migrate_to_chat_id":-100123}}`, botapi.KindMigrated, nil},
		{401, `{"ok":false,"error_code":401,"description":"Unauthorized"}`, botapi.KindUnauthorized, tgbot.ErrorUnauthorized},
		{403, `{"ok":false,"error_code":403,"description":"Forbidden: bot was blocked by the user"}`, botapi.KindForbidden, tgbot.ErrorForbidden},
		{404, `{"ok":false,"error_code":404,"description":"Not Found"}`, botapi.KindNotFound, tgbot.ErrorNotFound},
		{409, `{"ok":false,"error_code":409,"description":"Conflict: terminated by other getUpdates request"}`, botapi.KindConflict, tgbot.ErrorConflict},
		{500, `{"ok":false,"error_code":500,"description":"Internal Server Error"}`, botapi.KindServer, nil},
		{502, `<html>Bad Gateway</html>`, botapi.KindServer, nil},
		{200, `{"ok":tr`, botapi.KindServer, nil},
	}
	for _, tt := range tests {
		c, s, _ := newScripted(t)
		s.then(tt.status, tt.body)
		if tt.kind == botapi.KindMigrated {
			s.then(tt.status, tt.body) // the send made again in the supergroup (migrate.go)
		}
		_, err := c.Once().SendMessage(context.Background(), &tgbot.SendMessageParams{ChatID: 7, Text: "x"})
		var e *botapi.Error
		switch {
		case !errors.As(err, &e):
			t.Errorf("%d %s: %v is no *Error", tt.status, tt.body, err)
			continue
		case e.Kind != tt.kind || botapi.KindOf(err) != tt.kind || e.Status != tt.status:
			t.Errorf("%d %s: kind %q status %d, want %q %d", tt.status, tt.body, e.Kind, e.Status, tt.kind, tt.status)
		case tt.is != nil && !errors.Is(err, tt.is):
			t.Errorf("%d %s: %v is not %v", tt.status, tt.body, err, tt.is)
		case !strings.HasPrefix(err.Error(), "sendMessage: "):
			t.Errorf("error %q does not name the method", err)
		}
		noToken(t, err)
	}
	var m *tgbot.MigrateError
	c, s, _ := newScripted(t)
	s.then(400, `{"ok":false,"error_code":400,"description":"Bad Request: group chat was upgraded","parameters":{"migrate_to_chat_id":-100123}}`)
	s.then(400, `{"ok":false,"error_code":400,"description":"Bad Request: group chat was upgraded","parameters":{"migrate_to_chat_id":-100123}}`)
	if _, err := c.SendMessage(context.Background(), &tgbot.SendMessageParams{ChatID: 7, Text: "x"}); !errors.As(err, &m) || m.MigrateToChatID != -100123 {
		t.Errorf("migrated chat = %v, want a MigrateError", err)
	}
	if got := botapi.KindOf(errors.New("anything")); got != botapi.KindNetwork {
		t.Errorf("KindOf(a plain error) = %q", got)
	}
}

func TestTokenNotInErrors(t *testing.T) {
	// A server that is gone: the error names the request, whose URL holds the token.
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	c, err := botapi.New(botapi.Options{Token: testToken, ServerURL: url})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for name, call := range map[string]func() error{
		"answerCallbackQuery": func() error {
			_, err := c.Once().AnswerCallbackQuery(ctx, &tgbot.AnswerCallbackQueryParams{CallbackQueryID: "q"})
			return err
		},
		"getUpdates": func() error {
			_, _, err := c.GetUpdates(ctx, botapi.GetUpdatesParams{})
			return err
		},
	} {
		err := call()
		if err == nil {
			t.Fatalf("%s to a closed server succeeded", name)
		}
		noToken(t, err)
		if !strings.Contains(err.Error(), name) || botapi.KindOf(err) != botapi.KindNetwork {
			t.Errorf("%s: error %q (kind %q), want a network error naming the method", name, err, botapi.KindOf(err))
		}
	}
	// A cancelled request is still seen as cancelled through the wrapping.
	c2, _, _ := newScripted(t)
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := c2.AnswerCallbackQuery(cctx, &tgbot.AnswerCallbackQueryParams{CallbackQueryID: "q"}); !errors.Is(err, context.Canceled) {
		t.Errorf("answer with a cancelled context = %v, want context.Canceled", err)
	}
	// A token in a reply's description is blanked too.
	c3, s, _ := newScripted(t)
	s.then(400, `{"ok":false,"error_code":400,"description":"Bad Request: `+testToken+`"}`)
	_, err = c3.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: 1, Text: "x"})
	if err == nil || !errors.Is(err, tgbot.ErrorBadRequest) {
		t.Fatalf("send = %v", err)
	}
	noToken(t, err)
}

func TestGetUpdatesConfirmsOnlyByTheNextOffset(t *testing.T) {
	srv, c := newWithFake(t)
	ctx := context.Background()
	u := srv.NewUser("Alice", "en")
	for _, text := range []string{"/start", "/help", "d3"} {
		if _, err := u.Send(u.ID(), text); err != nil {
			t.Fatal(err)
		}
	}
	all := []string{"message", "callback_query"}
	ups, next, err := c.GetUpdates(ctx, botapi.GetUpdatesParams{Timeout: 1, AllowedUpdates: all})
	if err != nil || len(ups) != 3 || ups[0].Message == nil || ups[0].Message.Text != "/start" || next != ups[2].ID+1 {
		t.Fatalf("getUpdates = %d updates, next %d, %v", len(ups), next, err)
	}
	// Asked again from the same offset, the same updates come: nothing was confirmed.
	again, next2, err := c.GetUpdates(ctx, botapi.GetUpdatesParams{Timeout: 1})
	if err != nil || len(again) != 3 || again[0].ID != ups[0].ID || next2 != next {
		t.Fatalf("getUpdates again = %d updates, next %d, %v; want the same 3", len(again), next2, err)
	}
	// The offset past them confirms them: a tap comes next, its message's keyboard decoded too.
	msg, err := c.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: u.ID(), Text: "board",
		ReplyMarkup: botapi.Markup(&models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{{{Text: "·", CallbackData: "1m:a1"}}}})})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := srv.Message(u.ID(), msg.ID)
	if _, err := u.Press(m, "·"); err != nil {
		t.Fatal(err)
	}
	ups, next3, err := c.GetUpdates(ctx, botapi.GetUpdatesParams{Offset: next, Timeout: 1})
	if err != nil || len(ups) != 1 || ups[0].CallbackQuery == nil || ups[0].CallbackQuery.Data != "1m:a1" || next3 != ups[0].ID+1 {
		t.Fatalf("getUpdates after confirming = %+v, next %d, %v", ups, next3, err)
	}
	q := ups[0].CallbackQuery
	if q.Message.Message == nil || q.Message.Message.ID != msg.ID || q.Message.Message.Chat.ID != u.ID() {
		t.Errorf("tap's message %+v", q.Message)
	}
}

func TestGetUpdatesReplies(t *testing.T) {
	ctx := context.Background()
	c, s, rec := newScripted(t)
	tap := `{"update_id":10,"callback_query":{"id":"q1","from":{"id":7,"is_bot":false,"first_name":"Al"},` +
		`"message":{"message_id":5,"chat":{"id":7,"type":"private"},"date":1,"text":"b","reply_markup":{"inline_keyboard":[[{"text":"x","callback_data":"y"}]]}},` +
		`"chat_instance":"ci","data":"1m:4"}}`
	// The second update is not what the Bot API promises (a string for a number): it is left
	// out, and the offset still confirms it with the others.
	s.then(200, `{"ok":true,"result":[`+tap+`,{"update_id":11,"message":{"message_id":"x"}},{"update_id":12,"message":{"message_id":1,"date":1,"chat":{"id":7,"type":"private"},"text":"/help"}}]}`)
	s.then(409, `{"ok":false,"error_code":409,"description":"Conflict: terminated by other getUpdates request"}`)
	s.then(200, `{"ok":true,"result":[]}`)
	ups, next, err := c.GetUpdates(ctx, botapi.GetUpdatesParams{Timeout: 49, AllowedUpdates: []string{"message", "callback_query"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(ups) != 2 || ups[0].ID != 10 || ups[0].CallbackQuery.Message.Message.ID != 5 || ups[1].Message.Text != "/help" || next != 13 {
		t.Fatalf("updates %+v, next %d", ups, next)
	}
	if _, n, err := c.GetUpdates(ctx, botapi.GetUpdatesParams{Offset: next}); !errors.Is(err, tgbot.ErrorConflict) || n != next {
		t.Errorf("getUpdates after a 409 = %d, %v; want the same offset and ErrorConflict", n, err)
	}
	if ups, n, err := c.GetUpdates(ctx, botapi.GetUpdatesParams{Offset: next}); err != nil || len(ups) != 0 || n != next {
		t.Errorf("empty getUpdates = %v, %d, %v", ups, n, err)
	}
	reqs := s.requests()
	if len(reqs) != 3 || reqs[0].method != "getUpdates" || reqs[0].contentType != "application/json" ||
		reqs[0].fields["timeout"] != "49" || reqs[0].fields["allowed_updates"] != `["message","callback_query"]` || reqs[0].fields["offset"] != "" {
		t.Fatalf("first getUpdates %+v", reqs[0])
	}
	if reqs[1].fields["offset"] != "13" {
		t.Errorf("second getUpdates offset %q, want 13", reqs[1].fields["offset"])
	}
	if got := rec.failures(); len(got) != 1 || got[0] != (failure{"getUpdates", botapi.KindConflict}) {
		t.Errorf("OnError told %v", got)
	}
}
