package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestMatchSlowReport plays two quick games and checks the summary line and that -slow names
// every move slower than its threshold (1 ns: every move) with its CPU time.
func TestMatchSlowReport(t *testing.T) {
	var out, errb bytes.Buffer
	if code := runMatch([]string{"-a", "2", "-b", "1", "-games", "2", "-slow", "1ns"}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "level 2 vs level 1 on 8x8:") {
		t.Errorf("stdout = %q, want the match summary", out.String())
	}
	lines := strings.Split(strings.TrimSpace(errb.String()), "\n")
	if len(lines) < 20 {
		t.Fatalf("%d slow-move lines, want one per move", len(lines))
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "slow move: level ") || !strings.Contains(l, "process CPU time") {
			t.Fatalf("bad line %q", l)
		}
	}
}

// TestMatchEvals plays one evaluation against the other and checks that the summary names
// them, and that an unknown evaluation is refused.
func TestMatchEvals(t *testing.T) {
	var out, errb bytes.Buffer
	if code := runMatch([]string{"-a", "3", "-b", "3", "-eval-a", "pattern", "-eval-b", "linear", "-games", "2"}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if want := "level 3 (pattern eval) vs level 3 (linear eval) on 8x8:"; !strings.Contains(out.String(), want) {
		t.Errorf("stdout = %q, want %q", out.String(), want)
	}
	out.Reset()
	if code := runMatch([]string{"-eval-a", "neural"}, nil, &out, &errb); code != 2 {
		t.Errorf("-eval-a neural: exit %d, want 2", code)
	}
}

// TestMatchMPCFlags checks that the summary names a player without the selective search and
// one with another threshold, and that a negative threshold is refused.
func TestMatchMPCFlags(t *testing.T) {
	var out, errb bytes.Buffer
	if code := runMatch([]string{"-a", "3", "-b", "3", "-mpc-t", "1", "-mpc-b=false", "-games", "2"}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if want := "level 3 (MPC t=1) vs level 3 (no MPC) on 8x8:"; !strings.Contains(out.String(), want) {
		t.Errorf("stdout = %q, want %q", out.String(), want)
	}
	if code := runMatch([]string{"-mpc-t", "-1"}, nil, &out, &errb); code != 2 {
		t.Errorf("-mpc-t -1: exit %d, want 2", code)
	}
}
