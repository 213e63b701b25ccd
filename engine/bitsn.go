package engine

// Boards other than 8×8 store a Set per colour (16 squares a row, the columns past the board's
// edge always empty). Move generation works on a quad: the same 256 bits with the rows
// interleaved, so that word j holds rows j, j+4, j+8 and j+12 in its four 16-bit lanes. Then a
// step of one row moves a lane to the next word (and the last word's lanes up by 16 bits), which
// costs one shift instead of a carry across all four words, and a quad is a struct of four words
// the compiler keeps in registers (an array it does not).

// boardMasks holds, per size, the squares of the board and the squares a run of discs may pass
// through in directions with a sideways step.
type boardMasks struct {
	inside Set // every square of the board
	inner  Set // squares not in the first or last column
	qIn    quad
	qInner quad
}

var masksBySize [MaxSize + 1]boardMasks

func init() {
	for n := MinSize; n <= MaxSize; n += 2 {
		var m boardMasks
		for r := 0; r < n; r++ {
			for c := 0; c < n; c++ {
				sq := SquareAt(c, r)
				m.inside = m.inside.Add(sq)
				if c > 0 && c < n-1 {
					m.inner = m.inner.Add(sq)
				}
			}
		}
		m.qIn, m.qInner = toQuad(m.inside), toQuad(m.inner)
		masksBySize[n] = m
	}
}

func and(a, b Set) Set { return Set{a[0] & b[0], a[1] & b[1], a[2] & b[2], a[3] & b[3]} }
func or(a, b Set) Set  { return Set{a[0] | b[0], a[1] | b[1], a[2] | b[2], a[3] | b[3]} }
func andNot(a, b Set) Set {
	return Set{a[0] &^ b[0], a[1] &^ b[1], a[2] &^ b[2], a[3] &^ b[3]}
}

// quad is a board in the interleaved layout described at the top of this file: word j, lane k
// (bits 16k…16k+15) is row 4k+j.
type quad struct{ a, b, c, d uint64 }

// toQuad converts a Set to the interleaved layout. Set word w lane k is row 4w+k, quad word k
// lane w is the same row: a 4×4 transpose of 16-bit lanes, done in two rounds of swaps. It is its
// own inverse.
func toQuad(s Set) quad {
	a, b, c, d := s[0], s[1], s[2], s[3]
	const m32, m16 = 0x00000000ffffffff, 0x0000ffff0000ffff
	t := (a>>32 ^ c) & m32
	a, c = a^t<<32, c^t
	t = (b>>32 ^ d) & m32
	b, d = b^t<<32, d^t
	t = (a>>16 ^ b) & m16
	a, b = a^t<<16, b^t
	t = (c>>16 ^ d) & m16
	c, d = c^t<<16, d^t
	return quad{a, b, c, d}
}

// set converts a quad back to a Set.
func (q quad) set() Set {
	s := toQuad(Set{q.a, q.b, q.c, q.d})
	return Set{s.a, s.b, s.c, s.d}
}

func (q quad) and(r quad) quad    { return quad{q.a & r.a, q.b & r.b, q.c & r.c, q.d & r.d} }
func (q quad) or(r quad) quad     { return quad{q.a | r.a, q.b | r.b, q.c | r.c, q.d | r.d} }
func (q quad) andNot(r quad) quad { return quad{q.a &^ r.a, q.b &^ r.b, q.c &^ r.c, q.d &^ r.d} }
func (q quad) shl(k uint) quad    { return quad{q.a << k, q.b << k, q.c << k, q.d << k} }
func (q quad) shr(k uint) quad    { return quad{q.a >> k, q.b >> k, q.c >> k, q.d >> k} }

// down1 moves every square one row down (row r to r+1); down2 two rows. Four and eight rows are
// shl(16) and shl(32). up1 and up2 go the other way; squares pushed off the board vanish.
func (q quad) down1() quad { return quad{q.d << 16, q.a, q.b, q.c} }
func (q quad) down2() quad { return quad{q.c << 16, q.d << 16, q.a, q.b} }
func (q quad) up1() quad   { return quad{q.b, q.c, q.d, q.a >> 16} }
func (q quad) up2() quad   { return quad{q.c, q.d, q.a >> 16, q.b >> 16} }

// Each fill below is one direction of a Kogge-Stone occluded fill: g collects the discs of o at
// distance 1, ≤2, ≤4, ≤8 and ≤16 along runs that start next to p, pr the squares of o whose
// previous 1, 3 and 7 squares in the direction are o too. The result is the square one step
// beyond each run (occupied or not; the caller masks). o must exclude the edge columns for
// directions with a sideways step, so no run wraps from one row into the next.

// fillRight needs no fill: adding the first disc of each run of o that starts right of p (the
// runs lie inside a row, as o has no disc in the edge columns) carries through the run into the
// square beyond it. The bits that are set in the sum but not in o are those squares.
func fillRight(p, o quad) quad { // column +1
	return quad{
		(o.a + p.a<<1&o.a) &^ o.a,
		(o.b + p.b<<1&o.b) &^ o.b,
		(o.c + p.c<<1&o.c) &^ o.c,
		(o.d + p.d<<1&o.d) &^ o.d,
	}
}

func fillLeft(p, o quad) quad { // column −1
	g := o.and(p.shr(1))
	g = g.or(o.and(g.shr(1)))
	pr := o.and(o.shr(1))
	g = g.or(pr.and(g.shr(2)))
	pr = pr.and(pr.shr(2))
	g = g.or(pr.and(g.shr(4)))
	pr = pr.and(pr.shr(4))
	g = g.or(pr.and(g.shr(8)))
	return g.shr(1)
}

func fillDown(p, o quad) quad { // row +1
	g := o.and(p.down1())
	g = g.or(o.and(g.down1()))
	pr := o.and(o.down1())
	g = g.or(pr.and(g.down2()))
	pr = pr.and(pr.down2())
	g = g.or(pr.and(g.shl(16)))
	pr = pr.and(pr.shl(16))
	g = g.or(pr.and(g.shl(32)))
	return g.down1()
}

func fillUp(p, o quad) quad { // row −1
	g := o.and(p.up1())
	g = g.or(o.and(g.up1()))
	pr := o.and(o.up1())
	g = g.or(pr.and(g.up2()))
	pr = pr.and(pr.up2())
	g = g.or(pr.and(g.shr(16)))
	pr = pr.and(pr.shr(16))
	g = g.or(pr.and(g.shr(32)))
	return g.up1()
}

func fillDownRight(p, o quad) quad { // row +1, column +1
	g := o.and(p.down1().shl(1))
	g = g.or(o.and(g.down1().shl(1)))
	pr := o.and(o.down1().shl(1))
	g = g.or(pr.and(g.down2().shl(2)))
	pr = pr.and(pr.down2().shl(2))
	g = g.or(pr.and(g.shl(20)))
	pr = pr.and(pr.shl(20))
	g = g.or(pr.and(g.shl(40)))
	return g.down1().shl(1)
}

func fillDownLeft(p, o quad) quad { // row +1, column −1
	g := o.and(p.down1().shr(1))
	g = g.or(o.and(g.down1().shr(1)))
	pr := o.and(o.down1().shr(1))
	g = g.or(pr.and(g.down2().shr(2)))
	pr = pr.and(pr.down2().shr(2))
	g = g.or(pr.and(g.shl(12)))
	pr = pr.and(pr.shl(12))
	g = g.or(pr.and(g.shl(24)))
	return g.down1().shr(1)
}

func fillUpRight(p, o quad) quad { // row −1, column +1
	g := o.and(p.up1().shl(1))
	g = g.or(o.and(g.up1().shl(1)))
	pr := o.and(o.up1().shl(1))
	g = g.or(pr.and(g.up2().shl(2)))
	pr = pr.and(pr.up2().shl(2))
	g = g.or(pr.and(g.shr(12)))
	pr = pr.and(pr.shr(12))
	g = g.or(pr.and(g.shr(24)))
	return g.up1().shl(1)
}

func fillUpLeft(p, o quad) quad { // row −1, column −1
	g := o.and(p.up1().shr(1))
	g = g.or(o.and(g.up1().shr(1)))
	pr := o.and(o.up1().shr(1))
	g = g.or(pr.and(g.up2().shr(2)))
	pr = pr.and(pr.up2().shr(2))
	g = g.or(pr.and(g.shr(20)))
	pr = pr.and(pr.shr(20))
	g = g.or(pr.and(g.shr(40)))
	return g.up1().shr(1)
}

// movesN returns the legal moves on a board of the given size (any valid size, 8 included) for
// discs p against o.
func movesN(size int, p, o Set) Set {
	m := &masksBySize[size]
	qp, qo := toQuad(p), toQuad(o)
	qi := qo.and(m.qInner)
	moves := fillRight(qp, qi).or(fillLeft(qp, qi)).
		or(fillDown(qp, qo)).or(fillUp(qp, qo)).
		or(fillDownRight(qp, qi)).or(fillDownLeft(qp, qi)).
		or(fillUpRight(qp, qi)).or(fillUpLeft(qp, qi))
	return moves.and(m.qIn).andNot(qp.or(qo)).set()
}

// flipsN returns the discs of o that a disc placed by p on sq flips, on a board of the given size
// (any valid size, 8 included); it is empty when the move flips nothing. It walks each direction
// from sq while the squares hold o, then keeps the run if p closes it.
func flipsN(size int, p, o Set, sq Square) Set {
	var f Set
	c, r := sq.Col(), sq.Row()
	if !sq.Valid() || c >= size || r >= size {
		return f
	}
	// limit[d+1] is the number of squares from a coordinate x to the edge stepping by d.
	cl := [3]int{c, MaxSize, size - 1 - c}
	rl := [3]int{r, MaxSize, size - 1 - r}
	for _, d := range dirs8 {
		n := min(cl[d[0]+1], rl[d[1]+1])
		if n < 2 {
			continue // no room for a run and a closing disc
		}
		step := d[1]*16 + d[0]
		i, k := int(sq)+step, 0
		for k < n && o[i>>6&3]>>(i&63)&1 != 0 {
			i, k = i+step, k+1
		}
		if k == 0 || k == n || p[i>>6&3]>>(i&63)&1 == 0 {
			continue
		}
		for ; k > 0; k-- {
			i -= step
			f[i>>6&3] |= 1 << (i & 63)
		}
	}
	return f
}

// dirs8 lists the eight directions as (column step, row step).
var dirs8 = [8][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}, {1, -1}, {-1, 1}}

// MovesN returns the legal moves of the player whose discs are p against an opponent whose discs
// are o, on a board of the given size (any valid size, 8 included).
// It is the hot path of search on the larger boards, as Moves8 is on 8×8. An invalid size, or
// discs off the board, give the empty set.
func MovesN(size int, p, o Set) Set {
	if !ValidSize(size) {
		return Set{}
	}
	m := &masksBySize[size]
	return movesN(size, and(p, m.inside), and(o, m.inside))
}

// FlipsN returns the discs of o that a disc placed by p on sq flips, on a board of the given size;
// it is empty when the move is illegal (an occupied sq is not checked), the size invalid or sq off
// the board.
func FlipsN(size int, p, o Set, sq Square) Set {
	if !ValidSize(size) || !sq.OnBoard(size) {
		return Set{}
	}
	return flipsN(size, p, o, sq)
}
