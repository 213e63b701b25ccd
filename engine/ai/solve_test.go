package ai

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/reversibot/reversi/engine"
)

// minimax is the plain reference: the exact score (empties to the winner) by full search
// over engine.Position, with no pruning and no tricks.
func minimax(p engine.Position) int {
	moves := p.LegalMoves()
	if len(moves) == 0 {
		if p.GameOver() {
			return p.FinalScore()
		}
		q, _, err := p.Play(engine.Pass)
		if err != nil {
			panic(err)
		}
		return -minimax(q)
	}
	best := -1000
	for _, m := range moves {
		q, _, err := p.Play(m)
		if err != nil {
			panic(err)
		}
		best = max(best, -minimax(q))
	}
	return best
}

// randomPosition plays random moves from the start until exactly empties squares are empty
// and the game is not over; ok is false when a game ended first.
func randomPosition(rng *rand.Rand, size, empties int) (engine.Position, bool) {
	p := engine.MustStart(size)
	for p.Empties() > empties {
		if p.GameOver() {
			return p, false
		}
		moves := p.LegalMoves()
		if len(moves) == 0 {
			p, _, _ = p.Play(engine.Pass)
			continue
		}
		p, _, _ = p.Play(moves[rng.IntN(len(moves))])
	}
	return p, !p.GameOver()
}

// solveWindow runs the package's exact solver on p with the window (alpha, beta).
func solveWindow(p engine.Position, alpha, beta int) int {
	cfg := &config{ctx: context.Background(), tableBits: 12}
	if pl, op, ok := p.Bitboards8(); ok {
		tables, _ := defaultTables()
		s := newSearcher8(cfg, tables[8])
		return s.solve(pl, op, alpha, beta)
	}
	g := geoms[p.Size()]
	tables, _ := defaultTables()
	s := newSearcherN(cfg, g, tables[p.Size()])
	return s.solve(toSetN(p.Discs(p.Side())), toSetN(p.Discs(p.Side().Opponent())), alpha, beta)
}

// TestSolverAgainstMinimax compares the exact solver with plain minimax on random positions
// with at most 10 empty squares on every size from 4×4 to 10×10, with full and narrow
// windows (checking the fail-soft bound contract), and Solve's score and move on some.
func TestSolverAgainstMinimax(t *testing.T) {
	// 1,650 positions in all (350 in -short). The minimax reference dominates the cost, most
	// of all on 6×6 and 10×10, so those get fewer; 8×8 has its own solver and keeps the most.
	perSize := map[int]int{4: 600, 6: 300, 8: 600, 10: 150}
	if testing.Short() {
		perSize = map[int]int{4: 100, 6: 100, 8: 100, 10: 50}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, size := range []int{4, 6, 8, 10} {
		t.Run(fmt.Sprintf("%dx%d", size, size), func(t *testing.T) {
			done := 0
			for done < perSize[size] {
				empties := 1 + rng.IntN(10)
				if size == 4 {
					empties = 1 + rng.IntN(9)
				}
				p, ok := randomPosition(rng, size, empties)
				if !ok {
					continue
				}
				done++
				want := minimax(p)
				if got := solveWindow(p, -size*size, size*size); got != want {
					t.Fatalf("%v: solve = %+d, minimax = %+d", p, got, want)
				}
				// A random window: the fail-soft result must bound the true score correctly.
				a := rng.IntN(2*size*size+1) - size*size
				b := a + 1 + rng.IntN(8)
				v := solveWindow(p, a, b)
				switch {
				case want <= a && (v > a || v < want):
					t.Fatalf("%v window (%d,%d): %d, true %d (fail low must give true ≤ v ≤ alpha)", p, a, b, v, want)
				case want >= b && (v < b || v > want):
					t.Fatalf("%v window (%d,%d): %d, true %d (fail high must give beta ≤ v ≤ true)", p, a, b, v, want)
				case want > a && want < b && v != want:
					t.Fatalf("%v window (%d,%d): %d, true %d", p, a, b, v, want)
				}
				if done%10 == 0 {
					best, score, err := Solve(context.Background(), p)
					if err != nil {
						t.Fatal(err)
					}
					if score != want {
						t.Fatalf("%v: Solve score %+d, want %+d", p, score, want)
					}
					if best == engine.Pass {
						if !p.MustPass() {
							t.Fatalf("%v: Solve passes with legal moves", p)
						}
						continue
					}
					q, _, err := p.Play(best)
					if err != nil {
						t.Fatalf("%v: Solve move %v: %v", p, best, err)
					}
					if got := -minimax(q); got != want {
						t.Fatalf("%v: Solve move %v scores %+d, best is %+d", p, best, got, want)
					}
				}
			}
		})
	}
}

// TestLastFlipCount8 checks the table count of the last square's flips against flips8 on
// random full boards with one empty square, for both sides.
func TestLastFlipCount8(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 200000; i++ {
		sq := rng.IntN(64)
		p := rng.Uint64() &^ (1 << uint(sq))
		o := ^p &^ (1 << uint(sq))
		for _, side := range [2][2]uint64{{p, o}, {o, p}} {
			want := popcnt(flips8(side[0], side[1], sq))
			if got := lastFlipCount8(side[0], sq); got != want {
				t.Fatalf("p=%#x sq=%d: %d flips, want %d", side[0], sq, got, want)
			}
		}
	}
}

// quadrant8 masks the four 4×4 quadrants in quadrantOf8's numbering: the plain definition that
// quadrantOf8 and oddEmpties are checked against.
var quadrant8 = [4]uint64{0x000000000f0f0f0f, 0x00000000f0f0f0f0, 0x0f0f0f0f00000000, 0xf0f0f0f000000000}

// TestQuadrantOf8 checks quadrantOf8 against the quadrant masks.
func TestQuadrantOf8(t *testing.T) {
	for sq := 0; sq < 64; sq++ {
		q := quadrantOf8(sq)
		if q < 0 || q >= len(quadrant8) || quadrant8[q]&(1<<uint(sq)) == 0 {
			t.Errorf("quadrantOf8(%d) = %d, whose mask %#x lacks the square", sq, q, quadrant8[q&3])
		}
	}
}

// TestOddEmpties holds the folded parity of oddEmpties to counting each quadrant's empty squares.
func TestOddEmpties(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for i := 0; i < 100000; i++ {
		empty := rng.Uint64()
		for k := i % 4; k > 0; k-- {
			empty &= rng.Uint64()
		}
		var want uint64
		for _, q := range quadrant8 {
			if popcnt(empty&q)%2 == 1 {
				want |= q & empty
			}
		}
		if got := oddEmpties(empty); got != want {
			t.Fatalf("oddEmpties(%#x) = %#x, want %#x", empty, got, want)
		}
	}
}
