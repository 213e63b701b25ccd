package engine

// Boards other than 8×8 use a Set per colour (16 squares a row, the columns past the board's edge
// always empty).

// boardMasks holds, per size, the squares of the board and the columns a run of discs may pass
// through in directions with a sideways step.
type boardMasks struct {
	inside Set // every square of the board
	inner  Set // squares not in the first or last column
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
		masksBySize[n] = m
	}
}

func and(a, b Set) Set { return Set{a[0] & b[0], a[1] & b[1], a[2] & b[2], a[3] & b[3]} }
func or(a, b Set) Set  { return Set{a[0] | b[0], a[1] | b[1], a[2] | b[2], a[3] | b[3]} }
func andNot(a, b Set) Set {
	return Set{a[0] &^ b[0], a[1] &^ b[1], a[2] &^ b[2], a[3] &^ b[3]}
}

// shl moves every square of s forward by k (1 ≤ k < 64) bit positions.
func shl(s Set, k uint) Set {
	return Set{s[0] << k, s[1]<<k | s[0]>>(64-k), s[2]<<k | s[1]>>(64-k), s[3]<<k | s[2]>>(64-k)}
}

// shr moves every square of s back by k (1 ≤ k < 64) bit positions.
func shr(s Set, k uint) Set {
	return Set{s[0]>>k | s[1]<<(64-k), s[1]>>k | s[2]<<(64-k), s[2]>>k | s[3]<<(64-k), s[3] >> k}
}

// movesN returns the legal moves on a board of the given size (not 8) for discs p against o.
func movesN(size int, p, o Set) Set {
	m := &masksBySize[size]
	empty := andNot(m.inside, or(p, o))
	oh := and(o, m.inner)
	var moves Set
	steps := size - 2
	for _, d := range [4]struct {
		k uint
		o Set
	}{{1, oh}, {16, o}, {15, oh}, {17, oh}} {
		x := and(d.o, shl(p, d.k))
		for i := 1; i < steps; i++ {
			x = or(x, and(d.o, shl(x, d.k)))
		}
		moves = or(moves, shl(x, d.k))
		x = and(d.o, shr(p, d.k))
		for i := 1; i < steps; i++ {
			x = or(x, and(d.o, shr(x, d.k)))
		}
		moves = or(moves, shr(x, d.k))
	}
	return and(moves, empty)
}

// flipsN returns the discs of o that a disc placed by p on sq flips, on a board of the given size.
func flipsN(size int, p, o Set, sq Square) Set {
	var f Set
	col, row := sq.Col(), sq.Row()
	for _, d := range dirs8 {
		var line Set
		c, r := col+d[0], row+d[1]
		for c >= 0 && c < size && r >= 0 && r < size {
			s := SquareAt(c, r)
			if !o.Has(s) {
				if p.Has(s) {
					f = or(f, line)
				}
				break
			}
			line = line.Add(s)
			c, r = c+d[0], r+d[1]
		}
	}
	return f
}
