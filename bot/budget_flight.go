package bot

import (
	"context"

	"github.com/reversibot/reversi/bot/botapi"
)

// A flight is one admitted update of a user, from admission until its handler ends. It
// counts against the user's Budget.InFlight while it works, and not while it waits for a
// chat's flood limits (its paced hook, called by botapi.Pacer.Wait through the handler's
// context): an update waiting for its turn to send does no work, and must not keep the
// user's next tap out. When the wait ends it counts again, even over the bound (it is
// already under way); the bound holds for updates yet to be admitted. Its methods are safe
// for concurrent use (the sends of one handler may wait at once).
type flight struct {
	users *userBudgets
	s     *userBudget
	// waits are the update's waits for pacing under way, ended whether the flight ended;
	// both are guarded by the lock of s's shard.
	waits int
	ended bool
}

// paced is the flight's botapi.PaceHook: while one of its waits or more are under way the
// update counts as waiting, not in flight. A flight that ended is past counting.
func (f *flight) paced() func() {
	sh := f.users.shard(f.s.id)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if f.ended {
		return nil
	}
	if f.waits == 0 {
		f.s.inFlight--
		f.s.pacing++
	}
	f.waits++
	return f.resumed
}

// resumed ends one wait of the flight: with the last, the update counts in flight again.
func (f *flight) resumed() {
	sh := f.users.shard(f.s.id)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if f.ended || f.waits == 0 {
		return
	}
	f.waits--
	if f.waits == 0 {
		f.s.pacing--
		f.s.inFlight++
	}
}

// end ends the flight (its handler returned): it no longer counts at all. Only the first
// call counts.
func (f *flight) end() {
	sh := f.users.shard(f.s.id)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if f.ended {
		return
	}
	f.ended = true
	if f.waits > 0 {
		f.s.pacing--
	} else {
		f.s.inFlight--
	}
}

// flightKey is the context key of an admitted update's flight.
type flightKey struct{}

// withFlight returns ctx carrying f, and f's hook for the pacing of the sends and edits made
// with it (ctx itself when f is nil).
func withFlight(ctx context.Context, f *flight) context.Context {
	if f == nil {
		return ctx
	}
	return botapi.WithPaceHook(context.WithValue(ctx, flightKey{}, f), f.paced)
}

// flightOf returns the flight in ctx, nil when none.
func flightOf(ctx context.Context) *flight {
	f, _ := ctx.Value(flightKey{}).(*flight)
	return f
}
