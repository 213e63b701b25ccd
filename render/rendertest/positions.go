// Package rendertest gives the tests of the packages that draw boards (render, bot/present) the
// positions they draw: deterministic random games and positions with as many legal moves as a
// board of their size can be made to hold.
package rendertest

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/reversibot/reversi/engine"
)

// RandomGame plays up to plies moves of a deterministic pseudo-random game on a board of the
// given size: the same seed gives the same game.
func RandomGame(t testing.TB, size int, seed uint64, plies int) *engine.Game {
	t.Helper()
	g, err := engine.NewGame(size)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	for i := 0; i < plies && !g.Over(); i++ {
		m := engine.Pass
		if ms := g.Position().LegalMoves(); len(ms) > 0 {
			m = ms[rng.IntN(len(ms))]
		}
		if _, err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// Fullest returns a position of the given size with as many legal moves for the side to move
// as a construction and a short hill climb find: columns cycling disc of the mover, opponent's
// disc, empty (each empty then closes a line to the left), improved by random single-square
// changes that keep or raise the count; and the busiest position of some random games.
func Fullest(t testing.TB, size int) engine.Position {
	t.Helper()
	cells := []byte(strings.Repeat("-", size*size))
	for r := 0; r < size; r++ {
		for c := 0; c < size; c++ {
			cells[r*size+c] = "XO-"[c%3]
		}
	}
	parse := func() engine.Position {
		p, err := engine.ParseBoard(string(cells), engine.Black)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	best := parse()
	rng := rand.New(rand.NewPCG(uint64(size), 1))
	for range 3000 {
		i := rng.IntN(len(cells))
		old := cells[i]
		cells[i] = "XO-"[rng.IntN(3)]
		if p := parse(); p.MoveCount() >= best.MoveCount() {
			best = p
		} else {
			cells[i] = old
		}
	}
	for seed := uint64(0); seed < 20; seed++ {
		g := RandomGame(t, size, seed, size*size)
		// Walk back through the game for its busiest moment.
		for g.Len() > 0 {
			if p := g.Position(); p.MoveCount() > best.MoveCount() {
				best = p
			}
			if err := g.Undo(); err != nil {
				t.Fatal(err)
			}
		}
	}
	return best
}

// FuzzedBoard is the board a fuzz test's inputs name: a size of 4 to 16 (4 + 2·(size mod 7)),
// its squares row by row from cells (each byte mod 3: black, white, empty; empty past the end),
// white or black to move. It fails where engine.ParseBoard does.
func FuzzedBoard(size uint8, cells []byte, white bool) (engine.Position, error) {
	n := 4 + 2*int(size%7)
	text := make([]byte, n*n)
	for i := range text {
		text[i] = '-'
		if i < len(cells) {
			text[i] = "XO-"[cells[i]%3]
		}
	}
	side := engine.Black
	if white {
		side = engine.White
	}
	return engine.ParseBoard(string(text), side)
}
