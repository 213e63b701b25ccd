package botapi_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"testing"
	"time"

	tgbot "github.com/go-telegram/bot"

	"github.com/reversibot/reversi/bot/botapi"
)

// Closing PaceOptions.Stop ends every Wait, the head of a chat's queue waiting for its budget
// and the one behind it, with ErrStopping, and every Wait after it at once.
func TestPaceStopEndsWaits(t *testing.T) {
	c := newClock()
	stop := make(chan struct{})
	p := botapi.NewPacer(botapi.PaceOptions{Clock: c, Stop: stop,
		Limits: botapi.PaceLimits{Private: botapi.Limit{Rate: 1, Per: time.Hour, Burst: 1}}})
	chat := botapi.ChatOf(11)
	mustWait(t, p, chat, botapi.PaceBoard)
	head := start(context.Background(), p, chat, botapi.PaceBoard)
	c.AwaitTimers(t, 1, 1) // the head waits an hour for the chat's budget
	behind := start(context.Background(), p, chat, botapi.PaceInfo)
	waitFor(t, "the info queued behind the board", func() bool { _, i := p.Waiting(chat); return i == 1 })
	close(stop)
	for name, s := range map[string]started{"head": head, "behind": behind} {
		if err := s.result(t); !errors.Is(err, botapi.ErrStopping) {
			t.Errorf("%s Wait after Stop = %v, want ErrStopping", name, err)
		}
	}
	if _, err := p.Wait(context.Background(), botapi.ChatOf(12), botapi.PaceTurn); !errors.Is(err, botapi.ErrStopping) {
		t.Errorf("a new Wait after Stop = %v, want ErrStopping", err)
	}
}

// Once Options.Stop is closed, a call that meets a 429 fails with it instead of waiting for
// its retry_after.
func TestRetryAfterNotWaitedWhenStopping(t *testing.T) {
	s := &scripted{t: t}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	stop := make(chan struct{})
	c, err := botapi.New(botapi.Options{Token: testToken, ServerURL: srv.URL + "/", HTTPClient: srv.Client(), Stop: stop})
	if err != nil {
		t.Fatal(err)
	}
	close(stop)
	s.then(429, `{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 30","parameters":{"retry_after":30}}`)
	s.then(200, edited)
	_, err = c.EditMessageText(context.Background(), &tgbot.EditMessageTextParams{ChatID: 7, MessageID: 5, Text: "x"})
	var tm *tgbot.TooManyRequestsError
	if !errors.As(err, &tm) {
		t.Fatalf("edit after a 429 while stopping = %v, want the 429", err)
	}
	if n := len(s.requests()); n != 1 {
		t.Errorf("%d requests, want 1 (no retry)", n)
	}
}

// waitFor checks cond every millisecond until it holds, failing t after 10 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: never happened", what)
		}
		time.Sleep(time.Millisecond)
	}
}
