package bot

import (
	"context"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/botapi"
	"github.com/reversibot/reversi/game/gametest"
)

// shutBudgets are pace budgets that never have room: each Take is told on took and says to
// wait an hour.
type shutBudgets struct{ took chan string }

func (b shutBudgets) Take(_ context.Context, key, _ string, _ int, _ time.Duration, _ int) (time.Duration, error) {
	b.took <- key
	return time.Hour, nil
}

func (shutBudgets) End(context.Context, string, string, bool) error { return nil }

func (shutBudgets) Hold(context.Context, string, time.Duration) error { return nil }

// One user's updates that wait for their chats' pacing do not count against the user's
// InFlight: the whole burst of the budget is taken, one update after the other, while every
// one before waits (it used to stop at InFlight, the rest refused as over budget).
func TestIntakePacingIsNotInFlight(t *testing.T) {
	budgets := shutBudgets{took: make(chan string)}
	pacer := botapi.NewPacer(botapi.PaceOptions{Budgets: budgets, Clock: gametest.NewClock(t0)})
	handler := func(ctx context.Context, u *models.Update) {
		_, _ = pacer.Wait(ctx, botapi.ChatOf(u.ID), botapi.PaceInfo) // a chat of its own: it asks the budgets at once
	}
	g := newBudget(DefaultBudget, nil, func(context.Context, *models.Update) error { return nil },
		gametest.NewClock(t0).Now, discard, nil, func(err error) string { return err.Error() })
	in := newIntake(intakeConfig{Handler: handler, Budget: g, Logger: discard})
	t.Cleanup(func() { // end the waits
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := in.Shutdown(ctx); err != context.Canceled {
			t.Errorf("Shutdown: %v", err)
		}
	})
	for i := 1; i <= DefaultBudget.Burst; i++ {
		in.dispatch(context.Background(), tapUpdate(int64(i), 5))
		if st := in.Stats(); st.OverBudget != 0 {
			t.Fatalf("update %d of one user refused while the %d before it wait for pacing (InFlight %d)",
				i, i-1, DefaultInFlight)
		}
		<-budgets.took // its handler waits for pacing now
	}
}
