package engine

import "math/bits"

// The 8×8 board uses one uint64 per colour: bit row*8+col, so a1 is bit 0 and h8 bit 63.

const (
	notFileA8  = 0xfefefefefefefefe // every column but a
	notFileH8  = 0x7f7f7f7f7f7f7f7f // every column but h
	innerCols8 = notFileA8 & notFileH8
)

// Moves8 returns the legal moves (as an 8×8 bitboard) of the player whose discs are p against
// an opponent whose discs are o. It is the hot path of the 8×8 search.
func Moves8(p, o uint64) uint64 {
	empty := ^(p | o)
	oh := o & innerCols8
	return (fill8l(p, oh, 1) | fill8r(p, oh, 1) | fill8l(p, o, 8) | fill8r(p, o, 8) |
		fill8l(p, oh, 7) | fill8r(p, oh, 7) | fill8l(p, oh, 9) | fill8r(p, oh, 9)) & empty
}

// fill8l returns the squares one step beyond runs of o that start next to p, stepping by +s.
func fill8l(p, o uint64, s uint) uint64 {
	x := o & (p << s)
	x |= o & (x << s)
	x |= o & (x << s)
	x |= o & (x << s)
	x |= o & (x << s)
	x |= o & (x << s)
	return x << s
}

// fill8r is fill8l stepping by -s.
func fill8r(p, o uint64, s uint) uint64 {
	x := o & (p >> s)
	x |= o & (x >> s)
	x |= o & (x >> s)
	x |= o & (x >> s)
	x |= o & (x >> s)
	x |= o & (x >> s)
	return x >> s
}

// dirs8 lists the eight directions as (column step, row step).
var dirs8 = [8][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}, {1, -1}, {-1, 1}}

// Flips8 returns the discs of o that a disc placed by p on bit sq (row*8+col) flips; zero when the
// move is illegal (sq occupied is not checked).
func Flips8(p, o uint64, sq int) uint64 {
	var f uint64
	col, row := sq&7, sq>>3
	for _, d := range dirs8 {
		var line uint64
		c, r := col+d[0], row+d[1]
		for c >= 0 && c < 8 && r >= 0 && r < 8 {
			b := uint64(1) << uint(r*8+c)
			if o&b == 0 {
				if p&b != 0 {
					f |= line
				}
				break
			}
			line |= b
			c, r = c+d[0], r+d[1]
		}
	}
	return f
}

// spread8 turns an 8×8 bitboard into a Set.
func spread8(x uint64) Set {
	var s Set
	for r := 0; r < 8; r++ {
		s[r>>2] |= (x >> (8 * r) & 0xff) << (16 * (r & 3))
	}
	return s
}

// pack8 turns a Set of an 8×8 board into a bitboard.
func pack8(s Set) uint64 {
	var x uint64
	for r := 0; r < 8; r++ {
		x |= (s[r>>2] >> (16 * (r & 3)) & 0xff) << (8 * r)
	}
	return x
}

// bit8 is the 8×8 bit index of sq.
func bit8(sq Square) int { return sq.Row()*8 + sq.Col() }

func popcount(x uint64) int { return bits.OnesCount64(x) }

func trailingZeros(x uint64) int { return bits.TrailingZeros64(x) }
