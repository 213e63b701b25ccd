package bot

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/reversibot/reversi/bot/optional"
)

// optionalFailed is the message optional.Guard logs when a kind of call starts failing.
const optionalFailed = "optional store call failed: its default is used until it answers"

// seenSet is a Deduper in memory.
type seenSet struct {
	seen map[int64]bool
	err  error
}

func (s *seenSet) FirstSeen(_ context.Context, id int64) (bool, error) {
	if s.err != nil {
		return false, s.err
	}
	if s.seen[id] {
		return false, nil
	}
	s.seen[id] = true
	return true, nil
}

func TestDedupeDropsRepeat(t *testing.T) {
	var c counter
	h := dedupe(&seenSet{seen: map[int64]bool{}}, optional.New(discard))(c.handle)
	if o := outcomeAfter(h, tapUpdate(7, 1)); o.name != outcomeOK || c.calls() != 1 {
		t.Fatalf("first delivery: outcome %s, %d calls; want ok, 1", o.name, c.calls())
	}
	if o := outcomeAfter(h, tapUpdate(7, 1)); o.name != outcomeDuplicate || c.calls() != 1 {
		t.Fatalf("repeat: outcome %s, %d calls; want duplicate, still 1", o.name, c.calls())
	}
	outcomeAfter(h, tapUpdate(8, 1))
	if c.calls() != 2 {
		t.Fatalf("another update: %d calls, want 2", c.calls())
	}
}

// A store that fails lets every update through (at least once rather than at most once), and
// the failure is logged once, not per update.
func TestDedupeFailingStore(t *testing.T) {
	var c counter
	var lines logLines
	h := dedupe(&seenSet{err: errors.New("redis down")}, optional.New(lines.logger()))(c.handle)
	for id := range int64(5) {
		if o := outcomeAfter(h, tapUpdate(id, 1)); o.name != outcomeOK {
			t.Fatalf("update %d: outcome %s, want ok", id, o.name)
		}
	}
	if c.calls() != 5 {
		t.Fatalf("%d calls, want 5", c.calls())
	}
	if n := len(lines.lines(t, optionalFailed)); n != 1 {
		t.Fatalf("%d log lines of the failure, want 1", n)
	}
}

// hangingSeen is a Deduper whose store never answers: FirstSeen returns when ctx ends.
type hangingSeen struct{}

func (hangingSeen) FirstSeen(ctx context.Context, _ int64) (bool, error) {
	<-ctx.Done()
	return false, ctx.Err()
}

// A store that does not answer holds an update no longer than the Guard's timeout, and the
// next updates not at all while the kind rests: they go through at once.
func TestDedupeHangingStore(t *testing.T) {
	var c counter
	h := dedupe(hangingSeen{}, optional.New(discard).WithTiming(time.Millisecond, time.Hour, nil))(c.handle)
	for id := range int64(3) {
		if o := outcomeAfter(h, tapUpdate(id+1, 1)); o.name != outcomeOK {
			t.Fatalf("update %d: outcome %s, want ok", id, o.name)
		}
	}
	if c.calls() != 3 {
		t.Fatalf("%d calls, want 3", c.calls())
	}
}
