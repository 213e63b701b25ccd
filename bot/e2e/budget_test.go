package e2e_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/reversibot/reversi/bot"
)

// TestTwoBotsShareBudget: one user's updates alternate between two bot processes on one
// Redis. Each process's own budget would let a burst through in each; the budget in Redis
// holds for both together.
func TestTwoBotsShareBudget(t *testing.T) {
	// A refill of one an hour, and a toast an hour: the budget is the burst, and the toasts
	// one per process, whatever the time the test takes.
	budget := bot.Budget{Rate: 1, Per: time.Hour, Burst: 10, TapNoticeEvery: time.Hour}
	c := newClusterWith(t, redisURL(t), func(n int64) []int { return []int{int(n % 2)} },
		func(i int, o *bot.Options) { healthyRedis(i, o); o.Budget = budget })
	u := c.user("Flooder") // one update of the budget: /help
	var qids []string
	for i := range 60 {
		q, err := u.PressData(u.ID(), 1, fmt.Sprintf("junk-%d", i))
		if err != nil {
			t.Fatal(err)
		}
		qids = append(qids, q)
	}
	if err := c.srv.WaitIdle(guard(t)); err != nil {
		t.Fatalf("updates not taken: %v", err)
	}
	c.stop() // every update delivered and handled
	handled, toasts := 0, 0
	for _, q := range qids {
		a, ok := c.srv.CallbackAnswer(q)
		switch {
		case !ok || !a.Answered:
		case strings.Contains(a.Text, "Slow down"):
			toasts++
		default:
			handled++
		}
	}
	var over int64
	for _, b := range c.bots {
		over += b.Intake().OverBudget
	}
	t.Logf("60 taps over two processes: %d handled, %d slow down, %d refused", handled, toasts, over)
	if handled > budget.Burst-1 {
		t.Errorf("%d taps handled by the two processes; want at most the one budget's %d", handled, budget.Burst-1)
	}
	if toasts < 1 || toasts > 2 {
		t.Errorf("%d slow-down toasts; want one or two (one per process's notice window)", toasts)
	}
}
