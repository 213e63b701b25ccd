package ai

import (
	"math/bits"
	"sort"

	"github.com/reversibot/reversi/engine"
)

// searcherN is one search on a board of any size; it mirrors searcher8 on four-word sets.
type searcherN struct {
	control
	arena   []moveN // move lists of the nodes on the current path, stacked
	g       *geomN
	mid     []midEntryN
	midMask uint64
	ev      *evalTable
	exactAt int
	// mpc and mpcT are searcher8's: the selective search's table and threshold.
	mpc  *MPCTable
	mpcT float64
	// lastRoot holds the root moves and scores of the last finished iteration (the book
	// generator reads them).
	lastRoot []rootMoveN
}

type midEntryN struct {
	p, o   setN
	lo, hi int16
	depth  int8
	move   int16
	used   bool
}

func newSearcherN(cfg *config, g *geomN, ev *evalTable) *searcherN {
	s := &searcherN{control: newControl(cfg, pollEveryN), g: g, ev: ev, exactAt: cfg.exactAt, mpc: cfg.mpc, mpcT: cfg.mpcT}
	s.mid = make([]midEntryN, 1<<(cfg.tableBits-2))
	s.midMask = uint64(len(s.mid) - 1)
	return s
}

func hashN(p, o setN) uint64 {
	h := uint64(0x9e3779b97f4a7c15)
	const m1, m2 = 0xbf58476d1ce4e5b9, 0x94d049bb133111eb
	h = ((h^p.w0)*m1 ^ o.w0) * m2
	h = ((h^p.w1)*m1 ^ o.w1) * m2
	h = ((h^p.w2)*m1 ^ o.w2) * m2
	h = ((h^p.w3)*m1 ^ o.w3) * m2
	return h ^ h>>31
}

func (s *searcherN) empties(p, o setN) int { return s.g.n*s.g.n - p.count() - o.count() }

func (s *searcherN) eval(p, o, pm setN) int {
	if s.ev.patN != nil {
		return s.ev.patN.eval(s.g, p, o, pm)
	}
	var f [numFeatures]int32
	om := s.g.moves(o, p)
	s.g.features(p, o, pm, om, &f)
	w := &s.ev.table[s.empties(p, o)]
	var v int32
	for i := range f {
		v += w[i] * f[i]
	}
	return clampEval(int(v))
}

// moveN is a move with its flips and ordering key.
type moveN struct {
	flips setN
	sq    int
	key   int
}

func (s *searcherN) play(p, o setN, m *moveN) (setN, setN) {
	return p.or(m.flips).with(m.sq), o.andNot(m.flips)
}

// list returns the moves of p, sorted by key (best first), in space taken from the arena;
// the caller gives it back with release. mode 0: square order only; 1: fewest opponent
// replies; 2: shallow evaluation.
func (s *searcherN) list(p, o, moves setN, mode int) []moveN {
	start := len(s.arena)
	for w := 0; w < 4; w++ {
		for x := moves.word(w); x != 0; x &= x - 1 {
			sq := w*64 + bits.TrailingZeros64(x)
			m := moveN{flips: s.g.flips(p, o, sq), sq: sq}
			if mode > 0 {
				np, no := s.play(p, o, &m)
				om := s.g.moves(no, np)
				if mode == 2 && !om.empty() {
					m.key = -s.eval(no, np, om)
				} else {
					m.key = -om.count() * 64
					if s.isCorner(sq) {
						m.key += 32
					}
				}
			} else if s.isCorner(sq) {
				m.key = 1
			}
			s.arena = append(s.arena, m)
		}
	}
	out := s.arena[start:len(s.arena):len(s.arena)]
	for i := 1; i < len(out); i++ {
		m := out[i]
		j := i
		for j > 0 && out[j-1].key < m.key {
			out[j] = out[j-1]
			j--
		}
		out[j] = m
	}
	return out
}

// release gives back the arena space of the list that starts at index start.
func (s *searcherN) release(list []moveN) { s.arena = s.arena[:len(s.arena)-len(list)] }

func (s *searcherN) isCorner(sq int) bool { return s.g.corners.has(sq) }

// solve returns the exact score of (p, o) within (alpha, beta), fail-soft.
func (s *searcherN) solve(p, o setN, alpha, beta int) int {
	s.nodes++
	if s.nodes >= s.nextCheck && s.poll() {
		return 0
	}
	if s.abort {
		return 0
	}
	moves := s.g.moves(p, o)
	if moves.empty() {
		if s.g.moves(o, p).empty() {
			return s.g.final(p, o)
		}
		return -s.solve(o, p, -beta, -alpha)
	}
	mode := 0
	if s.empties(p, o) > 6 {
		mode = 1
	}
	list := s.list(p, o, moves, mode)
	defer s.release(list)
	best := -infScore
	for i := range list {
		np, no := s.play(p, o, &list[i])
		var v int
		if i == 0 {
			v = -s.solve(no, np, -beta, -alpha)
		} else {
			v = -s.solve(no, np, -alpha-1, -alpha)
			if v > alpha && v < beta && !s.abort {
				v = -s.solve(no, np, -beta, -v)
			}
		}
		if s.abort {
			return 0
		}
		if v > best {
			best = v
			if v > alpha {
				alpha = v
				if v >= beta {
					break
				}
			}
		}
	}
	return best
}

// pvs is the midgame negascout search in hundredths of a disc.
func (s *searcherN) pvs(p, o setN, depth, alpha, beta int) int {
	s.nodes++
	if s.nodes >= s.nextCheck && s.poll() {
		return 0
	}
	if s.abort {
		return 0
	}
	n := s.empties(p, o)
	if n <= s.exactAt || depth >= n {
		a, b := floorDiv100(alpha), ceilDiv100(beta)
		lim := s.g.n * s.g.n
		a, b = max(a, -lim), min(b, lim)
		if a >= b {
			a = b - 1
		}
		return s.solve(p, o, a, b) * 100
	}
	moves := s.g.moves(p, o)
	if moves.empty() {
		if s.g.moves(o, p).empty() {
			return s.g.final(p, o) * 100
		}
		return -s.pvs(o, p, depth, -beta, -alpha)
	}
	if depth == 0 {
		return s.eval(p, o, moves)
	}
	e := &s.mid[hashN(p, o)&s.midMask]
	ttMove := -1
	if e.used && e.p == p && e.o == o {
		ttMove = int(e.move)
		if int(e.depth) >= depth {
			lo, hi := int(e.lo), int(e.hi)
			if lo >= beta {
				return lo
			}
			if hi <= alpha {
				return hi
			}
			if lo == hi {
				return lo
			}
			alpha, beta = max(alpha, lo), min(beta, hi)
		}
	}
	if s.mpc != nil && depth >= mpcMinDepth {
		if v, cut := s.mpcCut(p, o, n, depth, alpha, beta); cut {
			return v
		}
	}
	mode := 1
	if depth >= 3 {
		mode = 2
	}
	alpha0 := alpha
	best, bestMove := -infScore, -1
	// The table's move first, before paying for the ordering of the others (a move generation
	// for every child, an evaluation too from depth 3): where it refutes, as it mostly does at
	// a cut node, that is saved.
	if ttMove >= 0 && moves.has(ttMove) {
		m := moveN{flips: s.g.flips(p, o, ttMove), sq: ttMove}
		np, no := s.play(p, o, &m)
		v := -s.pvs(no, np, depth-1, -beta, -alpha)
		if s.abort {
			return 0
		}
		best, bestMove = v, ttMove
		alpha = max(alpha, v)
		moves = moves.andNot(setN{}.with(ttMove))
	}
	if best < beta {
		list := s.list(p, o, moves, mode)
		defer s.release(list)
		for i := range list {
			np, no := s.play(p, o, &list[i])
			var v int
			if i == 0 && bestMove < 0 {
				v = -s.pvs(no, np, depth-1, -beta, -alpha)
			} else {
				v = -s.pvs(no, np, depth-1, -alpha-1, -alpha)
				if v > alpha && v < beta && !s.abort {
					v = -s.pvs(no, np, depth-1, -beta, -v)
				}
			}
			if s.abort {
				return 0
			}
			if v > best {
				best, bestMove = v, list[i].sq
				if v > alpha {
					alpha = v
					if v >= beta {
						break
					}
				}
			}
		}
	}
	lo, hi := -infScore, infScore
	switch {
	case best <= alpha0:
		hi = best
	case best >= beta:
		lo = best
	default:
		lo, hi = best, best
	}
	*e = midEntryN{p: p, o: o, lo: int16(lo), hi: int16(hi), depth: int8(depth), move: int16(bestMove), used: true}
	return best
}

type rootMoveN struct {
	m     moveN
	score int
	exact bool
}

// run is iterative deepening at the root.
func (s *searcherN) run(p, o setN) Result {
	moves := s.g.moves(p, o)
	n := s.empties(p, o)
	if moves.empty() {
		if s.g.moves(o, p).empty() {
			return Result{Move: engine.Pass, Score: s.g.final(p, o) * 100, Exact: true}
		}
		r := s.run(o, p)
		r.Score = -r.Score
		r.PV = append([]engine.Square{engine.Pass}, r.PV...)
		r.Move = engine.Pass
		return r
	}
	var root []rootMoveN
	list := s.list(p, o, moves, 1)
	for _, m := range list {
		root = append(root, rootMoveN{m: m})
	}
	s.release(list)
	res := Result{Move: engine.Square(root[0].m.sq)}
	maxDepth := s.cfg.depth
	if maxDepth <= 0 || maxDepth > n {
		maxDepth = n
	}
	if len(root) == 1 && s.cfg.margin == 0 && !s.cfg.mustScore {
		maxDepth = 1
	}
	for d := 1; d <= maxDepth; d++ {
		d = s.cfg.iterDepth(d, n)
		exact := d >= n
		iterStart := s.elapsed()
		best, ok := s.rootIteration(p, o, root, d)
		if !ok {
			if best >= 0 && res.Depth > 0 && root[best].exact && engine.Square(root[best].m.sq) != res.Move {
				res.Move = engine.Square(root[best].m.sq)
				res.Score = root[best].score
			}
			break
		}
		res = s.result(p, o, root, best, d, exact)
		s.lastRoot = append(s.lastRoot[:0], root...)
		if exact || s.outOfTime(iterStart) {
			break
		}
	}
	res.Nodes = s.nodes
	res.Time = s.elapsed()
	return res
}

func (s *searcherN) rootIteration(p, o setN, root []rootMoveN, d int) (int, bool) {
	sort.SliceStable(root, func(i, j int) bool { return root[i].score > root[j].score })
	alpha, beta := -infScore, infScore
	best := -1
	for i := range root {
		m := &root[i]
		np, no := s.play(p, o, &m.m)
		var v int
		if i == 0 {
			v = -s.pvs(no, np, d-1, -beta, -alpha)
		} else {
			a := alpha - s.cfg.margin
			v = -s.pvs(no, np, d-1, -a-1, -a)
			if v > a && !s.abort {
				v = -s.pvs(no, np, d-1, -beta, -a)
			}
			m.exact = v > a
		}
		if s.abort {
			return best, false
		}
		if i == 0 {
			m.exact = true
		}
		m.score = v
		if best < 0 || v > root[best].score {
			best = i
			alpha = v
		}
	}
	return best, true
}

func (s *searcherN) result(p, o setN, root []rootMoveN, best, d int, exact bool) Result {
	pick := best
	if s.cfg.margin > 0 && s.cfg.rng != nil {
		var cands []int
		for i := range root {
			if root[i].exact && root[i].score >= root[best].score-s.cfg.margin {
				cands = append(cands, i)
			}
		}
		if len(cands) > 1 {
			pick = cands[s.cfg.rng.IntN(len(cands))]
		}
	}
	m := root[pick]
	r := Result{Move: engine.Square(m.m.sq), Score: m.score, Exact: exact, Depth: d, PV: []engine.Square{engine.Square(m.m.sq)}}
	np, no := s.play(p, o, &m.m)
	p, o = no, np
	for depth := d - 1; depth > 0; depth-- {
		moves := s.g.moves(p, o)
		if moves.empty() {
			if s.g.moves(o, p).empty() {
				break
			}
			r.PV = append(r.PV, engine.Pass)
			p, o = o, p
			continue
		}
		e := &s.mid[hashN(p, o)&s.midMask]
		if !e.used || e.p != p || e.o != o || e.move < 0 || !moves.has(int(e.move)) {
			break
		}
		sq := int(e.move)
		f := s.g.flips(p, o, sq)
		r.PV = append(r.PV, engine.Square(sq))
		p, o = o.andNot(f), p.or(f).with(sq)
	}
	return r
}
