package engine

import "math/bits"

// The 8×8 board uses one uint64 per colour: bit row*8+col, so a1 is bit 0 and h8 bit 63.

const (
	notFileA8  = 0xfefefefefefefefe // every column but a
	notFileH8  = 0x7f7f7f7f7f7f7f7f // every column but h
	innerCols8 = notFileA8 & notFileH8
)

// innerColsMask8 is innerCols8 read from memory: given the constant, the compiler reassociates
// every oh & x into o & x & constant, which undoes the sharing of oh and nearly doubles
// moves8Scalar's instructions.
var innerColsMask8 uint64 = innerCols8

// moves8Scalar is Moves8 in plain 64-bit operations: what Moves8 is when the build has no vector
// instructions, and the reference the vector version is tested against.
func moves8Scalar(p, o uint64) uint64 {
	// Each direction pair fills runs of o outward from p in doubling steps: after the first two
	// steps a run of up to 2 is found, then pre (o squares whose neighbour is o) lets two more
	// steps of two cover runs of up to 6, the longest possible. Both directions of an axis share
	// pre (shifted).
	oh := o & innerColsMask8

	// Horizontal (±1).
	l := oh & (p << 1)
	r := oh & (p >> 1)
	l |= oh & (l << 1)
	r |= oh & (r >> 1)
	pl := oh & (oh << 1)
	pr := pl >> 1
	l |= pl & (l << 2)
	r |= pr & (r >> 2)
	l |= pl & (l << 2)
	r |= pr & (r >> 2)
	m := l<<1 | r>>1

	// Vertical (±8).
	l = o & (p << 8)
	r = o & (p >> 8)
	l |= o & (l << 8)
	r |= o & (r >> 8)
	pl = o & (o << 8)
	pr = pl >> 8
	l |= pl & (l << 16)
	r |= pr & (r >> 16)
	l |= pl & (l << 16)
	r |= pr & (r >> 16)
	m |= l<<8 | r>>8

	// Diagonal (±9).
	l = oh & (p << 9)
	r = oh & (p >> 9)
	l |= oh & (l << 9)
	r |= oh & (r >> 9)
	pl = oh & (oh << 9)
	pr = pl >> 9
	l |= pl & (l << 18)
	r |= pr & (r >> 18)
	l |= pl & (l << 18)
	r |= pr & (r >> 18)
	m |= l<<9 | r>>9

	// Anti-diagonal (±7).
	l = oh & (p << 7)
	r = oh & (p >> 7)
	l |= oh & (l << 7)
	r |= oh & (r >> 7)
	pl = oh & (oh << 7)
	pr = pl >> 7
	l |= pl & (l << 14)
	r |= pr & (r >> 14)
	l |= pl & (l << 14)
	r |= pr & (r >> 14)
	m |= l<<7 | r>>7

	return m &^ (p | o)
}

// rays8 holds, for every square and direction, the squares strictly beyond the square in that
// direction up to the edge. Directions 0–3 step to higher bits (+1, +7, +8, +9), 4–7 to lower
// bits (−1, −7, −8, −9).
var rays8 [64][8]uint64

func init() {
	steps := [8][2]int{{1, 0}, {-1, 1}, {0, 1}, {1, 1}, {-1, 0}, {1, -1}, {0, -1}, {-1, -1}}
	for sq := 0; sq < 64; sq++ {
		for d, st := range steps {
			var ray uint64
			for c, r := sq&7+st[0], sq>>3+st[1]; c >= 0 && c < 8 && r >= 0 && r < 8; c, r = c+st[0], r+st[1] {
				ray |= 1 << uint(r*8+c)
			}
			rays8[sq][d] = ray
		}
	}
}

// up8 returns the discs of o flipped along ray (which steps to higher bits): the run of o from
// the start of the ray, if a disc of p closes it.
func up8(p, o, ray uint64) uint64 {
	stop := ray &^ o                  // squares of the ray that end a run
	out := stop & -stop & p           // the first of them, if it is p's
	mask := uint64(int64(-out) >> 63) // all ones when out != 0
	return (out - 1) & ray & mask
}

// down8 is up8 for a ray that steps to lower bits.
func down8(p, o, ray uint64) uint64 {
	stop := ray &^ o
	out := (1 << 63 >> uint(bits.LeadingZeros64(stop))) & p // highest stop, if it is p's
	return ray & -(out << 1)
}

// flips8Rays is Flips8 walking the eight rays from sq in plain 64-bit operations: what Flips8 is
// when the build has no vector instructions, and the reference the vector version is tested
// against.
func flips8Rays(p, o uint64, sq int) uint64 {
	r := &rays8[sq&63]
	return up8(p, o, r[0]) | up8(p, o, r[1]) | up8(p, o, r[2]) | up8(p, o, r[3]) |
		down8(p, o, r[4]) | down8(p, o, r[5]) | down8(p, o, r[6]) | down8(p, o, r[7])
}

// spread8 turns an 8×8 bitboard into a Set (each row of 8 bits moves into a 16-bit lane).
func spread8(x uint64) Set {
	return Set{spreadRows(x & 0xffffffff), spreadRows(x >> 32)}
}

// spreadRows moves the four bytes of x (rows of 8 squares) into the four 16-bit lanes of a word.
func spreadRows(x uint64) uint64 {
	x = (x | x<<16) & 0x0000ffff0000ffff
	return (x | x<<8) & 0x00ff00ff00ff00ff
}

// packRows is the inverse of spreadRows; bits outside the first 8 of each lane are dropped.
func packRows(x uint64) uint64 {
	x &= 0x00ff00ff00ff00ff
	x = (x | x>>8) & 0x0000ffff0000ffff
	return (x | x>>16) & 0xffffffff
}

// pack8 turns a Set of an 8×8 board into a bitboard.
func pack8(s Set) uint64 { return packRows(s[0]) | packRows(s[1])<<32 }

// bit8 is the 8×8 bit index of sq.
func bit8(sq Square) int { return sq.Row()*8 + sq.Col() }

func popcount(x uint64) int { return bits.OnesCount64(x) }

func trailingZeros(x uint64) int { return bits.TrailingZeros64(x) }
