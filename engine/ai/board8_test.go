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

// TestEdgeStable8 checks the edge table on lines worked out by hand, then on every line:
// discs it calls stable survive random sequences of placements by either side (each flipping
// by the rules of a single line), and on a full line every disc is stable.
func TestEdgeStable8(t *testing.T) {
	for _, c := range []struct{ p, o, want uint8 }{
		{0b00000001, 0, 0b00000001},          // a corner alone
		{0b00000111, 0, 0b00000111},          // a run from the corner
		{0b00000010, 0, 0},                   // next to an empty corner
		{0b00000010, 0b00000001, 0},          // o takes c1 and flips it
		{0b00000010, 0b00000101, 0},          // p takes d1, then o takes e1 and flips b1..d1
		{0b00000010, 0b11110101, 0b00000010}, // only d1 left: neither reply can flip b1
		{0b00001111, 0b11110000, 0b00001111}, // a full line
		{0b01111110, 0b10000001, 0b01111110}, // a full line between the opponent's corners
	} {
		if got := edgeStable8[c.p][c.o]; got != c.want {
			t.Errorf("edgeStable8[%08b][%08b] = %08b, want %08b", c.p, c.o, got, c.want)
		}
	}
	rng := rand.New(rand.NewPCG(21, 22))
	for p := 0; p < 256; p++ {
		for o := 0; o < 256; o++ {
			if p&o != 0 {
				continue
			}
			s := edgeStable8[p][o]
			if s&^uint8(p) != 0 {
				t.Fatalf("edgeStable8[%08b][%08b] = %08b: not all discs of p", p, o, s)
			}
			if p|o == 0xff && s != uint8(p) {
				t.Fatalf("edgeStable8[%08b][%08b] = %08b on a full line", p, o, s)
			}
			for k := 0; k < 8; k++ {
				cp, co := uint8(p), uint8(o)
				for cp|co != 0xff {
					i := rng.IntN(8)
					x := uint8(1) << uint(i)
					if (cp|co)&x != 0 {
						continue
					}
					if rng.IntN(2) == 0 {
						f := lineFlipsAt8(i, cp, co)
						cp, co = cp|x|f, co&^f
					} else {
						f := lineFlipsAt8(i, co, cp)
						cp, co = cp&^f, co|x|f
					}
					if cp&s != s {
						t.Fatalf("edgeStable8[%08b][%08b] = %08b, but a disc flipped on the way to %08b/%08b", p, o, s, cp, co)
					}
				}
			}
		}
	}
}
