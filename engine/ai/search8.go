package ai

import (
	"math/bits"
	"sort"

	"github.com/reversibot/reversi/engine"
)

// searcher8 is one 8×8 search: its tables belong to it alone.
type searcher8 struct {
	control
	end     []endEntry
	endMask uint64
	// near is the solver's small table for positions with fewer than nearEmpties empty
	// squares: it fits the core's own cache, where probes of the big table miss.
	near     []endEntry
	nearMask uint64
	mid      []midEntry
	midMask  uint64
	ev       *evalTable
	// exactAt: the midgame search switches to the exact solver when at most this many squares
	// are empty.
	exactAt int
	// selMargin, when positive, makes the solver selective (the pre-search before an exact
	// root iteration): its probabilistic cut-offs trust a shallow search that lies this far
	// (hundredths of a disc) beyond the window.
	selMargin int
	// mpc, when not nil, makes the midgame search selective (Multi-ProbCut, mpc.go) with a
	// threshold of mpcT standard deviations.
	mpc  *MPCTable
	mpcT float64
	// endLists holds the solver's move list of each number of empty squares: a node's list lives
	// until it returns and its children have fewer empty squares, so one per number suffices, and
	// the lists need not be cleared for every node (zeroing a local list cost 2.4% of the
	// solver's instructions).
	endLists [61]endList
	// lastRoot holds the root moves and scores of the last finished iteration (the book
	// generator reads them).
	lastRoot []rootMove8
}

// midEntry is a transposition-table slot of the midgame search.
type midEntry struct {
	p, o   uint64
	lo, hi int16
	depth  int8
	move   int8
	used   bool
}

func newSearcher8(cfg *config, ev *evalTable) *searcher8 {
	s := &searcher8{control: newControl(cfg, pollEvery), ev: ev, exactAt: cfg.exactAt, mpc: cfg.mpc, mpcT: cfg.mpcT}
	s.end = make([]endEntry, 1<<cfg.tableBits)
	s.endMask = uint64(len(s.end) - 1)
	s.near = make([]endEntry, 1<<min(cfg.tableBits, nearBits))
	s.nearMask = uint64(len(s.near) - 1)
	s.mid = make([]midEntry, 1<<(cfg.tableBits-1))
	s.midMask = uint64(len(s.mid) - 1)
	return s
}

const infScore = 1 << 14

// The selective pre-search runs before exact root iterations from preSearchEmpties empty
// squares on, with probabilistic cut-offs of margin preSearchMargin (hundredths of a disc):
// on FFO #40–#49 margins of 2, 4, 8, 10, 12 and 18 discs gave 65.5, 66.6, 56.5, 57.5, 58.6
// and 61.6 CPU s in total (no pre-search: 66.3 s).
const (
	preSearchEmpties = 18
	preSearchMargin  = 800
)

func floorDiv100(x int) int {
	if x >= 0 {
		return x / 100
	}
	return -((-x + 99) / 100)
}

func ceilDiv100(x int) int { return -floorDiv100(-x) }

// pvs is the midgame negascout search; scores are in hundredths of a disc, exact scores are
// multiplied by 100.
func (s *searcher8) pvs(p, o uint64, depth, alpha, beta int) int {
	s.nodes++
	if s.nodes >= s.nextCheck && s.poll() {
		return 0
	}
	if s.abort {
		return 0
	}
	n := popcnt(^(p | o))
	if n <= s.exactAt || depth >= n {
		a, b := floorDiv100(alpha), ceilDiv100(beta)
		a, b = max(a, -64), min(b, 64)
		if a >= b {
			a = b - 1
		}
		return s.solve(p, o, a, b) * 100
	}
	moves := moves8(p, o)
	if moves == 0 {
		if moves8(o, p) == 0 {
			return final8(p, o) * 100
		}
		return -s.pvs(o, p, depth, -beta, -alpha)
	}
	if depth == 0 {
		return eval8(s.ev, p, o, moves)
	}
	if depth == 1 && n-1 > s.exactAt { // replies the search would solve exactly go the long way
		return s.frontier(p, o, moves, beta)
	}
	h := hash8(p, o)
	e := s.midProbe(p, o, h)
	ttMove := -1
	if e != nil {
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
	alpha0 := alpha
	best, bestMove := -infScore, -1
	// The table's move first, before paying for the ordering of the others (an evaluation of
	// every child from depth 3): where it refutes, as it mostly does at a cut node, that is
	// saved.
	if ttMove >= 0 && moves&(1<<uint(ttMove)) != 0 {
		f := flips8(p, o, ttMove)
		v := -s.pvs(o&^f, p|f|1<<uint(ttMove), depth-1, -beta, -alpha)
		if s.abort {
			return 0
		}
		best, bestMove = v, ttMove
		alpha = max(alpha, v)
		moves &^= 1 << uint(ttMove)
	}
	var list [32]move8
	cnt := 0
	if best < beta {
		cnt = s.orderMid(p, o, moves, depth, list[:0])
	}
	for i := 0; i < cnt; i++ {
		m := &list[i]
		np, no := p|m.flips|1<<uint(m.sq), o&^m.flips
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
			best, bestMove = v, m.sq
			if v > alpha {
				alpha = v
				if v >= beta {
					break
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
	s.midStore(h, midEntry{p: p, o: o, lo: int16(lo), hi: int16(hi), depth: int8(depth), move: int8(bestMove), used: true})
	return best
}

// midProbe returns the midgame table's entry for (p, o) with hash h, or nil.
func (s *searcher8) midProbe(p, o, h uint64) *midEntry {
	i := h & s.midMask &^ 1
	if e := &s.mid[i]; e.used && e.p == p && e.o == o {
		return e
	}
	if e := &s.mid[i+1]; e.used && e.p == p && e.o == o {
		return e
	}
	return nil
}

// midStore stores n in its two-slot bucket: over the entry of the same position if there is
// one, else over the one searched less deep, so that the deep results of earlier iterations
// survive the flood of shallow nodes.
func (s *searcher8) midStore(h uint64, n midEntry) {
	i := h & s.midMask &^ 1
	a, b := &s.mid[i], &s.mid[i+1]
	switch {
	case a.used && a.p == n.p && a.o == n.o:
		*a = n
	case b.used && b.p == n.p && b.o == n.o:
		*b = n
	case a.depth <= b.depth:
		*a = n
	default:
		*b = n
	}
}

// frontier is pvs one ply above the evaluation: it evaluates each reply and returns the best,
// fail-soft, stopping at the first that reaches beta. At this depth the table and the sorting
// cost more than they save (on 60 midgame positions searched to depth 14, about 15% of the
// time, for 16% more nodes), so neither is used; corners are tried first, being the likeliest
// refutations.
func (s *searcher8) frontier(p, o, moves uint64, beta int) int {
	best := s.frontierSet(p, o, moves&corners8, beta, -infScore)
	if best >= beta {
		return best
	}
	return s.frontierSet(p, o, moves&^corners8, beta, best)
}

// frontierSet is frontier over the moves in the set, starting from best.
func (s *searcher8) frontierSet(p, o, moves uint64, beta, best int) int {
	for ; moves != 0; moves &= moves - 1 {
		sq := bits.TrailingZeros64(moves)
		f := flips8(p, o, sq)
		np, no := p|f|1<<uint(sq), o&^f
		s.nodes++
		var v int
		if om := moves8(no, np); om != 0 {
			v = -eval8(s.ev, no, np, om)
		} else if pm := moves8(np, no); pm != 0 {
			s.nodes++ // the opponent passes
			v = eval8(s.ev, np, no, pm)
		} else {
			v = -final8(no, np) * 100
		}
		if v > best {
			best = v
			if v >= beta {
				break
			}
		}
	}
	return best
}

// orderMid sorts the moves for the midgame search (the table's move is searched before it):
// by a shallow evaluation when the remaining depth pays for it, else by mobility and square
// value.
func (s *searcher8) orderMid(p, o, moves uint64, depth int, list []move8) int {
	for moves != 0 {
		sq := bits.TrailingZeros64(moves)
		moves &= moves - 1
		f := flips8(p, o, sq)
		np, no := p|f|1<<uint(sq), o&^f
		var key int
		switch {
		case depth >= 3:
			om := moves8(no, np)
			if om == 0 {
				key = 1 << 18
			} else {
				key = -eval8(s.ev, no, np, om)
			}
		default:
			om := moves8(no, np)
			key = -popcnt(om)*64 + squareValue8[sq]*4
		}
		list = append(list, move8{flips: f, sq: sq, key: key})
	}
	for i := 1; i < len(list); i++ {
		m := list[i]
		j := i
		for j > 0 && list[j-1].key < m.key {
			list[j] = list[j-1]
			j--
		}
		list[j] = m
	}
	return len(list)
}

// rootMove8 is a move at the root with its latest score.
type rootMove8 struct {
	sq    int
	flips uint64
	score int
	exact bool // score is the move's value, not a bound
}

// run is iterative deepening at the root.
func (s *searcher8) run(p, o uint64) Result {
	moves := moves8(p, o)
	n := popcnt(^(p | o))
	if moves == 0 {
		if moves8(o, p) == 0 {
			return Result{Move: engine.Pass, Score: final8(p, o) * 100, Exact: true}
		}
		return s.runPass(o, p)
	}
	var root []rootMove8
	var list [32]move8
	cnt := s.orderMid(p, o, moves, 1, list[:0])
	for i := 0; i < cnt; i++ {
		root = append(root, rootMove8{sq: list[i].sq, flips: list[i].flips})
	}
	res := Result{Move: toSquare8(root[0].sq), Depth: 0}
	maxDepth := s.cfg.depth
	if maxDepth <= 0 || maxDepth > n {
		maxDepth = n
	}
	if len(root) == 1 && s.cfg.margin == 0 && !s.cfg.mustScore {
		// A forced move: answer at once with a shallow score.
		maxDepth = min(maxDepth, 1)
	}
	for d := 1; d <= maxDepth; d++ {
		d = s.cfg.iterDepth(d, n)
		exact := d >= n
		iterStart := s.elapsed()
		if exact && d > 1 && n >= preSearchEmpties && s.cfg.margin == 0 {
			// Pre-search: a selective solve gives the exact iteration a close first guess, the
			// root order and a table of best moves.
			s.selMargin = preSearchMargin
			pb, ok := s.rootIteration(p, o, root, d)
			s.selMargin = 0
			if ok && s.cfg.probable {
				// The selective solve's answer stands until the exact one replaces it.
				res = s.result(p, o, root, pb, d, false)
				s.lastRoot = append(s.lastRoot[:0], root...)
			}
			for i := range root {
				root[i].exact = false
			}
			if !ok {
				break
			}
		}
		best, ok := s.rootIteration(p, o, root, d)
		if !ok {
			// Aborted: keep a move that this partial iteration proved better than the last
			// iteration's choice.
			if best >= 0 && res.Depth > 0 && root[best].exact && root[best].sq != fromSquare8(res.Move) {
				res.Move = toSquare8(root[best].sq)
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

// runPass answers for a side that must pass.
func (s *searcher8) runPass(p, o uint64) Result {
	r := s.run(p, o)
	r.Score = -r.Score
	r.PV = append([]engine.Square{engine.Pass}, r.PV...)
	r.Move = engine.Pass
	return r
}

// rootIteration searches every root move to depth d; it returns the index of the best move
// and false when aborted (the index then names the best move finished so far, or −1).
func (s *searcher8) rootIteration(p, o uint64, root []rootMove8, d int) (int, bool) {
	// Keep the previous iteration's order: best first.
	sort.SliceStable(root, func(i, j int) bool { return root[i].score > root[j].score })
	alpha, beta := -infScore, infScore
	best := -1
	margin := s.cfg.margin
	exactRoot := d > 1 && d == popcnt(^(p|o))
	for i := range root {
		m := &root[i]
		np, no := p|m.flips|1<<uint(m.sq), o&^m.flips
		var v int
		if i == 0 {
			v = s.aspiration(no, np, d, m.score, exactRoot)
		} else {
			a := alpha - margin
			v = -s.pvs(no, np, d-1, -a-1, -a)
			if v > a && !s.abort {
				if exactRoot && margin == 0 {
					// A move better than the best so far: find its exact value with narrow
					// windows from the bound just proved rather than with (a, +inf).
					v = s.aspiration(no, np, d, v, true)
				} else {
					v = -s.pvs(no, np, d-1, -beta, -a)
				}
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

// result builds the answer of a finished iteration, applying the level's randomness.
func (s *searcher8) result(p, o uint64, root []rootMove8, best, d int, exact bool) Result {
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
	r := Result{Move: toSquare8(m.sq), Score: m.score, Exact: exact, Depth: d}
	r.PV = append(r.PV, r.Move)
	np, no := p|m.flips|1<<uint(m.sq), o&^m.flips
	r.PV = s.pv(no, np, r.PV, d-1)
	return r
}

// pv follows the tables from (p, o) to extend a principal variation.
func (s *searcher8) pv(p, o uint64, pv []engine.Square, depth int) []engine.Square {
	for ; depth > 0 && len(pv) < 64; depth-- {
		moves := moves8(p, o)
		if moves == 0 {
			if moves8(o, p) == 0 {
				return pv
			}
			pv = append(pv, engine.Pass)
			p, o = o, p
			continue
		}
		sq := -1
		if e := s.midProbe(p, o, hash8(p, o)); e != nil {
			sq = int(e.move)
		} else if e, _ := s.endSlot(p, o, popcnt(^(p | o))); e != nil {
			sq = int(e.move)
		}
		if sq < 0 || moves&(1<<uint(sq)) == 0 {
			return pv
		}
		f := flips8(p, o, sq)
		pv = append(pv, toSquare8(sq))
		p, o = o&^f, p|f|1<<uint(sq)
	}
	return pv
}

// aspiration searches a root move (the position after it is (p, o)) to depth d-1 and returns
// its value for the side at the root. With narrow set (exact searches only) it asks a series
// of narrow questions "is the score t, above it or below it?", starting from guess (in
// hundredths, e.g. the move's value in the previous iteration) and stepping one score at a
// time toward the answer; each question proves a bound (fail-soft, so sometimes a better one
// than asked) and the table keeps the work for the next. Far from the true score such proofs
// are cheap, and they avoid the wide windows whose searches cost most.
func (s *searcher8) aspiration(p, o uint64, d, guess int, narrow bool) int {
	if !narrow {
		return -s.pvs(p, o, d-1, -infScore, infScore)
	}
	lo, hi := -64, 64 // the score is known to lie in [lo, hi]; exact scores on 8×8 are even
	t := floorDiv100(guess)
	t -= t & 1
	t = min(max(t, lo), hi)
	for {
		a, b := t*100-100, t*100+100
		if t <= lo {
			a = -infScore
		}
		if t >= hi {
			b = infScore
		}
		v := -s.pvs(p, o, d-1, -b, -a)
		switch {
		case s.abort:
			return v
		case v >= b:
			lo = max(t+2, ceilDiv100(v))
			lo += lo & 1
			t = lo
		case v <= a:
			hi = min(t-2, floorDiv100(v))
			hi -= hi & 1
			t = hi
		default:
			return v
		}
	}
}
