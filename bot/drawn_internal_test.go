package bot

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reversibot/reversi/bot/optional"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/game/gametest"
)

// hangingDrawings is a drawn record whose node is lost: each call waits until its context ends.
type hangingDrawings struct{ calls atomic.Int32 }

func (h *hangingDrawings) BeginDraw(ctx context.Context, _ string, _ game.Drawing, _ time.Duration) (game.DrawStart, error) {
	h.calls.Add(1)
	<-ctx.Done()
	return game.DrawStart{}, ctx.Err()
}

func (h *hangingDrawings) EndDraw(ctx context.Context, _ string, _ game.Drawing, _ game.DrawEnd, _ string) (bool, error) {
	h.calls.Add(1)
	<-ctx.Done()
	return false, ctx.Err()
}

// A board edit does not wait on a drawn record that stops answering: the first call gives up
// at the guard's timeout with an error (the Editor then edits without the record), and while
// the record rests later calls fail at once without reaching it.
func TestDrawnRecordThatHangsIsSkipped(t *testing.T) {
	rec := &hangingDrawings{}
	clock := gametest.NewClock(time.Unix(0, 0))
	guard := optional.New(nil).WithTiming(time.Millisecond, time.Minute, clock.Now)
	d := guardedDrawings{record: rec, guard: guard}
	ctx := context.Background() // no deadline: only the guard bounds the call
	if _, err := d.BeginDraw(ctx, "m", game.Drawing{Game: "g", Version: 1}, time.Second); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("BeginDraw on a hanging record: %v, want the guard's deadline", err)
	}
	for range 3 {
		if _, err := d.BeginDraw(ctx, "m", game.Drawing{Game: "g", Version: 2}, time.Second); !errors.Is(err, errRecordResting) {
			t.Fatalf("BeginDraw while the record rests: %v, want %v", err, errRecordResting)
		}
		if _, err := d.EndDraw(ctx, "m", game.Drawing{Game: "g", Version: 2}, game.DrawSent, "h"); !errors.Is(err, errRecordResting) {
			t.Fatalf("EndDraw while the record rests: %v, want %v", err, errRecordResting)
		}
	}
	if n := rec.calls.Load(); n != 1 {
		t.Fatalf("the resting record was called %d times, want once", n)
	}
	clock.Add(2 * time.Minute) // the rest is over: the record is tried again
	if _, err := d.EndDraw(ctx, "m", game.Drawing{Game: "g", Version: 2}, game.DrawSent, "h"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("EndDraw after the rest: %v, want the guard's deadline", err)
	}
	if n := rec.calls.Load(); n != 2 {
		t.Fatalf("the record was called %d times after its rest, want twice in all", n)
	}
}
