package ai

import (
	"math/bits"

	"github.com/reversibot/reversi/engine"
)

// The generic path handles every board size with sets of four words laid out like engine.Set:
// bit row<<4|col, so a bit index is an engine.Square.

// setN is a struct of four words rather than an array: Go keeps an array of more than one
// element in memory, a struct of four words in registers, and the generic search spends most
// of its time on these sets: as a struct it searches 1.3–1.4 times the nodes a second
// (BenchmarkSearchN).
type setN struct{ w0, w1, w2, w3 uint64 }

func (a setN) and(b setN) setN { return setN{a.w0 & b.w0, a.w1 & b.w1, a.w2 & b.w2, a.w3 & b.w3} }
func (a setN) or(b setN) setN  { return setN{a.w0 | b.w0, a.w1 | b.w1, a.w2 | b.w2, a.w3 | b.w3} }
func (a setN) andNot(b setN) setN {
	return setN{a.w0 &^ b.w0, a.w1 &^ b.w1, a.w2 &^ b.w2, a.w3 &^ b.w3}
}
func (a setN) empty() bool { return a.w0|a.w1|a.w2|a.w3 == 0 }
func (a setN) count() int {
	return bits.OnesCount64(a.w0) + bits.OnesCount64(a.w1) + bits.OnesCount64(a.w2) + bits.OnesCount64(a.w3)
}

// word returns word i (0…3): squares 64·i to 64·i+63.
func (a setN) word(i int) uint64 {
	switch i {
	case 0:
		return a.w0
	case 1:
		return a.w1
	case 2:
		return a.w2
	}
	return a.w3
}

// words returns the set as an engine.Set (toSetN's inverse).
func (a setN) words() engine.Set { return engine.Set{a.w0, a.w1, a.w2, a.w3} }

func (a setN) has(i int) bool { return a.word(i>>6)>>(uint(i)&63)&1 != 0 }
func (a setN) with(i int) setN {
	b := uint64(1) << (uint(i) & 63)
	switch i >> 6 {
	case 0:
		a.w0 |= b
	case 1:
		a.w1 |= b
	case 2:
		a.w2 |= b
	default:
		a.w3 |= b
	}
	return a
}

func shlN(s setN, k uint) setN {
	return setN{s.w0 << k, s.w1<<k | s.w0>>(64-k), s.w2<<k | s.w1>>(64-k), s.w3<<k | s.w2>>(64-k)}
}

func shrN(s setN, k uint) setN {
	return setN{s.w0>>k | s.w1<<(64-k), s.w1>>k | s.w2<<(64-k), s.w2>>k | s.w3<<(64-k), s.w3 >> k}
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
	return toSetN(engine.MovesN(g.n, p.words(), o.words()))
}

// flips returns the discs of o flipped by p playing on the empty square sq.
func (g *geomN) flips(p, o setN, sq int) setN {
	return toSetN(engine.FlipsN(g.n, p.words(), o.words(), engine.Square(sq)))
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
func toSetN(s engine.Set) setN { return setN{s[0], s[1], s[2], s[3]} }
