package telegram

import (
	"context"
	"errors"
	"testing"
)

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
	h := dedupe(&seenSet{seen: map[int64]bool{}}, discard)(c.handle)
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

// A store that fails lets the update through (the handler tells the user), and one without an
// id is never checked.
func TestDedupeFailingStore(t *testing.T) {
	var c counter
	var lines logLines
	h := dedupe(&seenSet{err: errors.New("redis down")}, lines.logger())(c.handle)
	outcomeAfter(h, tapUpdate(7, 1))
	outcomeAfter(h, tapUpdate(0, 1))
	if c.calls() != 2 {
		t.Fatalf("%d calls, want 2", c.calls())
	}
	if n := len(lines.lines(t, "dedupe")); n != 1 {
		t.Fatalf("%d dedupe log lines, want 1 (the update with an id)", n)
	}
}
