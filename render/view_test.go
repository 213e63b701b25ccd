package render

import (
	"testing"

	"github.com/reversibot/reversi/engine"
)

func TestViewOf(t *testing.T) {
	g, err := engine.ReplayRecord(8, "f5d6c3")
	if err != nil {
		t.Fatal(err)
	}
	v := ViewOf(g)
	c3, _ := engine.ParseSquare("c3")
	d4, _ := engine.ParseSquare("d4")
	if v.Last != c3 || v.LastBy != engine.Black || v.Ply != 3 || v.Passed {
		t.Errorf("ViewOf(f5d6c3) = last %v by %v, ply %d, passed %v", v.Last, v.LastBy, v.Ply, v.Passed)
	}
	if want := (engine.Set{}).Add(d4); v.Flipped != want {
		t.Errorf("flipped %v, want d4", v.Flipped.Squares())
	}
	if v := ViewOf(playRandom(t, 8, 0, 0)); v.Last != engine.Pass || v.Ply != 0 || v.lastOK() {
		t.Errorf("ViewOf at the start = %+v", v)
	}
}

// TestViewOfPass checks a view whose last ply is a pass: the last disc is the one before it,
// placed by the side now to move again.
func TestViewOfPass(t *testing.T) {
	for seed := uint64(0); seed < 200; seed++ {
		g := playRandom(t, 6, seed, 100)
		for g.Len() > 0 && !g.Position().MustPass() {
			if err := g.Undo(); err != nil {
				t.Fatal(err)
			}
		}
		if g.Len() == 0 {
			continue
		}
		before, flipped, _ := g.LastMove()
		if _, err := g.Play(engine.Pass); err != nil {
			t.Fatal(err)
		}
		v := ViewOf(g)
		if !v.Passed || v.Last != before || v.Flipped != flipped || v.Ply != g.Ply() || v.Ply >= g.Len() || v.LastBy != g.Position().Side() {
			t.Fatalf("seed %d: ViewOf after %v and a pass = last %v by %v, flipped %v, passed %v, ply %d",
				seed, before, v.Last, v.LastBy, v.Flipped.Squares(), v.Passed, v.Ply)
		}
		return
	}
	t.Fatal("no game with a pass found")
}

// TestViewOfWhiteFirst checks LastBy in a game that starts with white to move.
func TestViewOfWhiteFirst(t *testing.T) {
	p, err := engine.ParsePosition(engine.MustStart(8).BoardText() + " O")
	if err != nil {
		t.Fatal(err)
	}
	g := engine.NewGameFrom(p)
	if _, err := g.Play(p.LegalMoves()[0]); err != nil {
		t.Fatal(err)
	}
	if v := ViewOf(g); v.LastBy != engine.White {
		t.Errorf("LastBy = %v, want white", v.LastBy)
	}
}
