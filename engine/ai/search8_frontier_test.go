package ai

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// negamax1 is the plain value of (p, o) searched one ply and evaluated, with a pass played
// out and a finished game scored, written independently of the search's shortcuts.
func negamax1(ev *evalTable, p, o uint64) int {
	moves := moves8(p, o)
	best := -infScore
	for m := moves; m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		f := flips8(p, o, sq)
		np, no := p|f|1<<uint(sq), o&^f
		var v int
		switch {
		case moves8(no, np) != 0:
			v = -eval8(ev, no, np, moves8(no, np))
		case moves8(np, no) != 0:
			v = eval8(ev, np, no, moves8(np, no))
		default:
			v = -final8(no, np) * 100
		}
		best = max(best, v)
	}
	return best
}

// TestFrontierMatchesNegamax checks the depth-1 path of the midgame search against negamax1
// on positions of random games, passes and endings included: with an open window it must
// return the same value, and with a null window a bound on the same side of it.
func TestFrontierMatchesNegamax(t *testing.T) {
	tables, err := tablesForEval(EvalPattern)
	if err != nil {
		t.Fatal(err)
	}
	s := newSearcher8(&config{tableBits: 10}, tables[8])
	rng := rand.New(rand.NewPCG(12, 13))
	checked := 0
	for i := 0; i < 600; i++ {
		pos := midgame(t, rng, 8, 4+i%56)
		p, o, _ := pos.Bitboards8()
		moves := moves8(p, o)
		if moves == 0 || popcnt(^(p|o)) < 2 {
			continue
		}
		want := negamax1(s.ev, p, o)
		if got := s.frontier(p, o, moves, infScore); got != want {
			t.Fatalf("%v: frontier %d, negamax %d", pos, got, want)
		}
		for _, beta := range []int{want - 50, want, want + 1, want + 50} {
			got := s.frontier(p, o, moves, beta)
			if (got >= beta) != (want >= beta) || got > want {
				t.Fatalf("%v: null window at %d gave %d, value %d", pos, beta, got, want)
			}
		}
		checked++
	}
	if checked < 500 {
		t.Fatalf("only %d positions checked", checked)
	}
}
