package ai

import (
	"sort"

	"github.com/reversibot/reversi/engine"
)

// MistakeThreshold is the smallest Loss that Mistakes reports: two discs, in hundredths.
const MistakeThreshold = 200

// Mistakes returns at most n moves of colour c that lost at least MistakeThreshold, the
// biggest Loss first and equal losses in the order played; nil when n <= 0 or none qualifies.
func (gr GameReview) Mistakes(c engine.Color, n int) []MoveReview {
	if n <= 0 {
		return nil
	}
	var ms []MoveReview
	for _, m := range gr.Moves {
		if m.Mover == c && m.Loss >= MistakeThreshold {
			ms = append(ms, m)
		}
	}
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].Loss > ms[j].Loss })
	if len(ms) > n {
		ms = ms[:n]
	}
	return ms
}

// turningPoint returns the index in moves of the turning point as GameReview.Turning defines
// it, -1 if none.
func turningPoint(moves []MoveReview) int {
	if len(moves) == 0 {
		return -1
	}
	last := moves[len(moves)-1]
	var loser engine.Color
	switch {
	case last.PlayedScore < 0:
		loser = last.Mover
	case last.PlayedScore > 0:
		loser = last.Mover.Opponent()
	default:
		return -1
	}
	for k := len(moves) - 1; k >= 0; k-- {
		if m := moves[k]; m.Mover == loser && m.BestScore >= 0 && m.PlayedScore < 0 {
			return k
		}
	}
	return -1
}
