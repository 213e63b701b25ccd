package bot_test

import (
	"context"
	"sync"
	"time"

	"github.com/reversibot/reversi/bot/botapi"
)

// paceGate is the bot's pace budgets with a gate per chat: while a chat's gate is shut its
// budget has no room, as when Telegram holds it, and every send or edit into it waits in the
// bot's queue for that chat; opened, the budgets count as before. It lets a test keep messages
// waiting for as long as it needs, whatever the speed of the machine.
type paceGate struct {
	inner botapi.Budgets
	mu    sync.Mutex
	shut  map[string]bool
}

// gatePoll is how soon a waiter at a shut gate looks again.
const gatePoll = 2 * time.Millisecond

// withPaceGate has the bot count its pace budgets through the gate *g (made here).
func withPaceGate(g **paceGate) func(*options) {
	gate := &paceGate{shut: map[string]bool{}}
	*g = gate
	return func(o *options) {
		o.WrapPace = func(b botapi.Budgets) botapi.Budgets {
			gate.mu.Lock()
			defer gate.mu.Unlock()
			gate.inner = b
			return gate
		}
	}
}

// set shuts (true) or opens the gate of the private chat or group chat.
func (g *paceGate) set(chat int64, shut bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.shut[botapi.ChatOf(chat).String()] = shut
}

// Take refuses a shut chat's budget, and takes from the budgets otherwise.
func (g *paceGate) Take(ctx context.Context, key, id string, rate int, per time.Duration, burst int) (time.Duration, error) {
	g.mu.Lock()
	shut, b := g.shut[key], g.inner
	g.mu.Unlock()
	if shut {
		return gatePoll, nil
	}
	return b.Take(ctx, key, id, rate, per, burst)
}

// End ends the call in the budgets.
func (g *paceGate) End(ctx context.Context, key, id string, answered bool) error {
	g.mu.Lock()
	b := g.inner
	g.mu.Unlock()
	return b.End(ctx, key, id, answered)
}

// Hold holds the budget key in the budgets.
func (g *paceGate) Hold(ctx context.Context, key string, d time.Duration) error {
	g.mu.Lock()
	b := g.inner
	g.mu.Unlock()
	return b.Hold(ctx, key, d)
}
