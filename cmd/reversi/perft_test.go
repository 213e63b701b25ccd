package main

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/reversibot/reversi/engine"
)

// runPerftCmd runs the reversi tool with args and returns its exit code and output.
func runPerftCmd(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// perftLines checks that out has one line per depth 1…len(want), starting with the depth and the
// leaf count and followed by a leaves-per-second figure.
func perftLines(t *testing.T, out string, want []uint64) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(want) {
		t.Fatalf("got %d lines, want %d:\n%s", len(lines), len(want), out)
	}
	for i, line := range lines {
		f := strings.Fields(line)
		if len(f) < 4 || f[0] != strconv.Itoa(i+1) || f[1] != strconv.FormatUint(want[i], 10) || f[3] != "leaves/s" {
			t.Fatalf("line %d = %q, want %q followed by a rate in leaves/s", i+1, line, strconv.Itoa(i+1)+" "+strconv.FormatUint(want[i], 10))
		}
		if _, err := strconv.ParseFloat(f[2], 64); err != nil {
			t.Fatalf("line %d = %q: rate %q is not a number", i+1, line, f[2])
		}
	}
}

func TestPerftCommand(t *testing.T) {
	code, out, errOut := runPerftCmd("perft", "6")
	if code != 0 {
		t.Fatalf("reversi perft 6: exit %d, %s", code, errOut)
	}
	perftLines(t, out, []uint64{4, 12, 56, 244, 1396, 8200})

	// 4×4 to the end of every game, and the same from its start given as a board. The engine's
	// tests prove its counts; here they only check that the command passes the right position.
	var want4 []uint64
	for d := 1; d <= 12; d++ {
		want4 = append(want4, engine.Perft(engine.MustStart(4), d))
	}
	for _, args := range [][]string{
		{"perft", "-size", "4", "12"},
		{"perft", "-board", "-----OX--XO-----", "-side", "X", "12"},
		{"perft", "-board", ".....O*..*O.....", "-size", "4", "12"},
	} {
		code, out, errOut = runPerftCmd(args...)
		if code != 0 {
			t.Fatalf("reversi %v: exit %d, %s", args, code, errOut)
		}
		perftLines(t, out, want4)
	}

	// White to move after f5: the subtree of one of the four first moves has a quarter of the
	// leaves (the four are symmetric).
	code, out, _ = runPerftCmd("perft", "-board", "---------------------------OX------XXX--------------------------", "-side", "O", "5")
	if code != 0 {
		t.Fatal("perft after f5 failed")
	}
	perftLines(t, out, []uint64{3, 14, 61, 349, 2050})
}

func TestPerftCommandErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string // in the error output
	}{
		{[]string{"perft"}, "DEPTH"},
		{[]string{"perft", "1", "2"}, "DEPTH"},
		{[]string{"perft", "x"}, "DEPTH"},
		{[]string{"perft", "0"}, "DEPTH"},
		{[]string{"perft", "-size", "9", "3"}, "size"},
		{[]string{"perft", "-size", "x", "3"}, "invalid value"},
		{[]string{"perft", "-nope", "3"}, "not defined"},
		{[]string{"perft", "-board", "XO-", "3"}, "board"},
		{[]string{"perft", "-board", strings.Repeat("Z", 16), "3"}, "board"},
		{[]string{"perft", "-board", "-----OX--XO-----", "-side", "Q", "3"}, "side"},
		{[]string{"perft", "-board", "-----OX--XO-----", "-size", "8", "3"}, "size"},
		{[]string{"perft", "-side", "O", "3"}, "-side needs -board"},
	} {
		code, out, errOut := runPerftCmd(c.args...)
		if code != 2 || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("reversi %v: exit %d, stdout %q, stderr %q; want exit 2 and an error about %q", c.args, code, out, errOut, c.want)
		}
	}
	if code, _, errOut := runPerftCmd("perft", "-h"); code != 0 || !strings.Contains(errOut, "usage: reversi perft") {
		t.Errorf("reversi perft -h: exit %d, %q", code, errOut)
	}
}
