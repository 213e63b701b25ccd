package ai

import (
	"math/rand/v2"
	"testing"

	"github.com/reversibot/reversi/engine"
)

// TestFlips8MatchesEngine compares the line-table flips with the engine's ray-by-ray ones on
// random boards, reachable or not, at every empty square.
func TestFlips8MatchesEngine(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 20000; i++ {
		p, o := randomBoard(rng)
		if i%2 == 0 {
			p, o = p&rng.Uint64(), o&rng.Uint64() // emptier boards: longer open lines
		}
		for sq := 0; sq < 64; sq++ {
			if (p|o)&(1<<uint(sq)) != 0 {
				continue
			}
			if got, want := flips8(p, o, sq), engine.Flips8(p, o, sq); got != want {
				t.Fatalf("flips8(%#x, %#x, %d) = %#x, want %#x", p, o, sq, got, want)
			}
		}
	}
}

// fullLinesByLine is fullLines8 written plainly: every line checked on its own.
func fullLinesByLine(occ uint64) (row, col, diag, anti uint64) {
	for sq := 0; sq < 64; sq++ {
		for _, l := range []struct {
			line uint64
			out  *uint64
		}{{lineRow8[sq], &row}, {lineCol8[sq], &col}, {lineDiag8[sq], &diag}, {lineAnti8[sq], &anti}} {
			if occ&l.line == l.line {
				*l.out |= 1 << uint(sq)
			}
		}
	}
	return
}

func TestFullLines8(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 7))
	for i := 0; i < 20000; i++ {
		occ := rng.Uint64() | rng.Uint64() | rng.Uint64()
		if i%2 == 0 {
			occ |= rng.Uint64()
		}
		r, c, d, a := fullLines8(occ)
		wr, wc, wd, wa := fullLinesByLine(occ)
		if r != wr || c != wc || d != wd || a != wa {
			t.Fatalf("fullLines8(%#x) = %#x %#x %#x %#x, want %#x %#x %#x %#x", occ, r, c, d, a, wr, wc, wd, wa)
		}
	}
}
