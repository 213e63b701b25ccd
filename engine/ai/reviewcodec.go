package ai

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/reversibot/reversi/engine"
)

// ErrReviewData is returned by GameReview.UnmarshalBinary for data it did not write.
var ErrReviewData = errors.New("ai: invalid review data")

// reviewCodecVersion is the first byte of an encoded GameReview.
const reviewCodecVersion = 1

// maxReviewScore bounds every score an encoded review may hold: 100 times the discs of the
// largest board.
const maxReviewScore = 100 * engine.MaxSize * engine.MaxSize

// MarshalBinary encodes the review compactly (a few bytes a move), for a store to keep it:
// the version, the size, the turning point and the moves, each as its squares, a flags byte
// and its numbers as varints, then the plotted values.
func (gr GameReview) MarshalBinary() ([]byte, error) {
	if !engine.ValidSize(gr.Size) || len(gr.Eval) != len(gr.Moves) || len(gr.EvalExact) != len(gr.Moves) {
		return nil, fmt.Errorf("%w: size %d, %d moves, %d values", ErrReviewData, gr.Size, len(gr.Moves), len(gr.Eval))
	}
	out := []byte{reviewCodecVersion, byte(gr.Size)}
	out = binary.AppendVarint(out, int64(gr.Turning))
	out = binary.AppendUvarint(out, uint64(len(gr.Moves)))
	for k, m := range gr.Moves {
		if !m.Played.OnBoard(gr.Size) || !m.Best.OnBoard(gr.Size) {
			return nil, fmt.Errorf("%w: move %d off the board", ErrReviewData, k)
		}
		flags := byte(m.Mover & 1)
		if m.Exact {
			flags |= 2
		}
		if gr.EvalExact[k] {
			flags |= 4
		}
		out = append(out, byte(m.Played), byte(m.Best), flags)
		for _, v := range []int{m.Ply, m.PlayedScore, m.BestScore, m.Depth, m.Loss, gr.Eval[k]} {
			out = binary.AppendVarint(out, int64(v))
		}
	}
	return out, nil
}

// UnmarshalBinary decodes what MarshalBinary wrote; anything else (truncated, a square off
// the board, a count or score out of range, bytes left over) is ErrReviewData and leaves gr
// as it was.
func (gr *GameReview) UnmarshalBinary(data []byte) error {
	bad := func(what string) error { return fmt.Errorf("%w: %s", ErrReviewData, what) }
	if len(data) < 2 || data[0] != reviewCodecVersion || !engine.ValidSize(int(data[1])) {
		return bad("header")
	}
	size := int(data[1])
	rest := data[2:]
	varint := func() (int, bool) {
		v, n := binary.Varint(rest)
		if n <= 0 || v < -maxReviewScore || v > maxReviewScore {
			return 0, false
		}
		rest = rest[n:]
		return int(v), true
	}
	turning, ok := varint()
	if !ok {
		return bad("turning point")
	}
	count, n := binary.Uvarint(rest)
	if n <= 0 || count > uint64(size*size) {
		return bad("move count")
	}
	rest = rest[n:]
	if turning < -1 || turning >= int(count) {
		return bad("turning point")
	}
	out := GameReview{Size: size, Turning: turning, Moves: make([]MoveReview, count),
		Eval: make([]int, count), EvalExact: make([]bool, count)}
	for k := range out.Moves {
		if len(rest) < 3 {
			return bad("truncated move")
		}
		played, best, flags := engine.Square(rest[0]), engine.Square(rest[1]), rest[2]
		rest = rest[3:]
		if !played.OnBoard(size) || !best.OnBoard(size) || flags > 7 {
			return bad("move")
		}
		var v [6]int
		for i := range v {
			if v[i], ok = varint(); !ok {
				return bad("move value")
			}
		}
		out.Moves[k] = MoveReview{Ply: v[0], Mover: engine.Color(flags & 1), Played: played, Best: best,
			PlayedScore: v[1], BestScore: v[2], Exact: flags&2 != 0, Depth: v[3], Loss: v[4]}
		out.Eval[k], out.EvalExact[k] = v[5], flags&4 != 0
	}
	if len(rest) != 0 {
		return bad("trailing bytes")
	}
	*gr = out
	return nil
}
