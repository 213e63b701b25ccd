package ai

import (
	"math/bits"

	"github.com/reversibot/reversi/engine"
)

// The 8×8 fast path works on two uint64 bitboards, bit row*8+col, for the side to move (p) and
// its opponent (o).

const (
	fileA8 = 0x0101010101010101
	fileH8 = 0x8080808080808080
	rank1  = 0x00000000000000ff
	rank8  = 0xff00000000000000
)

// Masks of every row, column and diagonal through a square, for flips and stability.
var (
	lineRow8, lineCol8, lineDiag8, lineAnti8 [64]uint64
)

func init() {
	dirs := [8][2]int{{1, 0}, {0, 1}, {1, 1}, {-1, 1}, {-1, 0}, {0, -1}, {-1, -1}, {1, -1}}
	for sq := 0; sq < 64; sq++ {
		c0, r0 := sq&7, sq>>3
		// rays[d]: the squares met walking from sq in direction d, sq excluded; d and d+4 are
		// opposite.
		var rays [8]uint64
		for d, v := range dirs {
			for c, r := c0+v[0], r0+v[1]; c >= 0 && c < 8 && r >= 0 && r < 8; c, r = c+v[0], r+v[1] {
				rays[d] |= 1 << uint(r*8+c)
			}
		}
		b := uint64(1) << uint(sq)
		lineRow8[sq] = rays[0] | rays[4] | b
		lineCol8[sq] = rays[1] | rays[5] | b
		lineDiag8[sq] = rays[2] | rays[6] | b
		lineAnti8[sq] = rays[3] | rays[7] | b
	}
}

// flips8 returns the discs of o flipped by p playing on the empty square sq; zero when the move
// is illegal. Each of the four lines through sq is gathered into a byte (its squares in order),
// two table lookups give the discs it flips, and these are put back in place: about half the
// time of walking the eight rays one by one (BenchmarkFlips8).
func flips8(p, o uint64, sq int) uint64 {
	sq &= 63
	col, rowShift := uint(sq&7), uint(sq&^7)
	row := uint(sq >> 3)
	// The row: its byte, indexed by column.
	out := lineOutflank8[col][uint8(o>>rowShift)] & uint8(p>>rowShift)
	f := uint64(lineFlips8[col][out]) << rowShift
	// The column: bit r of the byte is row r.
	out = lineOutflank8[row&7][uint8(gatherCol8(o, col))] & uint8(gatherCol8(p, col))
	f |= colSpread8[lineFlips8[row&7][out]] << col
	// The diagonals: bytes by column (gatherDiag); squares off the line read as empty.
	d := lineDiag8[sq]
	out = lineOutflank8[col][uint8(gatherDiag(o, d))] & uint8(gatherDiag(p, d))
	f |= uint64(lineFlips8[col][out]) * fileA8 & d
	a := lineAnti8[sq]
	out = lineOutflank8[col][uint8(gatherDiag(o, a))] & uint8(gatherDiag(p, a))
	f |= uint64(lineFlips8[col][out]) * fileA8 & a
	return f
}

// The tables of flips8, for a line of eight squares as a byte and a disc placed at index i:
// lineOutflank8[i][opp] holds the squares where a disc of the mover closes a run of the
// opponent's discs starting next to i (at most one each side), given the opponent's discs opp
// (only the six inner squares matter: a run that reaches an end is not closed; indexing by the
// whole byte saves masking it); lineFlips8[i][closing] holds the squares between i and the
// closing squares, the discs flipped. colSpread8 turns a column's byte (bit r is row r) into
// column a of a bitboard.
var lineOutflank8, lineFlips8, colSpread8 = lineTables8()

func lineTables8() (outflank [8][256]uint8, flips [8][256]uint8, spread [256]uint64) {
	for i := 0; i < 8; i++ {
		for all := 0; all < 256; all++ {
			opp := uint8(all) & 0x7e
			for _, step := range [2]int{1, -1} {
				j := i + step
				for j >= 0 && j < 8 && opp&(1<<uint(j)) != 0 {
					j += step
				}
				if j != i+step && j >= 0 && j < 8 {
					outflank[i][all] |= 1 << uint(j)
				}
			}
		}
		for closing := 0; closing < 256; closing++ {
			for _, step := range [2]int{1, -1} {
				j := i + step
				for j >= 0 && j < 8 && closing&(1<<uint(j)) == 0 {
					j += step
				}
				if j < 0 || j >= 8 {
					continue // nothing closes this side
				}
				for k := i + step; k != j; k += step {
					flips[i][closing] |= 1 << uint(k)
				}
			}
		}
	}
	for b := range spread {
		for r := 0; r < 8; r++ {
			if b&(1<<uint(r)) != 0 {
				spread[b] |= 1 << uint(8*r)
			}
		}
	}
	return
}

// moves8 returns the legal moves of p against o.
func moves8(p, o uint64) uint64 { return engine.Moves8(p, o) }

func popcnt(x uint64) int { return bits.OnesCount64(x) }

// neighbours8 returns the squares next to any square of x.
func neighbours8(x uint64) uint64 {
	h := x | (x<<1)&^fileA8 | (x>>1)&^fileH8
	return (h | h<<8 | h>>8) &^ x
}

// fullLines8 returns, for an occupancy, the squares whose row, column, diagonal and
// anti-diagonal are each full, as four masks. A square is on a full line when the squares from
// it to both ends of the line are occupied; each end is reached in three doubling steps.
func fullLines8(occ uint64) (row, col, diag, anti uint64) {
	const (
		ranks12 = 0x000000000000ffff
		ranks14 = 0x00000000ffffffff
		ranks58 = 0xffffffff00000000
		ranks78 = 0xffff000000000000
		filesAB = 0x0303030303030303
		filesAD = 0x0f0f0f0f0f0f0f0f
		filesEH = 0xf0f0f0f0f0f0f0f0
		filesGH = 0xc0c0c0c0c0c0c0c0
	)
	// Rows and columns: fold a line onto its first square.
	t := occ & (occ >> 4)
	t &= t >> 2
	t &= t >> 1
	row = (t & fileA8) * 0xff
	t = occ & (occ >> 32)
	t &= t >> 16
	t &= t >> 8
	col = (t & rank1) * fileA8
	// Diagonals: towards h8 (up) and towards a1 (down); a square with no neighbour that far
	// along reads as full.
	up := occ & (occ>>9 | rank8 | fileH8)
	up &= up>>18 | ranks78 | filesGH
	up &= up>>36 | ranks58 | filesEH
	down := occ & (occ<<9 | rank1 | fileA8)
	down &= down<<18 | ranks12 | filesAB
	down &= down<<36 | ranks14 | filesAD
	diag = up & down
	// Anti-diagonals: towards a8 and towards h1.
	up = occ & (occ>>7 | rank8 | fileA8)
	up &= up>>14 | ranks78 | filesAB
	up &= up>>28 | ranks58 | filesAD
	down = occ & (occ<<7 | rank1 | fileH8)
	down &= down<<14 | ranks12 | filesGH
	down &= down<<28 | ranks14 | filesEH
	anti = up & down
	return
}

// stable8 returns the discs of p that can never flip, by a standard lower bound: a disc is stable
// when along each of the four lines through it the line is full, or a neighbour on that line is
// the edge or a stable disc of the same colour.
func stable8(p, o uint64) uint64 {
	row, col, diag, anti := fullLines8(p | o)
	if p&0x8100000000000081 == 0 && row|col|diag|anti == 0 {
		return 0 // only a corner or a full line can anchor a stable disc
	}
	const edge = fileA8 | fileH8 | rank1 | rank8
	row |= fileA8 | fileH8
	col |= rank1 | rank8
	diag |= edge
	anti |= edge
	return spreadStable8(0, p, row, col, diag, anti)
}

// spreadStable8 grows s, stable discs of one side, by the discs of cand whose four lines are
// each full (the squares of row, col, diag and anti) or hold a disc of s next to them, until
// nothing more is added.
func spreadStable8(s, cand, row, col, diag, anti uint64) uint64 {
	for {
		h := row | (s<<1)&^fileA8 | (s>>1)&^fileH8
		v := col | s<<8 | s>>8
		d := diag | (s<<9)&^fileA8 | (s>>9)&^fileH8
		a := anti | (s<<7)&^fileH8 | (s>>7)&^fileA8
		n := s | cand&h&v&d&a
		if n == s {
			return s
		}
		s = n
	}
}

// solverStable8 returns discs of p that can never flip, a bound at least as strong as stable8
// and cheaper to find, for the solver's cut-off. Each edge contributes the discs of p that no
// sequence of moves along the edge can flip (edgeStable8): a disc on an edge lies at the end of
// its three other lines, so only moves on the edge can flip it. Then, as in stable8, a disc
// inside the edges is stable when each of its four lines is full or holds a stable disc of p
// next to it; starting from the whole edges, this takes a few rounds, not one per square.
func solverStable8(p, o uint64) uint64 {
	const edge = fileA8 | fileH8 | rank1 | rank8
	s := uint64(edgeStable8[uint8(p)][uint8(o)]) |
		uint64(edgeStable8[uint8(p>>56)][uint8(o>>56)])<<56 |
		colSpread8[edgeStable8[uint8(gatherCol8(p, 0))][uint8(gatherCol8(o, 0))]] |
		colSpread8[edgeStable8[uint8(gatherCol8(p, 7))][uint8(gatherCol8(o, 7))]]<<7
	row, col, diag, anti := fullLines8(p | o)
	inner := p &^ edge
	s |= inner & row & col & diag & anti
	if s == 0 {
		return 0 // nothing anchors a stable disc inside
	}
	return spreadStable8(s, inner, row, col, diag, anti)
}

// lineFlipsAt8 is the discs of o that p flips by placing a disc on square i of a line of
// eight squares (bit i of each byte), by the tables of flips8.
func lineFlipsAt8(i int, p, o uint8) uint8 { return lineFlips8[i][lineOutflank8[i][o]&p] }

// edgeStable8[p][o] holds, for a line of eight squares with the mover's discs p and the
// opponent's o (bit i is square i), the discs of p that stay p whatever discs either side
// places on the line's empty squares, in any order, legal or not on the full board.
var edgeStable8 = func() *[256][256]uint8 {
	t := new([256][256]uint8)
	var known [256][256]bool
	var stable func(p, o uint8) uint8
	stable = func(p, o uint8) uint8 {
		if known[p][o] {
			return t[p][o]
		}
		s := p
		for i := 0; i < 8 && s != 0; i++ {
			x := uint8(1) << uint(i)
			if (p|o)&x != 0 {
				continue
			}
			// p places on i: its discs stay, and must be stable in what follows.
			f := lineFlipsAt8(i, p, o)
			s &= stable(p|x|f, o&^f)
			// o places on i: the discs it flips are lost.
			f = lineFlipsAt8(i, o, p)
			s &= stable(p&^f, o|x|f)
		}
		t[p][o], known[p][o] = s, true
		return s
	}
	for p := 0; p < 256; p++ {
		for o := 0; o < 256; o++ {
			if p&o == 0 {
				stable(uint8(p), uint8(o))
			}
		}
	}
	return t
}()

// final8 is the exact score of a finished game for p: the disc difference with the empty
// squares given to the winner.
func final8(p, o uint64) int {
	np, no := popcnt(p), popcnt(o)
	d := np - no
	switch {
	case d > 0:
		d += 64 - np - no
	case d < 0:
		d -= 64 - np - no
	}
	return d
}

// toSquare8 turns a bit index into an engine square.
func toSquare8(b int) engine.Square { return engine.SquareAt(b&7, b>>3) }

// fromSquare8 turns an engine square of an 8×8 board into a bit index.
func fromSquare8(sq engine.Square) int { return sq.Row()*8 + sq.Col() }

// Counting the flips of the last empty square. When only sq is empty, every other square of
// a line through sq holds a disc, so the flips along that line depend only on which of its
// squares are the mover's. lastFlips8[sq][l] maps that pattern, gathered into a byte by
// gather8, to the number of discs flipped along line l (row, column, diagonal, anti-diagonal).
var lastFlips8 [64][4][256]uint8

// gather8 packs the squares of x on line l through sq into a byte, one bit per square of the
// line (rows and diagonals by column, columns by row).
func gather8(x uint64, sq, l int) uint8 {
	switch l {
	case 0:
		return uint8(x >> uint(sq&^7))
	case 1:
		return uint8(gatherCol8(x, uint(sq&7)))
	case 2:
		return uint8(gatherDiag(x, lineDiag8[sq]))
	}
	return uint8(gatherDiag(x, lineAnti8[sq]))
}

// gatherCol8 packs column col of x into a byte, bit r for row r.
func gatherCol8(x uint64, col uint) uint64 { return (x >> col & fileA8) * 0x0102040810204080 >> 56 }

// lastFlipCount8 is the number of discs p flips by playing sq when sq is the only empty square.
// It gathers the lines as gather8 does, written out so that it stays small enough to be inlined
// into last1 (calling gatherCol8 and gatherDiag puts it over the inliner's budget, which costs
// about 1% of the solver's instructions).
func lastFlipCount8(p uint64, sq int) int {
	t := &lastFlips8[sq&63]
	return int(t[0][uint8(p>>uint(sq&^7))]) +
		int(t[1][uint8(((p>>uint(sq&7))&fileA8)*0x0102040810204080>>56)]) +
		int(t[2][uint8((p&lineDiag8[sq])*fileA8>>56)]) +
		int(t[3][uint8((p&lineAnti8[sq])*fileA8>>56)])
}

func init() {
	for sq := 0; sq < 64; sq++ {
		b := uint64(1) << uint(sq)
		for l, line := range [4]uint64{lineRow8[sq], lineCol8[sq], lineDiag8[sq], lineAnti8[sq]} {
			line &^= b
			// Every subset of the line's other squares is the mover's part of one pattern.
			for sub := uint64(0); ; sub = (sub - line) & line {
				f := flips8(sub, line&^sub, sq)
				lastFlips8[sq][l][gather8(sub, sq, l)] = uint8(popcnt(f))
				if gather8(sub, sq, l) == 0 && sub != 0 {
					panic("ai: gather8 loses squares")
				}
				if sub == line {
					break
				}
			}
		}
	}
}
