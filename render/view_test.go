package render

import (
	"testing"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/render/rendertest"
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
	if v := ViewOf(rendertest.RandomGame(t, 8, 0, 0)); v.Last != engine.Pass || v.Ply != 0 || v.lastOK() {
		t.Errorf("ViewOf at the start = %+v", v)
	}
}

// TestViewOfPass checks a view whose last ply is a pass: the last disc is the one before it,
// placed by the side now to move again.
func TestViewOfPass(t *testing.T) {
	for seed := uint64(0); seed < 200; seed++ {
		g := rendertest.RandomGame(t, 6, seed, 100)
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

// TestViewOfRun checks View.Run against a plain forward walk over every moment of random 4×4
// and 6×6 games (where passes and runs of moves are common): the discs the last mover placed
// since the opponent last placed one, but Last itself. It also checks that some run was seen.
func TestViewOfRun(t *testing.T) {
	runs := 0
	for _, size := range []int{4, 6} {
		for seed := uint64(0); seed < 60; seed++ {
			full := rendertest.RandomGame(t, size, seed, 200)
			g, err := engine.NewGame(size)
			if err != nil {
				t.Fatal(err)
			}
			var want engine.Set
			var wantBy engine.Color
			lastSq := engine.Pass
			c := g.Start().Side()
			for _, m := range full.Moves() {
				if _, err := g.Play(m); err != nil {
					t.Fatal(err)
				}
				if m != engine.Pass {
					if lastSq != engine.Pass && wantBy == c {
						want = want.Add(lastSq)
					} else {
						want = engine.Set{}
					}
					lastSq, wantBy = m, c
				}
				c = c.Opponent()
				v := ViewOf(g)
				if v.Run != want || v.Last != lastSq {
					t.Fatalf("size %d seed %d after %v: Run %v (last %v), want %v (last %v)",
						size, seed, g.Moves(), v.Run.Squares(), v.Last, want.Squares(), lastSq)
				}
				if !want.Empty() {
					runs++
				}
			}
		}
	}
	if runs == 0 {
		t.Fatal("no run of moves in a row was seen")
	}
}
