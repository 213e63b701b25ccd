package botapi_test

import (
	"context"
	"errors"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reversibot/reversi/bot/botapi"
	"github.com/reversibot/reversi/bot/optional"
)

// failingBudgets are shared budgets that work until down is set, then fail every call.
type failingBudgets struct {
	botapi.Budgets
	down atomic.Bool
}

var errNodeLost = errors.New("node lost")

func (f *failingBudgets) Take(ctx context.Context, key, id string, rate int, per time.Duration, burst int) (time.Duration, error) {
	if f.down.Load() {
		return 0, errNodeLost
	}
	return f.Budgets.Take(ctx, key, id, rate, per, burst)
}

func (f *failingBudgets) End(ctx context.Context, key, id string, answered bool) error {
	if f.down.Load() {
		return errNodeLost
	}
	return f.Budgets.End(ctx, key, id, answered)
}

// When the shared budgets fail in the middle of a window, the local ones that take over know
// the sends the shared ones allowed in it: one process stays within a group's twenty edits a
// minute across the switch, where before the local budgets let twenty more through at once.
func TestFallbackBudgetsKnowTheWindowUnderWay(t *testing.T) {
	clock := newClock()
	shared := &failingBudgets{Budgets: botapi.NewLocalBudgets(clock)}
	guard := optional.New(nil).WithTiming(time.Second, time.Minute, clock.Now)
	f := botapi.NewFallbackBudgets(shared, botapi.NewLocalBudgets(clock), guard)
	ctx := context.Background()
	const key, rate, burst = "g:-100", 20, 20
	per := time.Minute
	sent := 0
	take := func(i int) bool {
		t.Helper()
		id := strconv.Itoa(i)
		wait, err := f.Take(ctx, key, id, rate, per, burst)
		if err != nil {
			t.Fatalf("Take: %v", err)
		}
		if wait > 0 {
			return false
		}
		if err := f.End(ctx, key, id, true); err != nil {
			t.Fatalf("End: %v", err)
		}
		sent++
		return true
	}
	for i := range 15 { // fifteen edits while the shared budgets answer
		if !take(i) {
			t.Fatalf("edit %d of 15 refused by a budget of 20", i)
		}
		clock.Add(time.Second)
	}
	shared.down.Store(true) // the node holding them is lost
	for i := 15; i < 40; i++ {
		take(i)
	}
	if sent != 20 {
		t.Fatalf("%d edits within a minute across the switch, want the limit's 20", sent)
	}
}
