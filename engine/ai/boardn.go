package ai

import (
	"math/bits"

	"github.com/reversibot/reversi/engine"
)

// The generic path handles every board size with sets of four words laid out like engine.Set:
// bit row<<4|col, so a bit index is an engine.Square.

type setN [4]uint64

func (a setN) and(b setN) setN { return setN{a[0] & b[0], a[1] & b[1], a[2] & b[2], a[3] & b[3]} }
func (a setN) or(b setN) setN  { return setN{a[0] | b[0], a[1] | b[1], a[2] | b[2], a[3] | b[3]} }
func (a setN) andNot(b setN) setN {
	return setN{a[0] &^ b[0], a[1] &^ b[1], a[2] &^ b[2], a[3] &^ b[3]}
}
func (a setN) empty() bool { return a[0]|a[1]|a[2]|a[3] == 0 }
func (a setN) count() int {
	return bits.OnesCount64(a[0]) + bits.OnesCount64(a[1]) + bits.OnesCount64(a[2]) + bits.OnesCount64(a[3])
}
func (a setN) has(i int) bool { return a[i>>6]>>(uint(i)&63)&1 != 0 }
func (a setN) with(i int) setN {
	a[i>>6] |= 1 << (uint(i) & 63)
	return a
}

func shlN(s setN, k uint) setN {
	return setN{s[0] << k, s[1]<<k | s[0]>>(64-k), s[2]<<k | s[1]>>(64-k), s[3]<<k | s[2]>>(64-k)}
}

func shrN(s setN, k uint) setN {
	return setN{s[0]>>k | s[1]<<(64-k), s[1]>>k | s[2]<<(64-k), s[2]>>k | s[3]<<(64-k), s[3] >> k}
}

// geomN holds the masks of one board size.
type geomN struct {
	n                      int
	inside                 setN
	col0, colLast          setN
	row0, rowLast          setN
	corners, edges         setN
	cornerBit              [4]int
	xsq                    [4]int
	csq                    [4][2]int
	rows, cols, diags, ant []setN
}

var geoms [17]*geomN

func init() {
	for n := engine.MinSize; n <= engine.MaxSize; n += 2 {
		geoms[n] = newGeom(n)
	}
}

func idx(c, r int) int { return r<<4 | c }

func newGeom(n int) *geomN {
	g := &geomN{n: n}
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			i := idx(c, r)
			g.inside = g.inside.with(i)
			if c == 0 {
				g.col0 = g.col0.with(i)
			}
			if c == n-1 {
				g.colLast = g.colLast.with(i)
			}
			if r == 0 {
				g.row0 = g.row0.with(i)
			}
			if r == n-1 {
				g.rowLast = g.rowLast.with(i)
			}
		}
	}
	l := n - 1
	g.cornerBit = [4]int{idx(0, 0), idx(l, 0), idx(0, l), idx(l, l)}
	g.xsq = [4]int{idx(1, 1), idx(l-1, 1), idx(1, l-1), idx(l-1, l-1)}
	g.csq = [4][2]int{{idx(1, 0), idx(0, 1)}, {idx(l-1, 0), idx(l, 1)}, {idx(0, l-1), idx(1, l)}, {idx(l, l-1), idx(l-1, l)}}
	for _, b := range g.cornerBit {
		g.corners = g.corners.with(b)
	}
	g.edges = g.col0.or(g.colLast).or(g.row0).or(g.rowLast).andNot(g.corners)
	for i := 0; i < n; i++ {
		var row, col setN
		for j := 0; j < n; j++ {
			row = row.with(idx(j, i))
			col = col.with(idx(i, j))
		}
		g.rows = append(g.rows, row)
		g.cols = append(g.cols, col)
	}
	for k := -(n - 1); k <= n-1; k++ { // c - r = k
		var d, a setN
		for r := 0; r < n; r++ {
			if c := r + k; c >= 0 && c < n {
				d = d.with(idx(c, r))
			}
			if c := n - 1 - r + k; c >= 0 && c < n {
				a = a.with(idx(c, r))
			}
		}
		g.diags = append(g.diags, d)
		g.ant = append(g.ant, a)
	}
	return g
}

// moves returns the legal moves of p against o.
func (g *geomN) moves(p, o setN) setN {
	return setN(engine.MovesN(g.n, engine.Set(p), engine.Set(o)))
}

// flips returns the discs of o flipped by p playing on the empty square sq.
func (g *geomN) flips(p, o setN, sq int) setN {
	return setN(engine.FlipsN(g.n, engine.Set(p), engine.Set(o), engine.Square(sq)))
}

// neighbours returns the squares of the board next to a square of x, x excluded.
func (g *geomN) neighbours(x setN) setN {
	h := x.or(shlN(x, 1).andNot(g.col0)).or(shrN(x, 1).andNot(g.colLast))
	h = h.or(shlN(h, 16)).or(shrN(h, 16))
	return h.and(g.inside).andNot(x)
}

// stable returns the discs of p that can never flip (the same lower bound as stable8).
func (g *geomN) stable(p, o setN) setN {
	f := g.fullLines(p.or(o))
	return g.stableIn(p, &f)
}

// stableBoth returns stable(p, o) and stable(o, p), finding the full lines once.
func (g *geomN) stableBoth(p, o setN) (setN, setN) {
	f := g.fullLines(p.or(o))
	return g.stableIn(p, &f), g.stableIn(o, &f)
}

// linesN holds the squares of a board's full rows, columns, diagonals and anti-diagonals.
type linesN struct{ row, col, diag, anti setN }

// fullLines returns the lines of the board that the occupied squares occ fill.
func (g *geomN) fullLines(occ setN) linesN {
	var f linesN
	full := func(lines []setN, acc *setN) {
		for _, l := range lines {
			if occ.and(l) == l {
				*acc = acc.or(l)
			}
		}
	}
	full(g.rows, &f.row)
	full(g.cols, &f.col)
	full(g.diags, &f.diag)
	full(g.ant, &f.anti)
	return f
}

// stableIn returns the stable discs of p on a board whose full lines are f.
func (g *geomN) stableIn(p setN, f *linesN) setN {
	if p.and(g.corners).empty() && f.row.or(f.col).or(f.diag).or(f.anti).empty() {
		return setN{}
	}
	border := g.col0.or(g.colLast).or(g.row0).or(g.rowLast)
	row := f.row.or(g.col0).or(g.colLast)
	col := f.col.or(g.row0).or(g.rowLast)
	diag := f.diag.or(border)
	anti := f.anti.or(border)
	var s setN
	for {
		h := row.or(shlN(s, 1).andNot(g.col0)).or(shrN(s, 1).andNot(g.colLast))
		v := col.or(shlN(s, 16)).or(shrN(s, 16))
		d := diag.or(shlN(s, 17).andNot(g.col0)).or(shrN(s, 17).andNot(g.colLast))
		a := anti.or(shlN(s, 15).andNot(g.colLast)).or(shrN(s, 15).andNot(g.col0))
		nx := p.and(h).and(v).and(d).and(a)
		if nx == s {
			return s
		}
		s = nx
	}
}

// finalN is the exact score of a finished game for p (empty squares to the winner).
func (g *geomN) final(p, o setN) int {
	np, no := p.count(), o.count()
	d := np - no
	e := g.n*g.n - np - no
	switch {
	case d > 0:
		d += e
	case d < 0:
		d -= e
	}
	return d
}

// featuresN computes the evaluation features of (p, o) given both sides' legal moves.
func (g *geomN) features(p, o, pm, om setN, f *[numFeatures]int32) {
	empty := g.inside.andNot(p.or(o))
	var xs, cs setN
	for i, cb := range g.cornerBit {
		if empty.has(cb) {
			xs = xs.with(g.xsq[i])
			cs = cs.with(g.csq[i][0]).with(g.csq[i][1])
		}
	}
	ne := empty.count()
	f[featBias] = 1
	f[featCorner] = int32(p.and(g.corners).count() - o.and(g.corners).count())
	f[featX] = int32(p.and(xs).count() - o.and(xs).count())
	f[featC] = int32(p.and(cs).count() - o.and(cs).count())
	f[featMobility] = int32(pm.count() - om.count())
	f[featPotMob] = int32(g.neighbours(o).and(empty).count() - g.neighbours(p).and(empty).count())
	sp, so := g.stableBoth(p, o)
	f[featStable] = int32(sp.count() - so.count())
	f[featParity] = int32(ne&1*2 - 1)
	f[featDiscs] = int32(p.count() - o.count())
	f[featEdge] = int32(p.and(g.edges).count() - o.and(g.edges).count())
}

// toSetN converts an engine set.
func toSetN(s engine.Set) setN { return setN(s) }
