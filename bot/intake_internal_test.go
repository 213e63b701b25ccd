package bot

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/botapi"
	"github.com/reversibot/reversi/game/gametest"
)

// oneBatch is an update source that answers the first getUpdates with its updates and every
// later one when its context ends, recording the offsets asked for.
type oneBatch struct {
	ups []*models.Update

	mu      sync.Mutex
	offsets []int64
}

func (s *oneBatch) DeleteWebhook(context.Context, *tgbot.DeleteWebhookParams) (bool, error) {
	return true, nil
}

func (s *oneBatch) GetUpdates(ctx context.Context, p botapi.GetUpdatesParams) ([]*models.Update, int64, error) {
	s.mu.Lock()
	s.offsets = append(s.offsets, p.Offset)
	first := len(s.offsets) == 1
	s.mu.Unlock()
	if first {
		return s.ups, s.ups[len(s.ups)-1].ID + 1, nil
	}
	<-ctx.Done()
	return nil, p.Offset, ctx.Err()
}

// blocker is a handler that tells started of each update and returns when release is closed
// or its context ends.
type blocker struct {
	started chan int64
	release chan struct{}
}

func newBlocker() *blocker {
	return &blocker{started: make(chan int64, 16), release: make(chan struct{})}
}

func (b *blocker) handle(ctx context.Context, u *models.Update) {
	b.started <- u.ID
	select {
	case <-b.release:
	case <-ctx.Done():
	}
}

// With its one handler busy, the poll loop does not confirm the update it could not hand on.
func TestIntakePollConfirmsOnlyTaken(t *testing.T) {
	src := &oneBatch{ups: []*models.Update{tapUpdate(1, 1), tapUpdate(2, 2)}}
	h := newBlocker()
	in := newIntake(intakeConfig{Source: src, Handler: h.handle, MaxHandlers: 1, Logger: discard})
	polled := make(chan error)
	go func() { polled <- in.Poll(context.Background()) }()
	if id := <-h.started; id != 1 {
		t.Fatalf("first handled update %d, want 1", id)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := in.Shutdown(ctx); err != context.Canceled {
		t.Fatalf("hard shutdown: %v, want canceled", err)
	}
	if err := <-polled; err != nil {
		t.Fatal(err)
	}
	src.mu.Lock()
	defer src.mu.Unlock()
	for _, off := range src.offsets {
		if off != 0 {
			t.Fatalf("getUpdates offsets %v: update 2 was confirmed without a handler", src.offsets)
		}
	}
	if err := in.Poll(context.Background()); err != nil {
		t.Fatalf("poll after shutdown: %v", err)
	}
}

func TestIntakeWebhook(t *testing.T) {
	h := newBlocker()
	var lines logLines
	in := newIntake(intakeConfig{Handler: h.handle, Middlewares: []UpdateMiddleware{logUpdates(lines.logger(), func(err error) string { return err.Error() })},
		MaxHandlers: 1, WebhookWait: time.Millisecond, Logger: discard})
	post := func(secret, body string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "/hook", strings.NewReader(body))
		if secret != "" {
			req.Header.Set("X-Telegram-Bot-Api-Secret-Token", secret)
		}
		rec := httptest.NewRecorder()
		in.Webhook("s3cret").ServeHTTP(rec, req)
		return rec
	}
	update := func(id int) string {
		return `{"update_id":` + strconv.Itoa(id) + `,"callback_query":{"id":"q","from":{"id":5,"is_bot":false,"first_name":"A"},"chat_instance":"1"}}`
	}
	for _, c := range []struct {
		secret, body string
		want         int
	}{{"", update(1), http.StatusUnauthorized}, {"wrong", update(1), http.StatusUnauthorized},
		{"s3cret", "{not json", http.StatusBadRequest}, {"s3cret", update(1), http.StatusOK}} {
		if rec := post(c.secret, c.body); rec.Code != c.want {
			t.Errorf("secret %q body %q: %d, want %d", c.secret, c.body, rec.Code, c.want)
		}
	}
	if id := <-h.started; id != 1 {
		t.Fatalf("handled update %d, want 1", id)
	}
	// The one handler is busy: 503 with Retry-After, not handled.
	if rec := post("s3cret", update(2)); rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" {
		t.Fatalf("busy: %d, Retry-After %q; want 503 with one", rec.Code, rec.Header().Get("Retry-After"))
	}
	if st := in.Stats(); st.Busy != 1 || st.Handled != 1 || st.Running != 1 {
		t.Fatalf("stats %+v, want 1 busy, 1 handled, 1 running", st)
	}
	// Shutdown waits for the update in flight, then the webhook refuses.
	shut := make(chan error)
	go func() { shut <- in.Shutdown(context.Background()) }()
	close(h.release)
	if err := <-shut; err != nil {
		t.Fatal(err)
	}
	if n := len(lines.lines(t, "update")); n != 1 {
		t.Fatalf("%d update log lines when Shutdown returned, want 1: it did not wait", n)
	}
	if rec := post("s3cret", update(3)); rec.Code != http.StatusServiceUnavailable {
		t.Fatalf("after shutdown: %d, want 503", rec.Code)
	}
	in.Process(context.Background(), tapUpdate(4, 5))
	if len(h.started) != 0 {
		t.Fatal("Process handled an update after Shutdown")
	}
}

// emptyAtOnce answers every getUpdates at once with nothing (or with err), as a proxy or a
// misbehaving server may, and ends the poll after calls calls, recording the virtual time of
// each.
type emptyAtOnce struct {
	clock *gametest.Clock
	err   error
	calls int
	stop  context.CancelFunc

	mu sync.Mutex
	at []time.Time
}

func (s *emptyAtOnce) DeleteWebhook(context.Context, *tgbot.DeleteWebhookParams) (bool, error) {
	return true, nil
}

func (s *emptyAtOnce) GetUpdates(_ context.Context, p botapi.GetUpdatesParams) ([]*models.Update, int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.at = append(s.at, s.clock.Now())
	if len(s.at) == s.calls {
		s.stop()
	}
	return nil, p.Offset, s.err
}

// A server that answers getUpdates at once with nothing, or with an error, is called a few
// times a second at most, and the log says so once.
func TestIntakePollRestsAfterEarlyEmptyAnswers(t *testing.T) {
	for _, tt := range []struct {
		name string
		err  error
	}{{"empty", nil}, {"error", errors.New("502 Bad Gateway")}} {
		t.Run(tt.name, func(t *testing.T) {
			// Every rest of the poll loop moves the virtual time on by its length, at once.
			clock := gametest.NewClock(time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC))
			clock.AutoAdvance()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			src := &emptyAtOnce{clock: clock, err: tt.err, calls: 60, stop: cancel}
			var lines logLines
			in := newIntake(intakeConfig{Source: src, Handler: func(context.Context, *models.Update) {},
				Logger: lines.logger(), Clock: clock})
			if err := in.Poll(ctx); err != nil {
				t.Fatal(err)
			}
			start := src.at[0]
			for i, at := range src.at {
				// Within any second after the first, a few calls at most.
				if i >= 4 && at.Sub(src.at[i-4]) < time.Second {
					t.Fatalf("calls %d-%d within %v (at %v after the first): no rest", i-4, i, at.Sub(src.at[i-4]), at.Sub(start))
				}
			}
			if last := src.at[len(src.at)-1].Sub(start); last < 60*time.Second {
				t.Fatalf("60 calls within %v: the loop does not rest long enough", last)
			}
			if text := strings.TrimSpace(lines.buf.String()); strings.Count(text, "\n") != 0 || text == "" {
				t.Fatalf("log for 60 bad answers:\n%s\nwant one line", text)
			}
		})
	}
}
