package ai

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/reversibot/reversi/engine"
)

var updateSearchGolden = flag.Bool("update-search", false, "rewrite testdata/search8-golden.txt and searchn-golden.txt from today's search")

const searchGolden = "testdata/search8-golden.txt"

// TestSearch8Golden searches positions of random games to a fixed depth without selectivity
// and compares move, score, depth and node count with testdata/search8-golden.txt, written by
// the search before Multi-ProbCut existed (commit f250ef3): the selective search, switched
// off, must leave the full-width search exactly as it was. Only the node counts were rewritten
// since, when the midgame table went to two-slot buckets, when depth-1 nodes stopped using
// the table and sorting, when the solver took a small table for its last plies and the
// stability cut-off at 4–5 empty squares, and when its cut-off took the edges' stable discs
// from a table (the same moves and scores each time).
func TestSearch8Golden(t *testing.T) {
	if testing.Short() {
		t.Skip("searches 24 positions to depth 8")
	}
	rng := rand.New(rand.NewPCG(8, 17))
	var pos []engine.Position
	for i := 0; i < 24; i++ {
		pos = append(pos, midgame(t, rng, 8, 8+2*i))
	}
	got := searchLines(t, pos, &config{depth: 8, jump: 10, tableBits: 18, mustScore: true, eval: EvalPattern})
	checkGolden(t, searchGolden, got, *updateSearchGolden)
}

// TestSearchNGolden is TestSearch8Golden for the large boards' searcher: positions of 10×10,
// 12×12 and 16×16 searched to a fixed depth, full width, with the move, score and node count
// of each pinned, so that a change meant to leave the tree alone (a cheaper way to the same
// order) is seen to.
func TestSearchNGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("searches 18 large-board positions")
	}
	rng := rand.New(rand.NewPCG(9, 18))
	var pos []engine.Position
	for _, size := range []int{10, 12, 16} {
		for i := 0; i < 6; i++ {
			pos = append(pos, midgame(t, rng, size, 6+size*size*i/8))
		}
	}
	got := searchLines(t, pos, &config{depth: 4, jump: 10, tableBits: 16, mustScore: true, eval: EvalLinear})
	checkGolden(t, searchGoldenN, got, *updateSearchGolden)
}

const searchGoldenN = "testdata/searchn-golden.txt"

// searchLines searches each position with a copy of cfg and describes the result in a line:
// the position, move, score, depth, exactness and nodes.
func searchLines(t *testing.T, pos []engine.Position, cfg *config) []string {
	t.Helper()
	var out []string
	for _, p := range pos {
		c := *cfg
		r, err := run(&c, p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%v %v %d %d %v %d", p, r.Move, r.Score, r.Depth, r.Exact, r.Nodes))
	}
	return out
}

// checkGolden compares got, line by line, with the golden file at path, or rewrites the file
// when update is set.
func checkGolden(t *testing.T, path string, got []string, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	i := 0
	for ; sc.Scan(); i++ {
		if i >= len(got) {
			t.Fatalf("%s has more than %d lines", path, len(got))
		}
		if want := sc.Text(); got[i] != want {
			t.Errorf("position %d:\n got %s\nwant %s", i, got[i], want)
		}
	}
	if i != len(got) {
		t.Errorf("%s has %d lines, want %d", path, i, len(got))
	}
}
