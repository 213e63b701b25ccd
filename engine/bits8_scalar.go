//go:build !(goexperiment.simd && amd64.v3)

package engine

// Moves8 returns the legal moves (as an 8×8 bitboard) of the player whose discs are p against
// an opponent whose discs are o. It is the hot path of the 8×8 search.
func Moves8(p, o uint64) uint64 { return moves8Scalar(p, o) }

// Flips8 returns the discs of o that a disc placed by p on bit sq (row*8+col, 0…63) flips; zero
// when the move is illegal (an occupied sq is not checked).
func Flips8(p, o uint64, sq int) uint64 { return flips8Rays(p, o, sq) }
