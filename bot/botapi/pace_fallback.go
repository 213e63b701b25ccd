package botapi

import (
	"context"
	"time"

	"github.com/reversibot/reversi/bot/optional"
)

// FallbackBudgets are shared Budgets (storage.PaceBudgets) that a process can do without: each
// call to them is bounded and, when they fail or do not answer in time (a Redis node lost),
// this process's own LocalBudgets count it instead, so a send or an edit is still paced (by
// this process alone, with a 429 still guarding it) rather than made at once or held up. The
// local budgets note every unit the shared ones give too, so that when they take over they
// know this process's sends of the windows under way: one process stays exactly within the
// limits across the switch (several may overshoot by the others' sends).
type FallbackBudgets struct {
	shared Budgets
	local  *LocalBudgets
	guard  *optional.Guard
}

// NewFallbackBudgets returns shared with local as its fallback, their calls run by guard.
func NewFallbackBudgets(shared Budgets, local *LocalBudgets, guard *optional.Guard) *FallbackBudgets {
	return &FallbackBudgets{shared: shared, local: local, guard: guard}
}

// Take is Budgets.Take on the shared budgets, on the local ones when those fail. It never fails.
func (f *FallbackBudgets) Take(ctx context.Context, key, id string, rate int, per time.Duration, burst int) (time.Duration, error) {
	var wait time.Duration
	if f.guard.Do(ctx, "pace", func(ctx context.Context) (err error) {
		wait, err = f.shared.Take(ctx, key, id, rate, per, burst)
		return err
	}) {
		if wait <= 0 {
			f.local.Note(key, id, rate, per, burst)
		}
		return wait, nil
	}
	return f.local.Take(ctx, key, id, rate, per, burst)
}

// End is Budgets.End on both: the call may have been counted by either. It never fails.
func (f *FallbackBudgets) End(ctx context.Context, key, id string, answered bool) error {
	f.guard.Do(ctx, "pace", func(ctx context.Context) error { return f.shared.End(ctx, key, id, answered) })
	return f.local.End(ctx, key, id, answered)
}

// Hold is Budgets.Hold on both. It never fails.
func (f *FallbackBudgets) Hold(ctx context.Context, key string, d time.Duration) error {
	f.guard.Do(ctx, "pace", func(ctx context.Context) error { return f.shared.Hold(ctx, key, d) })
	return f.local.Hold(ctx, key, d)
}
