package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/reversibot/reversi/engine"
)

// ffo40 is FFO position #40 (black to move, +38 with a2); see engine/ai/testdata.
const ffo40 = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X"

// TestSolveCommand feeds positions along FFO #40's best line to "reversi solve": each line of
// output must give the published score from the side to move's view, and bad lines are
// reported without stopping the run.
func TestSolveCommand(t *testing.T) {
	p, err := engine.ParsePosition(ffo40)
	if err != nil {
		t.Fatal(err)
	}
	var in strings.Builder
	var want []int
	in.WriteString("# a comment\n\n")
	for i, m := range strings.Fields("a2 b1 c1 pass b6 c7 a7 b7 b8 d7 f8 c6") {
		sq, _ := engine.ParseSquare(m)
		if p, _, err = p.Play(sq); err != nil {
			t.Fatal(err)
		}
		if i >= 6 {
			fmt.Fprintf(&in, "%s trailing words are ignored\n", p)
			if p.Side() == engine.Black {
				want = append(want, 38)
			} else {
				want = append(want, -38)
			}
		}
	}
	in.WriteString("not a position\n")
	var out, errs bytes.Buffer
	code := run([]string{"solve"}, strings.NewReader(in.String()), &out, &errs)
	if code != 1 {
		t.Errorf("exit %d, want 1 for the bad line", code)
	}
	if !strings.Contains(errs.String(), "line") {
		t.Errorf("stderr %q does not name the bad line", errs.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != len(want) {
		t.Fatalf("%d lines %q, want %d", len(lines), out.String(), len(want))
	}
	for i, l := range lines {
		f := strings.Fields(l)
		if len(f) < 2 || f[1] != fmt.Sprintf("%+d", want[i]) {
			t.Errorf("line %d = %q, want score %+d", i+1, l, want[i])
		}
		if _, err := engine.ParseSquare(f[0]); err != nil {
			t.Errorf("line %d = %q: %v", i+1, l, err)
		}
	}
}

func TestMatchCommand(t *testing.T) {
	var out, errs bytes.Buffer
	if code := run([]string{"match", "-a", "2", "-b", "1", "-games", "4", "-size", "6"}, nil, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	var w, d, l int
	if _, err := fmt.Sscanf(out.String(), "level 2 vs level 1 on 6x6: %d wins, %d draws, %d losses", &w, &d, &l); err != nil || w+d+l != 4 {
		t.Errorf("output %q (%v)", out.String(), err)
	}
	if code := run([]string{"match", "-a", "9"}, nil, &out, &errs); code != 2 {
		t.Errorf("bad level: exit %d, want 2", code)
	}
}

func TestPlayCommand(t *testing.T) {
	var out, errs bytes.Buffer
	// The player (black) tries an illegal move, asks for a hint, plays, undoes, then quits.
	in := "a1\nhint\nd3\nundo\nquit\n"
	if code := run([]string{"play", "-level", "2", "-seed", "1"}, strings.NewReader(in), &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	s := out.String()
	for _, want := range []string{"illegal", "hint: ", "AI (novice) plays"} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
}
