package render

import (
	"os"
	"os/exec"
	"testing"

	"github.com/reversibot/reversi/render/rendertest"
)

// TestPreloadLeavesNothingToDraw draws pictures of every size Preload was given, black and
// white to move, with and without a suggested move, after Preload in a fresh process (where
// nothing else has drawn yet): none may draw an asset or a label of its own.
func TestPreloadLeavesNothingToDraw(t *testing.T) {
	const child = "RENDER_PRELOAD_TEST_CHILD"
	if os.Getenv(child) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestPreloadLeavesNothingToDraw$", "-test.count=1")
		cmd.Env = append(os.Environ(), child+"=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("in a fresh process: %v\n%s", err, out)
		}
		return
	}
	if n := drawn.Load(); n != 0 {
		t.Fatalf("%d drawings before Preload", n)
	}
	sizes := []int{8, 10, 12, 16}
	Preload(sizes)
	before := drawn.Load()
	if before == 0 {
		t.Fatal("Preload drew nothing")
	}
	for _, n := range sizes {
		for seed, plies := range []int{0, 1, 12, 25, 40, 61} {
			g := rendertest.RandomGame(t, n, uint64(seed), plies)
			v := ViewOf(g)
			views := []View{v}
			if ms := g.Position().LegalMoves(); len(ms) > 0 {
				views = append(views, v.WithHint(ms[len(ms)-1]))
			}
			for _, v := range views {
				if _, err := PNG(v, ImageOptions{Flipped: true}); err != nil {
					t.Fatal(err)
				}
				if got := drawn.Load(); got != before {
					t.Fatalf("%dx%d at ply %d drew %d things after Preload", n, n, plies, got-before)
				}
			}
		}
	}
	// A size Preload was not given is drawn on demand: the count sees it.
	if _, err := PNG(ViewOf(rendertest.RandomGame(t, 6, 1, 3)), ImageOptions{}); err != nil {
		t.Fatal(err)
	}
	if drawn.Load() == before {
		t.Fatal("a 6x6 picture drew nothing: the count does not see drawing")
	}
}
