package ai

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/engine/enginetest"
)

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
	enginetest.Golden(t, searchGolden, []byte(strings.Join(got, "\n")+"\n"))
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
	enginetest.Golden(t, searchGoldenN, []byte(strings.Join(got, "\n")+"\n"))
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
