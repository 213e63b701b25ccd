package engine

// Perft counts the leaves of the game tree of p to the given depth: a pass is a ply, and a
// finished game counts as one leaf at every deeper depth. Perft(p, 0) is 1; a negative depth
// counts as 0. The zero Position has no moves and counts 1.
func Perft(p Position, depth int) uint64 {
	if depth <= 0 || !ValidSize(int(p.size)) {
		return 1
	}
	if p.size == 8 {
		me, you := p.b8[p.side], p.b8[p.side^1]
		return perft8(me, you, Moves8(me, you), depth)
	}
	me, you := p.bn[p.side], p.bn[p.side^1]
	return perftN(int(p.size), me, you, movesN(int(p.size), me, you), depth)
}

// PerftCounts returns the leaf counts of Perft(p, d) for every depth d from 1 to depth in one
// walk of the tree: counts[d-1] is Perft(p, d). It returns nil for a depth below 1.
func PerftCounts(p Position, depth int) []uint64 {
	if depth < 1 {
		return nil
	}
	counts := make([]uint64, depth)
	if !ValidSize(int(p.size)) {
		for i := range counts {
			counts[i] = 1
		}
		return counts
	}
	if p.size == 8 {
		me, you := p.b8[p.side], p.b8[p.side^1]
		tally8(me, you, Moves8(me, you), counts)
		return counts
	}
	var walk func(p Position, counts []uint64)
	walk = func(p Position, counts []uint64) {
		if p.GameOver() {
			for i := range counts {
				counts[i]++
			}
			return
		}
		if len(counts) == 1 {
			counts[0] += uint64(max(p.MoveCount(), 1))
			return
		}
		if p.MustPass() {
			counts[0]++
			q, _, _ := p.Play(Pass)
			walk(q, counts[1:])
			return
		}
		ms := p.Moves()
		counts[0] += uint64(ms.Len())
		for _, sq := range ms.Squares() {
			q, _, _ := p.Play(sq)
			walk(q, counts[1:])
		}
	}
	walk(p, counts)
	return counts
}

// perft8 is Perft (depth ≥ 1) on 8×8 bitboards for me to move, given moves = Moves8(me, you).
// At the last ply it counts moves instead of making them: a position with no move there is one
// leaf (a pass or the end of the game).
func perft8(me, you, moves uint64, depth int) uint64 {
	if moves == 0 {
		if depth == 1 {
			return 1
		}
		pass := Moves8(you, me)
		if pass == 0 {
			return 1 // game over
		}
		return perft8(you, me, pass, depth-1)
	}
	if depth == 1 {
		return uint64(popcount(moves))
	}
	var n uint64
	if depth == 2 {
		for moves != 0 {
			sq := trailingZeros(moves)
			moves &= moves - 1
			f := Flips8(me, you, sq)
			c := uint64(popcount(Moves8(you&^f, me|f|1<<uint(sq))))
			n += c + (c-1)>>63 // a child without moves is one leaf
		}
		return n
	}
	for moves != 0 {
		sq := trailingZeros(moves)
		moves &= moves - 1
		f := Flips8(me, you, sq)
		nme, nyou := you&^f, me|f|1<<uint(sq)
		n += perft8(nme, nyou, Moves8(nme, nyou), depth-1)
	}
	return n
}

// tally8 walks the 8×8 tree of me to move (moves = Moves8(me, you)) and adds to counts[i] the
// leaves at depth i+1 below it.
func tally8(me, you, moves uint64, counts []uint64) {
	if moves == 0 {
		pass := Moves8(you, me)
		if pass == 0 {
			for i := range counts {
				counts[i]++
			}
			return
		}
		counts[0]++
		if len(counts) > 1 {
			tally8(you, me, pass, counts[1:])
		}
		return
	}
	counts[0] += uint64(popcount(moves))
	if len(counts) == 1 {
		return
	}
	if len(counts) == 2 {
		var n uint64
		for moves != 0 {
			sq := trailingZeros(moves)
			moves &= moves - 1
			f := Flips8(me, you, sq)
			c := uint64(popcount(Moves8(you&^f, me|f|1<<uint(sq))))
			n += c + (c-1)>>63
		}
		counts[1] += n
		return
	}
	for moves != 0 {
		sq := trailingZeros(moves)
		moves &= moves - 1
		f := Flips8(me, you, sq)
		nme, nyou := you&^f, me|f|1<<uint(sq)
		tally8(nme, nyou, Moves8(nme, nyou), counts[1:])
	}
}

// perftN is perft8 for the multi-word boards of any size (8 included, which tests use to check
// this code against the published 8×8 counts).
func perftN(size int, me, you, moves Set, depth int) uint64 {
	if moves.Empty() {
		if depth == 1 {
			return 1
		}
		pass := movesN(size, you, me)
		if pass.Empty() {
			return 1
		}
		return perftN(size, you, me, pass, depth-1)
	}
	if depth == 1 {
		return uint64(moves.Len())
	}
	var n uint64
	for w := range moves {
		for bitsLeft := moves[w]; bitsLeft != 0; bitsLeft &= bitsLeft - 1 {
			sq := Square(w<<6 + trailingZeros(bitsLeft))
			f := flipsN(size, me, you, sq)
			nme, nyou := andNot(you, f), or(me, f).Add(sq)
			n += perftN(size, nme, nyou, movesN(size, nme, nyou), depth-1)
		}
	}
	return n
}
