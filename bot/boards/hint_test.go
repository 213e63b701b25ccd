package boards

import (
	"slices"
	"testing"

	"github.com/reversibot/reversi/engine"
)

// TestShowHint: ShowHint draws the board with the hint while the game is as the hint saw it;
// a game that moved on meanwhile is drawn without it, and so is the next redraw.
func TestShowHint(t *testing.T) {
	f := newFixture(t)
	one := twoPlayers("g")
	one.Boards = one.Boards[:1]
	g := f.r.put(one)
	ref := g.Boards[0]
	d3, err := engine.ParseSquare("d3")
	if err != nil {
		t.Fatal(err)
	}
	f.e.ShowHint(g, ref, d3)
	f.settle()
	if shows, _ := f.api.shown(ref); shows != "v1 hint d3" {
		t.Fatalf("after ShowHint the board shows %q", shows)
	}
	// The next move's redraw drops it.
	f.e.Refresh(f.r.move("g"))
	f.settle()
	if shows, _ := f.api.shown(ref); shows != "v2" {
		t.Fatalf("after the next move the board shows %q", shows)
	}
	// A hint of a game that has moved on since is not drawn.
	stale := g
	f.r.move("g")
	f.e.ShowHint(stale, ref, d3)
	f.settle()
	shows, edits := f.api.shown(ref)
	if shows != "v3" || slices.Contains(edits, "v3 hint d3") {
		t.Fatalf("a stale hint: the board shows %q after edits %v", shows, edits)
	}
}
