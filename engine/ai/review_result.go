package ai

import (
	"fmt"

	"github.com/reversibot/reversi/engine"
)

// MoveReview is the verdict on one placed disc. Scores are in hundredths of a disc for the
// mover: exact ones are 100 times the final disc difference under perfect play with the
// empty squares to the winner (the Othello convention, as Solve reports it), the others the
// midgame search's evaluation.
type MoveReview struct {
	// Ply is the game's ply after the move: 1 for the first disc placed (see engine.Game).
	Ply int
	// Mover is the colour that placed the disc.
	Mover engine.Color
	// Played is the square played; Best is the search's best move from the same position.
	Played, Best engine.Square
	// PlayedScore is the value of Played, BestScore that of Best, for Mover. A midgame
	// PlayedScore comes from a search one ply shallower from the position after the move, so
	// both look equally far ahead; the two searches can still disagree slightly, so
	// PlayedScore may exceed BestScore. When Played == Best they are equal.
	PlayedScore, BestScore int
	// Exact reports that both scores are exact (the position was solved).
	Exact bool
	// Depth is the midgame search's depth in plies from the position before the move; 0 when
	// Exact.
	Depth int
	// Loss is what the move cost: max(0, BestScore-PlayedScore), and 0 when Played == Best.
	Loss int
}

// GameReview is the review of a game: a verdict on each disc placed and the evaluation after
// each, for a plot.
type GameReview struct {
	// Size is the board's size.
	Size int
	// Moves holds one verdict per disc placed (passes have none), in the order played.
	Moves []MoveReview
	// Eval[k] is the value of the position after Moves[k] in hundredths of a disc from Black's
	// view: Moves[k].PlayedScore, negated when White moved. EvalExact[k] is Moves[k].Exact.
	Eval      []int
	EvalExact []bool
	// Turning is the index in Moves of the move that lost the game for the loser, -1 if none:
	// the last move of the loser from a position it did not lose (BestScore ≥ 0) to one it
	// loses (PlayedScore < 0). The loser is the side the last evaluation, Eval[len-1], finds
	// behind (for a game played to its end, the final result); a draw, or a loser that was
	// behind at every one of its moves, gives -1.
	Turning int
}

// Result puts the steps' outcomes together. It fails with ErrReviewNotDone while some step is
// not done, and ErrReviewNoMoves for a Review not made by NewReview.
func (r *Review) Result() (GameReview, error) {
	if len(r.plan) == 0 {
		return GameReview{}, ErrReviewNoMoves
	}
	r.mu.Lock()
	out := append([]stepOutcome(nil), r.out...)
	left := 0
	for _, d := range r.done {
		if !d {
			left++
		}
	}
	r.mu.Unlock()
	if left > 0 {
		return GameReview{}, fmt.Errorf("%w: %d of %d steps left", ErrReviewNotDone, left, len(r.plan))
	}
	gr := GameReview{Size: r.size}
	for k, st := range r.plan {
		if st.played == engine.Pass {
			continue // the tail step: its position values the last move
		}
		o := out[k]
		mover := st.pos.Side()
		played := o.playedScore
		switch {
		case st.played == o.best:
			played = o.bestScore
		case !o.hasPlayed:
			played = r.valueAfter(k, mover, out)
		}
		m := MoveReview{
			Ply: k + 1, Mover: mover, Played: st.played, Best: o.best,
			PlayedScore: played, BestScore: o.bestScore, Exact: o.exact, Depth: o.depth,
		}
		if st.played != o.best {
			m.Loss = max(0, m.BestScore-m.PlayedScore)
		}
		gr.Moves = append(gr.Moves, m)
		if mover == engine.White {
			played = -played
		}
		gr.Eval = append(gr.Eval, played)
		gr.EvalExact = append(gr.EvalExact, m.Exact)
	}
	gr.Turning = turningPoint(gr.Moves)
	return gr, nil
}

// valueAfter returns the value for mover of the position after the move of step k: the best
// score of the next step's position (passes between put back, so its side to move may be the
// mover again), or the final score of a finished game.
func (r *Review) valueAfter(k int, mover engine.Color, out []stepOutcome) int {
	pos, v := r.final, 0
	if k+1 < len(r.plan) {
		pos, v = r.plan[k+1].pos, out[k+1].bestScore
	} else {
		v = 100 * r.final.FinalScore()
	}
	if pos.Side() != mover {
		v = -v
	}
	return v
}
