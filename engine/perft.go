package engine

// Perft counts the leaves of the game tree of p to the given depth: a pass is a ply, and a
// finished game counts as one leaf at every deeper depth. Perft(p, 0) is 1.
func Perft(p Position, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	if p.size == 8 {
		return perft8(p.b8[p.side], p.b8[p.side^1], depth, false)
	}
	return perftN(p, depth)
}

// perft8 is Perft on 8×8 bitboards; passed tells that the previous ply was a pass.
func perft8(me, you uint64, depth int, passed bool) uint64 {
	moves := Moves8(me, you)
	if moves == 0 {
		if passed {
			return 1 // game over
		}
		if depth == 1 {
			return 1
		}
		return perft8(you, me, depth-1, true)
	}
	if depth == 1 {
		return uint64(popcount(moves))
	}
	var n uint64
	for moves != 0 {
		i := trailingZeros(moves)
		moves &= moves - 1
		f := Flips8(me, you, i)
		n += perft8(you&^f, me|f|1<<uint(i), depth-1, false)
	}
	return n
}

func perftN(p Position, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	moves := p.Moves()
	if moves.Empty() {
		if !p.opponentHasMoves() {
			return 1
		}
		q := p
		q.side ^= 1
		return perftN(q, depth-1)
	}
	if depth == 1 {
		return uint64(moves.Len())
	}
	var n uint64
	for _, sq := range moves.Squares() {
		q, _, _ := p.Play(sq)
		n += perftN(q, depth-1)
	}
	return n
}
