package botapi_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	tgbot "github.com/go-telegram/bot"

	"github.com/reversibot/reversi/bot/botapi"
)

// oneASecond is a budget of one call in any second.
var oneASecond = botapi.Limit{Rate: 1, Per: time.Second, Burst: 1}

// A call in flight holds its place in its chat's windows until Done, however long it takes to
// reach Telegram: the next call waits past the rate's interval for it, then a window from when
// it was answered.
func TestPaceCallInFlightHoldsItsPlace(t *testing.T) {
	c := newClock()
	p := newPacer(c, botapi.PaceLimits{Private: oneASecond})
	ctx := context.Background()
	chat := botapi.ChatOf(5)
	if _, err := p.Wait(ctx, chat, botapi.PaceBoard); err != nil { // on its way from now on
		t.Fatal(err)
	}
	c.Add(2 * time.Second) // within PaceOpenFor
	s := start(ctx, p, chat, botapi.PaceBoard)
	if next := c.AwaitTimers(t, 1, 1); !next.Equal(epoch.Add(3 * time.Second)) {
		t.Fatalf("a call behind one in flight waits until %v, want a window from now (3s)", next.Sub(epoch))
	}
	c.Add(time.Second)
	if next := c.AwaitTimers(t, 2, 1); !next.Equal(epoch.Add(4 * time.Second)) {
		t.Fatalf("with the first call still in flight the next waits until %v, want 4s", next.Sub(epoch))
	}
	c.Add(500 * time.Millisecond)
	if err := p.Done(ctx, chat, true); err != nil { // answered at 3.5s
		t.Fatal(err)
	}
	c.Add(500 * time.Millisecond)
	if next := c.AwaitTimers(t, 3, 1); !next.Equal(epoch.Add(4500 * time.Millisecond)) {
		t.Fatalf("the next call waits until %v, want a second after the answer (4.5s)", next.Sub(epoch))
	}
	c.Add(500 * time.Millisecond)
	if err := s.result(t); err != nil {
		t.Fatal(err)
	}
}

// A call that may or may not have reached Telegram (no reply came) counts as in flight for
// PaceOpenFor after it went, then as answered then.
func TestPaceUnansweredCallCountsForOpenFor(t *testing.T) {
	c := newClock()
	p := newPacer(c, botapi.PaceLimits{Private: oneASecond})
	ctx := context.Background()
	chat := botapi.ChatOf(6)
	if _, err := p.Wait(ctx, chat, botapi.PaceBoard); err != nil {
		t.Fatal(err)
	}
	if err := p.Done(ctx, chat, false); err != nil {
		t.Fatal(err)
	}
	// The next call looks again each window (a second) while the first counts as in flight,
	// then waits a window from when that one counts as answered.
	s := start(ctx, p, chat, botapi.PaceBoard)
	for made := 1; made <= int(botapi.PaceOpenFor/time.Second)+1; made++ {
		if s.done(t) {
			t.Fatalf("the next call went at %v", c.Now().Sub(epoch))
		}
		next := c.AwaitTimers(t, made, 1)
		c.Add(next.Sub(c.Now()))
	}
	if err := s.result(t); err != nil {
		t.Fatal(err)
	}
	if got, want := c.Now().Sub(epoch), botapi.PaceOpenFor+time.Second; got != want {
		t.Fatalf("the next call went at %v, want %v", got, want)
	}
}

// A unit paid for ahead (Pacer.Paid) and never used is given back when its caller is done: it
// no longer holds its place in the chat's windows.
func TestPacePaidGivenBackWhenUnused(t *testing.T) {
	c := newClock()
	b := &endRecorder{Budgets: botapi.NewLocalBudgets(c), ends: make(chan string, 4)}
	// Two in any second, one in any half second: the half-second window is the one a call in
	// flight would hold.
	p := botapi.NewPacer(botapi.PaceOptions{Clock: c, Budgets: b, Limits: botapi.PaceLimits{
		Private: botapi.Limit{Rate: 2, Per: time.Second, Burst: 1}, Global: botapi.Limit{Rate: -1}}})
	chat := botapi.ChatOf(7)
	if _, err := p.Wait(context.Background(), chat, botapi.PaceBoard); err != nil {
		t.Fatal(err)
	}
	_, giveBack := p.Paid(context.Background(), chat)
	giveBack() // the job that paid is done without sending
	select {
	case got := <-b.ends:
		if got != "p:7 given back" {
			t.Fatalf("End %s, want p:7 given back", got)
		}
	default:
		t.Fatal("the unused unit was not given back")
	}
	c.Add(500 * time.Millisecond) // the rate's interval
	mustWait(t, p, chat, botapi.PaceBoard)
}

// endRecorder is Budgets that tell ends of each End.
type endRecorder struct {
	botapi.Budgets
	ends chan string
}

func (r *endRecorder) End(ctx context.Context, key, id string, answered bool) error {
	err := r.Budgets.End(ctx, key, id, answered)
	what := "answered"
	if !answered {
		what = "given back"
	}
	r.ends <- key + " " + what
	return err
}

// The Client ends each call it paced once the reply came, a 429's too: they leave the window
// in time and the next calls need not wait.
func TestClientEndsEachCall(t *testing.T) {
	s := &scripted{t: t}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	c := newClock()
	two := botapi.Limit{Rate: 2, Per: time.Second, Burst: 2} // two in any second
	p := newPacer(c, botapi.PaceLimits{Private: two})
	api, err := botapi.New(botapi.Options{Token: testToken, ServerURL: srv.URL + "/", HTTPClient: srv.Client(), Pacer: p})
	if err != nil {
		t.Fatal(err)
	}
	s.then(http.StatusOK, edited).then(http.StatusTooManyRequests,
		`{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 1","parameters":{"retry_after":1}}`)
	ctx := botapi.WithPaceKind(context.Background(), botapi.PaceBoard) // boards: the whole burst
	if _, err := api.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: int64(7), Text: "a"}); err != nil {
		t.Fatal(err)
	}
	if _, err := api.Once().SendMessage(ctx, &tgbot.SendMessageParams{ChatID: int64(7), Text: "b"}); botapi.KindOf(err) != botapi.KindTooManyRequests {
		t.Fatalf("second send = %v, want the 429", err)
	}
	c.Add(time.Second) // the hold of the 429 and the window have passed
	s.then(http.StatusOK, edited).then(http.StatusOK, edited)
	done := make(chan error, 1)
	go func() {
		for _, text := range []string{"c", "d"} {
			if _, err := api.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: int64(7), Text: text}); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the next two sends still wait: the first two count as in flight")
	}
	if got := len(s.requests()); got != 4 {
		t.Fatalf("%d requests, want 4", got)
	}
}
