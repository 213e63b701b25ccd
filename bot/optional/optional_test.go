package optional_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/reversibot/reversi/bot/optional"
	"github.com/reversibot/reversi/game/gametest"
)

// A kind that fails is skipped (its default used) until its rest has passed, another kind is
// not, and a call that does not answer ends at the timeout.
func TestGuard(t *testing.T) {
	clock := gametest.NewClock(time.Unix(0, 0))
	g := optional.New(nil).WithTiming(time.Millisecond, time.Second, clock.Now)
	ctx := context.Background()
	calls := 0
	fail := func(context.Context) error { calls++; return errors.New("down") }
	ok := func(context.Context) error { calls++; return nil }
	if g.Do(ctx, "a", fail) || calls != 1 {
		t.Fatalf("failing call: calls %d", calls)
	}
	if g.Do(ctx, "a", ok) || calls != 1 {
		t.Fatalf("kind a resting: called anyway (%d)", calls)
	}
	if !g.Do(ctx, "b", ok) || calls != 2 {
		t.Fatalf("kind b: calls %d", calls)
	}
	clock.Add(time.Second)
	if !g.Do(ctx, "a", ok) || calls != 3 {
		t.Fatalf("kind a after its rest: calls %d", calls)
	}
	if g.Do(ctx, "c", func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() }) {
		t.Fatal("a call that never answers succeeded")
	}
}
