//go:build !(goexperiment.simd && amd64.v3)

package engine

// Moves8 returns the legal moves (as an 8×8 bitboard) of the player whose discs are p against
// an opponent whose discs are o. It is the hot path of the 8×8 search.
func Moves8(p, o uint64) uint64 { return moves8Scalar(p, o) }
