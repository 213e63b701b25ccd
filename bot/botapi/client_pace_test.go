package botapi_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	tgbot "github.com/go-telegram/bot"

	"github.com/reversibot/reversi/bot/botapi"
	"github.com/reversibot/reversi/game/gametest"
)

// newPaced starts a scripted server and a Client of it paced by a Pacer on a virtual clock, every
// chat's budget one call then one a second.
func newPaced(t *testing.T) (*botapi.Client, *scripted, *gametest.Clock, *botapi.Pacer) {
	t.Helper()
	s := &scripted{t: t}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	c := newClock()
	one := botapi.Limit{Rate: 1, Per: time.Second, Burst: 1}
	p := newPacer(c, botapi.PaceLimits{Private: one, Group: one, Inline: one})
	api, err := botapi.New(botapi.Options{Token: testToken, ServerURL: srv.URL + "/", HTTPClient: srv.Client(),
		Pacer: p})
	if err != nil {
		t.Fatal(err)
	}
	return api, s, c, p
}

// A send and an edit into a chat whose budget is spent wait for it; other methods and other
// chats do not.
func TestClientPacesSendsAndEdits(t *testing.T) {
	api, s, c, _ := newPaced(t)
	s.then(http.StatusOK, edited).then(http.StatusOK, `{"ok":true,"result":true}`).then(http.StatusOK, edited).then(http.StatusOK, edited)
	ctx := context.Background()
	if _, err := api.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: int64(7), Text: "a"}); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := api.EditMessageText(ctx, &tgbot.EditMessageTextParams{ChatID: int64(7), MessageID: 5, Text: "b"})
		done <- err
	}()
	if next := c.AwaitTimers(t, 1, 1); !next.Equal(epoch.Add(time.Second)) {
		t.Fatalf("the edit waits until %v, want 1s", next.Sub(epoch))
	}
	// Meanwhile an answer and a send into another chat go at once.
	if _, err := api.AnswerCallbackQuery(ctx, &tgbot.AnswerCallbackQueryParams{CallbackQueryID: "q"}); err != nil {
		t.Fatal(err)
	}
	if _, err := api.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: int64(-8), Text: "c"}); err != nil {
		t.Fatal(err)
	}
	if got := len(s.requests()); got != 3 {
		t.Fatalf("%d requests before the edit's second, want 3 (the edit waits)", got)
	}
	c.Add(time.Second)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := s.requests()[3].method; got != "editMessageText" {
		t.Fatalf("fourth request %s, want the edit", got)
	}
}

// A context that paid for a chat (Pacer.Paid) makes its first call into that chat without
// waiting, and only the first.
func TestClientWithPaidSkipsOneWait(t *testing.T) {
	api, s, c, p := newPaced(t)
	ctx := context.Background()
	chat := botapi.InlineOf("in1")
	if _, err := p.Wait(ctx, chat, botapi.PaceTurn); err != nil {
		t.Fatal(err)
	}
	paid, giveBack := p.Paid(ctx, chat)
	defer giveBack()
	if _, err := api.EditMessageText(paid, &tgbot.EditMessageTextParams{InlineMessageID: "in1", Text: "x"}); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := api.EditMessageText(paid, &tgbot.EditMessageTextParams{InlineMessageID: "in1", Text: "y"})
		done <- err
	}()
	c.AwaitTimers(t, 1, 1) // the second call waits: the unit was used
	if got := len(s.requests()); got != 1 {
		t.Fatalf("%d requests, want 1", got)
	}
	c.Add(time.Second)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// A 429 that comes despite the pacing holds that chat's budget for retry_after, in the Pacer
// every caller shares, and no other chat's.
func TestClient429HoldsTheChat(t *testing.T) {
	api, s, c, p := newPaced(t)
	s.then(http.StatusTooManyRequests,
		`{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 9","parameters":{"retry_after":9}}`)
	ctx := context.Background()
	if _, err := api.Once().SendMessage(ctx, &tgbot.SendMessageParams{ChatID: int64(-3), Text: "a"}); botapi.KindOf(err) != botapi.KindTooManyRequests {
		t.Fatalf("send = %v, want the 429", err)
	}
	c.Add(2 * time.Second) // the chat's own budget is full again: only the hold is left
	done := make(chan error, 1)
	go func() {
		_, err := p.Wait(ctx, botapi.ChatOf(-3), botapi.PaceTurn)
		done <- err
	}()
	if next := c.AwaitTimers(t, 1, 1); !next.Equal(epoch.Add(9 * time.Second)) {
		t.Fatalf("the held chat waits until %v, want retry_after's 9s", next.Sub(epoch))
	}
	if _, err := p.Wait(ctx, botapi.ChatOf(-4), botapi.PaceTurn); err != nil {
		t.Fatal(err)
	}
	c.Add(7 * time.Second)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// A call whose context ends while it waits for its budget is not made.
func TestClientPaceCancelled(t *testing.T) {
	api, s, c, _ := newPaced(t)
	s.then(http.StatusOK, edited)
	if _, err := api.SendMessage(context.Background(), &tgbot.SendMessageParams{ChatID: int64(7), Text: "a"}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := api.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: int64(7), Text: "b"})
		done <- err
	}()
	c.AwaitTimers(t, 1, 1)
	cancel()
	if err := <-done; botapi.KindOf(err) != botapi.KindNetwork {
		t.Fatalf("cancelled send = %v, want a network-kind error", err)
	}
	if got := len(s.requests()); got != 1 {
		t.Fatalf("%d requests, want only the first send", got)
	}
}
