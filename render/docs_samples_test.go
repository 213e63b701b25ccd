package render

import (
	"flag"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/reversibot/reversi/engine"
)

var docs = flag.Bool("docs", false, "write the sample replay and evaluation chart in docs/")

// docOpening is the start of the sample game: a common 8×8 opening line (the tiger).
const docOpening = "f5d6c3d3c4f4f6f3e6e7"

// docGame is the sample game: the opening, then both sides play what a cautious club
// player would: a corner when they can, never the squares next to an empty corner when they
// can help it, else the move that leaves the opponent the fewest replies.
func docGame(t testing.TB) *engine.Game {
	t.Helper()
	g, err := engine.ReplayRecord(8, docOpening)
	if err != nil {
		t.Fatal(err)
	}
	for !g.Over() {
		if _, err := g.Play(cautiousMove(g.Position())); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

func cautiousMove(p engine.Position) engine.Square {
	moves := p.LegalMoves()
	if len(moves) == 0 {
		return engine.Pass
	}
	n := p.Size() - 1
	corner := func(c, r int) bool { return (c == 0 || c == n) && (r == 0 || r == n) }
	score := func(sq engine.Square) int {
		c, r := sq.Col(), sq.Row()
		if corner(c, r) {
			return 1000
		}
		s := 0
		// Next to an empty corner: the corner's diagonal neighbour is worst.
		for _, k := range [][2]int{{0, 0}, {0, n}, {n, 0}, {n, n}} {
			dc, dr := abs(c-k[0]), abs(r-k[1])
			if dc <= 1 && dr <= 1 {
				if _, taken := p.At(engine.SquareAt(k[0], k[1])); !taken {
					s -= 200
					if dc == 1 && dr == 1 {
						s -= 300
					}
				}
			}
		}
		if c == 0 || c == n || r == 0 || r == n {
			s += 20
		}
		next, flipped, err := p.Play(sq)
		if err != nil {
			return math.MinInt
		}
		return s - 10*next.MoveCount() - flipped.Len()
	}
	best, bestScore := moves[0], score(moves[0])
	for _, m := range moves[1:] {
		if s := score(m); s > bestScore {
			best, bestScore = m, s
		}
	}
	return best
}

func abs(x int) int { return max(x, -x) }

// docPlot is a made-up but typical review of a 60-ply game: an even opening, white's mistake
// at ply 23 hands black a lead, black's at ply 33 gives it back for good, another by black
// at 45, and the last 14 plies solved exactly, white winning by 12 discs.
func docPlot() Plot {
	anchors := []struct{ ply, value int }{
		{0, 0}, {8, 150}, {14, -100}, {20, 200}, {22, 100}, {23, 850}, {28, 1000}, {32, 700},
		{33, -450}, {40, -700}, {44, -500}, {45, -1300}, {46, -1200}, {60, -1200},
	}
	values := make([]int, 60)
	exact := make([]bool, 60)
	for i := range values {
		ply := i + 1
		a := 0
		for anchors[a+1].ply < ply {
			a++
		}
		lo, hi := anchors[a], anchors[a+1]
		v := lo.value + (hi.value-lo.value)*(ply-lo.ply)/(hi.ply-lo.ply)
		if ply < 47 {
			// The search's estimates wobble from ply to ply.
			v += int(120 * math.Sin(float64(ply)*1.7))
		}
		values[i] = v
		exact[i] = ply >= 47
	}
	return Plot{
		Values:  values,
		Exact:   exact,
		Marks:   []int{23, 33, 45},
		Turning: 33,
		Labels: PlotLabels{
			Title: "Evaluation", Black: "Black", White: "White", Move: "move",
			Mistakes: "mistakes", Turning: "turning point", Exact: "exact",
		},
	}
}

// TestWriteDocSamples writes docs/replay-8x8.gif and docs/review-plot.png under -docs:
// go test ./render -run TestWriteDocSamples -docs
func TestWriteDocSamples(t *testing.T) {
	if !*docs {
		t.Skip("run with -docs to write the samples in docs/")
	}
	g := docGame(t)
	gif, err := Replay(g, ReplayOptions{})
	if err != nil {
		t.Fatal(err)
	}
	chart, err := EvalPlot(docPlot())
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join("..", "docs")
	for name, data := range map[string][]byte{"replay-8x8.gif": gif, "review-plot.png": chart} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d bytes", name, len(data))
	}
	t.Logf("the game: %s, %d–%d", g.Record(), g.Position().Count(engine.Black), g.Position().Count(engine.White))
}
