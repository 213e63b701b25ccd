package ai

import "math/bits"

// The exact endgame solver of the 8×8 fast path. Scores are exact final disc differences for
// the side to move with the empty squares given to the winner; the search is fail-soft
// negamax with principal-variation windows.

// Solver thresholds: below shallowEmpties the solver walks the empty squares in parity order
// without sorting (the last two have a routine of their own); from hashEmpties on it uses the
// transposition table.
const (
	shallowEmpties = 6
	hashEmpties    = 7
	// etcEmpties: from here on a node first looks its replies up in the table (enhanced
	// transposition cut-off).
	etcEmpties = 12
	// deepOrderEmpties: from here on moves are ordered with the evaluation too.
	deepOrderEmpties = 14
	// searchOrderEmpties: from here on moves are ordered by a shallow search of depth
	// 1 + (empties − searchOrderEmpties)/2 (and the pre-search's cut-off searches 4 plies).
	searchOrderEmpties = 17
	// selEmpties: from here on the selective pre-search tries its probabilistic cut-off.
	selEmpties = 12
	// nearEmpties: positions with fewer empty squares use the small table of 2^nearBits
	// entries (768 KB).
	nearEmpties = 11
	nearBits    = 15
	// potentialEmpties: from here on the fastest-first key also counts the empty squares
	// next to the mover's discs.
	potentialEmpties = 10
	// shallowStableAlpha: from this alpha on, nodes of the last few empty squares try the
	// stability cut-off too (below it the cut-off is rare: on FFO #40, #41 and #44 thresholds of
	// 14 to 24 saved 2.2% of the instructions, 0 and 10 less).
	shallowStableAlpha = 20
)

// endEntry is a transposition-table slot of the endgame solver: the position itself (so no
// collision can corrupt an exact score), the bounds found and the best move.
type endEntry struct {
	p, o   uint64
	lo, hi int8
	move   int8
	n      int8 // empty squares: deeper entries are kept longer
	used   bool
	// sel marks bounds found by the selective pre-search: they are guesses, so the exact
	// search takes only the move from such an entry.
	sel bool
}

// endSlot finds (p, o) in its two-slot bucket; when absent it returns nil and the slot to
// replace: the first slot keeps the deepest position, the second the most recent one.
func (s *searcher8) endSlot(p, o uint64, n int) (hit, victim *endEntry) {
	t, mask := s.end, s.endMask
	if n < nearEmpties {
		t, mask = s.near, s.nearMask
	}
	i := hash8(p, o) & mask &^ 1
	a, b := &t[i], &t[i+1]
	switch {
	case a.used && a.p == p && a.o == o:
		return a, a
	case b.used && b.p == p && b.o == o:
		return b, b
	case !a.used || n >= int(a.n):
		return nil, a
	}
	return nil, b
}

// hash8 mixes a position into 64 bits of which every one depends on every square: the tables
// index by the low bits, so a mix that left them blind to some squares (once the case: rows 7
// and 8 did not reach the low 17 bits) would crowd positions that differ only there, such as
// the replies at the root, into the same buckets.
func hash8(p, o uint64) uint64 {
	h := p*0x9e3779b97f4a7c15 ^ (o+0x632be59bd9b4e019)*0xc2b2ae3d27d4eb4f
	h ^= h >> 32
	h *= 0xd6e8feb86659fd93
	return h ^ h>>32
}

// oddEmpties returns the empty squares that lie in quadrants holding an odd number of them. It
// folds each quadrant's parity into its corner bit (columns within a row, then rows), and the
// multiplication copies each corner bit over its 4×4 quadrant (the four products never overlap).
func oddEmpties(empty uint64) uint64 {
	x := empty ^ empty>>1
	x ^= x >> 2
	x ^= x >> 8
	x ^= x >> 16
	return (x & 0x0000001100000011 * 0x0f0f0f0f) & empty
}

// solve returns the exact score of (p, o) within the window (alpha, beta), fail-soft.
func (s *searcher8) solve(p, o uint64, alpha, beta int) int {
	empty := ^(p | o)
	n := popcnt(empty)
	switch {
	case n == 0:
		s.nodes++
		return popcnt(p)*2 - 64
	case n == 1:
		s.nodes++
		return last1(p, o, bits.TrailingZeros64(empty))
	case n < shallowEmpties:
		return s.solveShallow(p, o, alpha, beta, empty, false)
	}
	return s.solveDeep(p, o, alpha, beta, n, false, unknownMoves)
}

// last1 scores the last empty square sq.
func last1(p, o uint64, sq int) int {
	np := popcnt(p)
	if c := lastFlipCount8(p, sq); c != 0 {
		return 2*(np+c+1) - 64
	}
	if c := lastFlipCount8(o, sq); c != 0 {
		return 2*(np-c) - 64
	}
	// Nobody can play the last square: it goes to the winner.
	d := 2*np - 63
	if d > 0 {
		return d + 1
	}
	return d - 1
}

// solveShallow searches the last few empty squares without move generation: it tries each
// empty square next to an opponent disc, odd quadrants first.
func (s *searcher8) solveShallow(p, o uint64, alpha, beta int, empty uint64, passed bool) int {
	switch e := empty & (empty - 1); {
	case e == 0:
		s.nodes++
		return last1(p, o, bits.TrailingZeros64(empty))
	case e&(e-1) == 0:
		return s.solve2(p, o, alpha, beta, bits.TrailingZeros64(empty), bits.TrailingZeros64(e))
	case e&(e-1)&(e&(e-1)-1) == 0:
		a, b, c := parity3(bits.TrailingZeros64(empty), bits.TrailingZeros64(e), bits.TrailingZeros64(e&(e-1)))
		return s.solve3(p, o, alpha, beta, a, b, c, passed)
	}
	s.nodes++
	if alpha >= shallowStableAlpha {
		if top, ok := stableCut8(p, o, alpha); ok {
			return top
		}
	}
	best := -65
	cand := empty & neighbours8(o)
	odd := oddEmpties(empty)
	for _, set := range [2]uint64{cand & odd, cand &^ odd} {
		for set != 0 {
			sq := bits.TrailingZeros64(set)
			set &= set - 1
			f := flips8(p, o, sq)
			if f == 0 {
				continue
			}
			np, no := p|f|1<<uint(sq), o&^f
			v := -s.solveShallow(no, np, -beta, -max(alpha, best), empty&^(1<<uint(sq)), false)
			if v > best {
				best = v
				if v >= beta {
					return v
				}
			}
		}
	}
	if best == -65 {
		if passed {
			return final8(p, o)
		}
		return -s.solveShallow(o, p, -beta, -alpha, empty, true)
	}
	return best
}

// quadrantOf8 numbers a square's 4×4 quadrant: 0 and 1 for the lower rows (columns a–d, e–h),
// 2 and 3 for the upper rows. Moves into a quadrant with an odd number of empty squares are
// tried first (parity ordering).
func quadrantOf8(sq int) int { return sq>>5<<1 | sq>>2&1 }

// parity3 orders three empty squares for the search: a square alone in its quadrant (an odd
// one) before two that share one.
func parity3(a, b, c int) (int, int, int) {
	qa, qb, qc := quadrantOf8(a), quadrantOf8(b), quadrantOf8(c)
	switch {
	case qa == qb && qb != qc:
		return c, a, b
	case qa == qc && qb != qc:
		return b, a, c
	}
	return a, b, c
}

// solve3 is the exact score with exactly three empty squares, tried in the order a, b, c,
// fail-soft in (alpha, beta); passed says the opponent has just passed. The three tries are
// written out: a loop over the squares cost 1% of the solver's instructions.
func (s *searcher8) solve3(p, o uint64, alpha, beta int, a, b, c int, passed bool) int {
	s.nodes++
	best := -65
	// Each try hands solve2 the other two squares, lower first, as the search always has.
	if o&adjacent8[a&63] != 0 {
		if f := flips8(p, o, a); f != 0 {
			best = -s.solve2(o&^f, p|f|1<<uint(a), -beta, -alpha, min(b, c), max(b, c))
			if best >= beta {
				return best
			}
		}
	}
	if o&adjacent8[b&63] != 0 {
		if f := flips8(p, o, b); f != 0 {
			v := -s.solve2(o&^f, p|f|1<<uint(b), -beta, -max(alpha, best), min(a, c), max(a, c))
			if v > best {
				best = v
				if v >= beta {
					return v
				}
			}
		}
	}
	if o&adjacent8[c&63] != 0 {
		if f := flips8(p, o, c); f != 0 {
			best = max(best, -s.solve2(o&^f, p|f|1<<uint(c), -beta, -max(alpha, best), min(a, b), max(a, b)))
		}
	}
	if best != -65 {
		return best
	}
	if passed {
		return final8(p, o)
	}
	return -s.solve3(o, p, -beta, -alpha, a, b, c, true)
}

// adjacent8 holds, per square, the squares next to it.
var adjacent8 = func() (t [64]uint64) {
	for sq := range t {
		t[sq] = neighbours8(1 << uint(sq))
	}
	return t
}()

// solve2 is the exact score with exactly two empty squares, a and b, fail-soft in
// (alpha, beta).
func (s *searcher8) solve2(p, o uint64, alpha, beta int, a, b int) int {
	s.nodes++
	best := -65
	if f := flips8(p, o, a); f != 0 {
		best = -last1(o&^f, p|f|1<<uint(a), b)
	}
	if best < beta {
		if f := flips8(p, o, b); f != 0 {
			best = max(best, -last1(o&^f, p|f|1<<uint(b), a))
		}
	}
	if best != -65 {
		return best
	}
	// p passes: the opponent picks the lower of its replies.
	worst, moved := 65, false
	if f := flips8(o, p, a); f != 0 {
		worst, moved = last1(p&^f, o|f|1<<uint(a), b), true
	}
	if worst > alpha {
		if f := flips8(o, p, b); f != 0 {
			worst, moved = min(worst, last1(p&^f, o|f|1<<uint(b), a)), true
		}
	}
	if !moved {
		return final8(p, o)
	}
	return worst
}

// stableCut8 is the stability cut-off: the best final score p can reach against o's stable
// discs, and whether it is at most alpha (the node may then return it). Unless o has enough
// discs for such a bound, it answers no without looking for stable ones.
func stableCut8(p, o uint64, alpha int) (int, bool) {
	if 64-2*popcnt(o) > alpha {
		return 0, false
	}
	top := 64 - 2*popcnt(solverStable8(o, p))
	return top, top <= alpha
}

// unknownMoves stands for a set of moves not computed yet (no position has every square free).
const unknownMoves = ^uint64(0)

// solveDeep is the solver for positions with many empty squares: fastest-first ordering,
// stability cut-offs and the transposition table. moves is p's legal moves, or unknownMoves.
func (s *searcher8) solveDeep(p, o uint64, alpha, beta, n int, passed bool, moves uint64) int {
	s.nodes++
	if s.nodes >= s.nextCheck && s.poll() {
		return 0
	}
	if s.abort {
		return 0
	}
	// Stability cut-off: the opponent's stable discs bound what p can reach (only worth its
	// cost where the window asks for a win).
	if alpha >= 0 {
		if top, ok := stableCut8(p, o, alpha); ok {
			return top
		}
	}
	var e, hit *endEntry
	ttMove := -1
	if n >= hashEmpties {
		hit, e = s.endSlot(p, o, n)
		if hit != nil && hit.sel && s.selMargin == 0 {
			// A guess of the pre-search: keep its move, not its bounds.
			ttMove = int(hit.move)
			hit = nil
		}
		if hit != nil {
			lo, hi := int(hit.lo), int(hit.hi)
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
			ttMove = int(hit.move)
		}
	}
	if moves == unknownMoves {
		moves = moves8(p, o)
	}
	if moves == 0 {
		if passed || moves8(o, p) == 0 {
			return final8(p, o)
		}
		return -s.solveDeep(o, p, -beta, -alpha, n, true, unknownMoves)
	}
	// Selective pre-search: a shallow search far beyond the window is taken as the answer
	// (probabilistic cut-off); the bound it returns is a guess, never stored as exact.
	if s.selMargin > 0 && n >= selEmpties {
		if v, ok := s.probCut(p, o, alpha, beta, n); ok {
			return v
		}
	}
	alpha0 := alpha
	best, bestMove := -65, -1
	searched := false
	// The table's move first, before paying for the ordering of the others: at a cut node it
	// usually refutes on its own.
	if ttMove >= 0 && moves&(1<<uint(ttMove)) != 0 {
		f := flips8(p, o, ttMove)
		v := s.solveChild(p|f|1<<uint(ttMove), o&^f, alpha, beta, n-1, true, unknownMoves)
		if s.abort {
			return 0
		}
		best, bestMove, searched = v, ttMove, true
		alpha = max(alpha, v)
		moves &^= 1 << uint(ttMove)
	}
	if best < beta && n >= etcEmpties {
		// Enhanced transposition cut-off: a reply already known to refute beta.
		for m := moves; m != 0; m &= m - 1 {
			sq := bits.TrailingZeros64(m)
			f := flips8(p, o, sq)
			if h, _ := s.endSlot(o&^f, p|f|1<<uint(sq), n-1); h != nil && -int(h.hi) >= beta && (!h.sel || s.selMargin > 0) {
				best, bestMove = -int(h.hi), sq
				break
			}
		}
	}
	if best < beta && moves != 0 {
		list := &s.endLists[n]
		cnt := s.orderEnd(p, o, moves, list)
		for i := 0; i < cnt; i++ {
			m := &list.moves[63-list.order[i]&63]
			v := s.solveChild(p|m.flips|1<<uint(m.sq), o&^m.flips, alpha, beta, n-1, !searched, m.replies)
			searched = true
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
	}
	if e != nil {
		lo, hi := -64, 64
		switch {
		case best <= alpha0:
			hi = best
		case best >= beta:
			lo = best
		default:
			lo, hi = best, best
		}
		sel := s.selMargin > 0
		if hit != nil && hit.sel == sel {
			lo, hi = max(lo, int(hit.lo)), min(hi, int(hit.hi))
		}
		if lo > hi {
			// Guesses that contradict each other: keep the latest.
			lo, hi = -64, 64
			if best <= alpha0 {
				hi = best
			} else if best >= beta {
				lo = best
			}
		}
		*e = endEntry{p: p, o: o, lo: int8(lo), hi: int8(hi), move: int8(bestMove), n: int8(n), used: true, sel: sel}
	}
	return best
}

// probCut is the cut-off of the selective pre-search at a node with n empty squares: when a
// shallow search says the score lies beyond beta (below alpha) by the searcher's margin, it
// returns beta (alpha) as a fail-hard bound.
func (s *searcher8) probCut(p, o uint64, alpha, beta, n int) (int, bool) {
	d := 2
	if n >= searchOrderEmpties {
		d = 4
	}
	m := s.selMargin
	if beta < 64 {
		b := beta*100 + m
		if v := s.pvs(p, o, d, b-1, b); v >= b {
			return beta, true
		}
	}
	if alpha > -64 {
		a := alpha*100 - m
		if v := s.pvs(p, o, d, a, a+1); v <= a {
			return alpha, true
		}
	}
	return 0, false
}

// solveChild returns the score for the side to move of the move that led to (o, p) — the
// child position has the opponent o to move with n empty squares, whose moves are replies or
// unknownMoves — within (alpha, beta): a full window for the first move, else a null window
// at alpha and a re-search when it fails high inside the window.
func (s *searcher8) solveChild(p, o uint64, alpha, beta, n int, first bool, replies uint64) int {
	if n < shallowEmpties {
		empty := ^(p | o)
		if first {
			return -s.solveShallow(o, p, -beta, -alpha, empty, false)
		}
		v := -s.solveShallow(o, p, -alpha-1, -alpha, empty, false)
		if v > alpha && v < beta {
			v = -s.solveShallow(o, p, -beta, -v, empty, false)
		}
		return v
	}
	if first {
		return -s.solveDeep(o, p, -beta, -alpha, n, false, replies)
	}
	v := -s.solveDeep(o, p, -alpha-1, -alpha, n, false, replies)
	if v > alpha && v < beta && !s.abort {
		v = -s.solveDeep(o, p, -beta, -v, n, false, replies)
	}
	return v
}

// move8 is a move with its flips and ordering key.
type move8 struct {
	flips uint64
	sq    int
	key   int
}

// endMove8 is a move of the solver's lists: its flips, and the opponent's moves after it (so
// that the solver need not find them again), or unknownMoves.
type endMove8 struct {
	flips, replies uint64
	sq             int
}

// squareValue8 orders moves that are otherwise equal: corners first, X-squares last.
var squareValue8 = [64]int{
	18, 4, 16, 12, 12, 16, 4, 18,
	4, 2, 6, 8, 8, 6, 2, 4,
	16, 6, 14, 10, 10, 14, 6, 16,
	12, 8, 10, 0, 0, 10, 8, 12,
	12, 8, 10, 0, 0, 10, 8, 12,
	16, 6, 14, 10, 10, 14, 6, 16,
	4, 2, 6, 8, 8, 6, 2, 4,
	18, 4, 16, 12, 12, 16, 4, 18,
}

// endList is the solver's list of the moves of one node (room for every square, since no
// position has more moves than empty squares): order holds, best first, each move's key
// shifted left by 6 bits with 63 − its index in moves below (so that equal keys keep the
// order of the squares); the index is 63 − order[i]&63.
type endList struct {
	moves [64]endMove8
	order [64]int
}

// orderEnd fills list with the moves sorted fastest-first, and returns their number: fewest
// replies for the opponent (corners counted twice), then parity and square value; with
// shallowEmpties empty squares, by parity and the empty squares next to the mover's discs
// instead of replies. Sorting the packed keys, not the moves, moves a word per step.
func (s *searcher8) orderEnd(p, o, moves uint64, list *endList) int {
	odd := oddEmpties(^(p | o))
	n := popcnt(^(p | o))
	deep := n >= deepOrderEmpties
	cnt := 0
	for moves != 0 {
		sq := bits.TrailingZeros64(moves)
		moves &= moves - 1
		f := orderFlips8(p, o, sq)
		np, no := p|f|1<<uint(sq), o&^f
		var key int
		om := unknownMoves
		if n <= shallowEmpties {
			// The children are searched by solveShallow, which takes no list of replies:
			// counting them would cost more than the order they give saves. Order by parity,
			// then by the empty squares next to our discs, then by the square.
			key = squareValue8[sq] - 8*popcnt(neighbours8(np)&^no)
			if odd&(1<<uint(sq)) != 0 {
				key += 64
			}
		} else {
			om = moves8(no, np)
			key = -(popcnt(om)+popcnt(om&0x8100000000000081))*64 + squareValue8[sq]
			if deep {
				var v int
				if n >= searchOrderEmpties && om != 0 {
					v = s.pvs(no, np, 1+(n-searchOrderEmpties)/2, -infScore, infScore)
				} else {
					v = eval8(s.ev, no, np, om)
				}
				key = -(popcnt(om)+popcnt(om&0x8100000000000081))*32 - v/2
			}
			if odd&(1<<uint(sq)) != 0 {
				key += 8
			}
			// Fewer empty squares next to our discs leaves the opponent fewer future moves
			// (only worth its cost where subtrees are large).
			if n >= potentialEmpties {
				key -= popcnt(neighbours8(np) &^ no)
			}
		}
		list.moves[cnt&63] = endMove8{flips: f, replies: om, sq: sq}
		list.order[cnt&63] = key<<6 | (63 - cnt)
		cnt++
	}
	// Insertion sort, best key first.
	order := list.order[:cnt]
	for i := 1; i < len(order); i++ {
		k := order[i]
		j := i
		for j > 0 && order[j-1] < k {
			order[j] = order[j-1]
			j--
		}
		order[j] = k
	}
	return cnt
}
