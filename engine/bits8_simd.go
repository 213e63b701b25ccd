//go:build goexperiment.simd && amd64.v3

package engine

import "simd/archsimd"

// The vector form of the 8×8 board's direction fills (Moves8, Flips8): lane i works along one
// axis, stepping by dirSteps8[i] squares (row, column, diagonal, anti-diagonal), so one
// instruction moves all four axes a step. Built only with GOEXPERIMENT=simd and GOAMD64=v3
// (AVX2).
var (
	dirSteps8    = archsimd.LoadUint64x4Array(&[4]uint64{1, 8, 9, 7})
	dirSteps8x2  = archsimd.LoadUint64x4Array(&[4]uint64{2, 16, 18, 14})
	dirOppMasks8 = archsimd.LoadUint64x4Array(&[4]uint64{innerCols8, ^uint64(0), innerCols8, innerCols8})
)

// runsFrom8 returns, along each lane's axis, the runs of o's discs that start next to a disc of
// from, toward higher bits (l) and toward lower bits (r): two single steps find runs of up to
// 2, then pre (o's discs whose neighbour is o's) lets two steps of two reach 6, the longest.
func runsFrom8(from archsimd.Uint64x4, o uint64) (l, r archsimd.Uint64x4) {
	ov := archsimd.BroadcastUint64x4(o).And(dirOppMasks8)
	step, step2 := dirSteps8, dirSteps8x2
	l = ov.And(from.ShiftLeft(step))
	r = ov.And(from.ShiftRight(step))
	l = l.Or(ov.And(l.ShiftLeft(step)))
	r = r.Or(ov.And(r.ShiftRight(step)))
	pl := ov.And(ov.ShiftLeft(step))
	pr := pl.ShiftRight(step)
	l = l.Or(pl.And(l.ShiftLeft(step2)))
	r = r.Or(pr.And(r.ShiftRight(step2)))
	l = l.Or(pl.And(l.ShiftLeft(step2)))
	r = r.Or(pr.And(r.ShiftRight(step2)))
	return l, r
}

// orLanes returns the OR of v's four lanes, the end of every vector function here. It clears
// the vector registers' upper halves (VZEROUPPER) on the way out: the compiled Go around these
// functions uses legacy SSE instructions, and on Intel cores since Skylake each of those waits
// on the dirty upper half of its register otherwise (FFO #45, #48 and #49 took 16% longer
// without it).
func orLanes(v archsimd.Uint64x4) uint64 {
	h := v.GetLo().Or(v.GetHi())
	archsimd.ClearAVXUpperBits()
	return h.GetElem(0) | h.GetElem(1)
}

// Moves8 returns the legal moves (as an 8×8 bitboard) of the player whose discs are p against
// an opponent whose discs are o. It is the hot path of the 8×8 search. This build fills the four
// axes at once in AVX2 lanes, the same doubling steps as moves8Scalar.
func Moves8(p, o uint64) uint64 {
	l, r := runsFrom8(archsimd.BroadcastUint64x4(p), o)
	step := dirSteps8
	return orLanes(l.ShiftLeft(step).Or(r.ShiftRight(step))) &^ (p | o)
}

// Flips8 returns the discs of o that a disc placed by p on bit sq (row*8+col, 0…63) flips; zero
// when the move is illegal (an occupied sq is not checked). This build fills the run of o from
// sq outward along the four axes at once in AVX2 lanes (the doubling steps of Moves8), and keeps
// each run whose next square is p's. Its chain of dependent steps is longer than a table
// lookup's, so it pays where flips are computed for many moves in a row (ordering them), less
// where each is waited on.
func Flips8(p, o uint64, sq int) uint64 {
	l, r := runsFrom8(archsimd.BroadcastUint64x4(1<<uint(sq&63)), o)
	pv := archsimd.BroadcastUint64x4(p)
	step := dirSteps8
	var zero archsimd.Uint64x4
	openL := l.ShiftLeft(step).And(pv).Equal(zero).ToInt64x4().AsUint64x4()
	openR := r.ShiftRight(step).And(pv).Equal(zero).ToInt64x4().AsUint64x4()
	return orLanes(l.AndNot(openL).Or(r.AndNot(openR)))
}
