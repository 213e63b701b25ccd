package boards

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// A warning that comes with every edit is logged once, then left out for a while.
func TestWarnEveryLeavesOutRepeats(t *testing.T) {
	var buf bytes.Buffer
	l := slog.New(slog.NewTextHandler(&buf, nil))
	var w warnEvery
	for range 100 {
		w.log(l, "board style", "user", 1)
	}
	if n := strings.Count(buf.String(), "board style"); n != 1 {
		t.Fatalf("100 warnings within a minute logged %d lines, want 1:\n%s", n, buf.String())
	}
	if got := w.skipped.Load(); got != 99 {
		t.Fatalf("left out %d, want 99", got)
	}
	w.last.Store(1) // a line long ago: the next goes out and says how many were left out
	w.log(l, "board style", "user", 1)
	if !strings.Contains(buf.String(), "left_out=99") {
		t.Fatalf("the line after a gap does not say how many were left out:\n%s", buf.String())
	}
}
