package ai

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/reversibot/reversi/engine"
)

// TestLevelsUseBook checks that level 6 opens from the book, instantly and with every one of
// the equivalent first moves over a few seeds, that level 5 uses it for its first plies only,
// that levels 1–4 and Options.NoBook do not.
func TestLevelsUseBook(t *testing.T) {
	ctx := context.Background()
	start := engine.MustStart(8)
	first := map[engine.Square]bool{}
	for seed := uint64(0); seed < 40; seed++ {
		t0 := time.Now()
		r, err := ChooseResult(ctx, start, LevelMaster, rand.New(rand.NewPCG(seed, 2)))
		if err != nil {
			t.Fatal(err)
		}
		if el := time.Since(t0); el > 50*time.Millisecond {
			t.Errorf("a book move took %v", el)
		}
		if r.Depth != 0 || r.Nodes != 0 {
			t.Fatalf("level 6 searched the start position (depth %d, %d nodes)", r.Depth, r.Nodes)
		}
		first[r.Move] = true
	}
	if len(first) != 4 {
		t.Fatalf("level 6 opened with %d different moves in 40 games, want all 4", len(first))
	}
	if _, ok := fromBook(start, LevelExpert, nil, Options{}); !ok {
		t.Fatal("level 5 does not use the book at the start")
	}
	for l := LevelBeginner; l <= LevelClub; l++ {
		if _, ok := fromBook(start, l, nil, Options{}); ok {
			t.Fatalf("level %d uses the book", l)
		}
	}
	if _, ok := fromBook(start, LevelMaster, nil, Options{NoBook: true}); ok {
		t.Fatal("NoBook did not switch the book off")
	}
	// Level 5 leaves the book after bookPliesExpert plies, level 6 keeps to it.
	b, _ := DefaultBook()
	for k := range b.entries {
		if popcnt(k[0]|k[1])-4 < bookPliesExpert {
			continue
		}
		if _, ok := b.bookChoice(k[0], k[1], LevelExpert, nil); ok {
			t.Fatal("level 5 used the book past its plies")
		}
		if _, ok := b.bookChoice(k[0], k[1], LevelMaster, nil); !ok {
			t.Fatal("level 6 did not use the book on a book position")
		}
		break
	}
}
