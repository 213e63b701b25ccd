package ai

import (
	"bufio"
	"context"
	"flag"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reversibot/reversi/engine"
)

var (
	ffoFlag  = flag.Bool("ffo", false, "solve the full FFO suites named by -ffo.files (slow)")
	ffoFiles = flag.String("ffo.files", "ffo40-49.txt", "comma-separated files of testdata that -ffo solves")
	ffoOnly  = flag.String("ffo.only", "", "comma-separated FFO numbers that -ffo solves (default: all)")
)

// ffoCase is one line of testdata/ffo40-49.txt.
type ffoCase struct {
	name  string
	pos   engine.Position
	score int
	best  []engine.Square
}

func loadFFO(t testing.TB) []ffoCase { return loadFFOFile(t, "ffo40-49.txt") }

// loadFFOFile reads a file of testdata in the format of ffo40-49.txt.
func loadFFOFile(t testing.TB, name string) []ffoCase {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []ffoCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) < 5 {
			t.Fatalf("bad line %q", line)
		}
		p, err := engine.ParsePosition(fields[0] + " " + fields[1])
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		score, err := strconv.Atoi(fields[2])
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		c := ffoCase{name: "ffo" + strings.TrimPrefix(fields[4], "#"), pos: p, score: score}
		for _, m := range strings.Split(fields[3], ",") {
			sq, err := engine.ParseSquare(m)
			if err != nil {
				t.Fatalf("%q: %v", line, err)
			}
			c.best = append(c.best, sq)
		}
		out = append(out, c)
	}
	return out
}

func TestFFOFull(t *testing.T) {
	if !*ffoFlag {
		t.Skip("run with -ffo to solve FFO #40-#49 (and -ffo.files ffo40-49.txt,ffo50-59.txt for #50-#59)")
	}
	var cases []ffoCase
	for _, name := range strings.Split(*ffoFiles, ",") {
		cases = append(cases, loadFFOFile(t, name)...)
	}
	only := map[string]bool{}
	for _, n := range strings.Split(*ffoOnly, ",") {
		if n != "" {
			only["ffo"+n] = true
		}
	}
	for _, c := range cases {
		if len(only) > 0 && !only[c.name] {
			continue
		}
		start := time.Now()
		r, err := SolveStats(context.Background(), c.pos)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		t.Logf("%s: %v %+d  %d nodes  %v", c.name, r.Move, r.Score/100, r.Nodes, time.Since(start))
		if r.Score/100 != c.score {
			t.Errorf("%s: score %+d, want %+d", c.name, r.Score/100, c.score)
		}
		ok := false
		for _, b := range c.best {
			ok = ok || b == r.Move
		}
		if !ok {
			t.Errorf("%s: best move %v, want one of %v", c.name, r.Move, c.best)
		}
	}
}

// TestFFOQuick solves the quickest FFO positions besides #40 (which TestFFO40Line solves) in
// the normal test run (not under -race, where TestFFO40Line and TestSolverAgainstMinimax
// cover the solver): the exact published score and one of the published best moves.
func TestFFOQuick(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("solves FFO #44 (23 empties): about a second, but tens of seconds under -race")
	}
	for _, c := range loadFFO(t) {
		if c.name != "ffo44" {
			continue
		}
		best, score, err := Solve(context.Background(), c.pos)
		if err != nil {
			t.Fatal(err)
		}
		if score != c.score || !slices.Contains(c.best, best) {
			t.Errorf("%s: %v %+d, want %+d by one of %v", c.name, best, score, c.score, c.best)
		}
	}
}

// ffo40Line is the principal variation of FFO #40 (black scores +38), as given with the
// position in the source named in testdata/ffo40-49.txt; "pass" is white's pass.
const ffo40Line = "a2 b1 c1 pass b6 c7 a7 b7 b8 d7 f8 c6 f7 g7"

// TestFFO40Line solves positions along FFO #40's best line: each must keep the published
// score (+38 for black), and the solver's move must keep it too. Under -ffo or without -short
// it also solves #40 itself.
func TestFFO40Line(t *testing.T) {
	c := loadFFO(t)[0]
	p := c.pos
	plies := strings.Fields(ffo40Line)
	for i, m := range plies {
		sq, err := engine.ParseSquare(m)
		if err != nil {
			t.Fatal(err)
		}
		if p, _, err = p.Play(sq); err != nil {
			t.Fatalf("ply %d %s: %v", i+1, m, err)
		}
		if i+1 < 5 {
			continue // the first positions are as slow as #40 itself
		}
		want := c.score
		if p.Side() != engine.Black {
			want = -want
		}
		if p.GameOver() {
			continue
		}
		best, score, err := Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if score != want {
			t.Errorf("after %s: score %+d, want %+d", strings.Join(plies[:i+1], " "), score, want)
		}
		if q, _, err := p.Play(best); err != nil {
			t.Errorf("best move %v: %v", best, err)
		} else if _, s2, err := Solve(context.Background(), q); err == nil && !q.GameOver() && -s2 != want {
			t.Errorf("after %s: move %v scores %+d, want %+d", strings.Join(plies[:i+1], " "), best, -s2, want)
		}
	}
	if testing.Short() {
		return
	}
	best, score, err := Solve(context.Background(), c.pos)
	if err != nil {
		t.Fatal(err)
	}
	if score != c.score || best != c.best[0] {
		t.Errorf("FFO #40: %v %+d, want %v %+d", best, score, c.best[0], c.score)
	}
}

func BenchmarkSolveFFO40After4(b *testing.B) {
	c := loadFFO(b)[0]
	p := c.pos
	for _, m := range strings.Fields(ffo40Line)[:4] {
		sq, _ := engine.ParseSquare(m)
		p, _, _ = p.Play(sq)
	}
	b.ReportAllocs()
	var nodes uint64
	for i := 0; i < b.N; i++ {
		r, err := SolveStats(context.Background(), p)
		if err != nil || r.Score/100 != 38 {
			b.Fatalf("%v %v", r.Score, err)
		}
		nodes += r.Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds()/1e6, "Mnodes/s")
}
