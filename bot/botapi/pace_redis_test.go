package botapi_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/reversibot/reversi/bot/botapi"
	"github.com/reversibot/reversi/storage/storagetest"
)

// twoProcesses returns the Budgets of two bot processes on one Redis and prefix: the real Redis
// of REDIS_URL under a prefix of the test's, else an embedded one.
func twoProcesses(t *testing.T) (botapi.Budgets, botapi.Budgets) {
	t.Helper()
	a, b := storagetest.NewPair(t)
	return a.PaceBudgets(), b.PaceBudgets()
}

// Two Pacers on one Redis share a chat's budget and its hold after a 429; other chats have
// their own. The budget refills once an hour, so the test's budget is its burst.
func TestPaceSharedByProcessesOnRedis(t *testing.T) {
	ba, bb := twoProcesses(t)
	limits := botapi.PaceLimits{Group: botapi.Limit{Rate: 1, Per: time.Hour, Burst: 2}}
	ca, cb := newClock(), newClock()
	pa := botapi.NewPacer(botapi.PaceOptions{Limits: limits, Budgets: ba, Clock: ca})
	pb := botapi.NewPacer(botapi.PaceOptions{Limits: limits, Budgets: bb, Clock: cb})
	chat := botapi.ChatOf(-42)
	mustWait(t, pa, chat, botapi.PaceBoard)
	mustWait(t, pb, chat, botapi.PaceBoard)

	// The burst is spent by the two: the second process waits for the refill.
	ctx, cancel := context.WithCancel(context.Background())
	s := start(ctx, pb, chat, botapi.PaceBoard)
	if next := cb.AwaitTimers(t, 1, 1); next.Sub(epoch) < 50*time.Minute {
		t.Fatalf("the third send waits %v, want about the hour's refill", next.Sub(epoch))
	}
	cancel()
	if err := s.result(t); !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait = %v, want context.Canceled", err)
	}
	mustWait(t, pb, botapi.ChatOf(-43), botapi.PaceBoard)

	// A 429 seen by one process holds the chat in the other.
	other := botapi.ChatOf(-44)
	if err := pa.Throttled(context.Background(), other, 20*time.Second); err != nil {
		t.Fatal(err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	s = start(ctx, pb, other, botapi.PaceBoard)
	if next := cb.AwaitTimers(t, 2, 1); next.Sub(epoch) < 10*time.Second || next.Sub(epoch) > 20*time.Second {
		t.Fatalf("the held chat waits %v in the other process, want the 20s hold", next.Sub(epoch))
	}
	cancel()
	if err := s.result(t); !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait = %v, want context.Canceled", err)
	}
}
