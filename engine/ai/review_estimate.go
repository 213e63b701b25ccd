package ai

import (
	"time"

	"github.com/reversibot/reversi/engine"
)

// reviewSetting is the review's default for one board size and what it was measured to cost.
type reviewSetting struct {
	exactFrom int    // empties at or below which positions are solved
	depth     int    // midgame search depth
	nodes     uint64 // node cap of the midgame search of the position before a move; 0: none
	// perMidgame is the mean time of a midgame step, exactTail the time of all the exact
	// steps of a game played to its end (measured, see EstimateReview).
	perMidgame, exactTail time.Duration
}

// reviewSettings holds the defaults by board size. The node caps lie about three times above
// the largest search seen in the measured games (about 0.35 M nodes; 0.2–0.35 M nodes/s on
// the large boards), so they only bound positions unlike those.
var reviewSettings = map[int]reviewSetting{
	4:  {exactFrom: 12, depth: 10},
	6:  {exactFrom: 18, depth: 10, perMidgame: 220 * time.Millisecond, exactTail: 3100 * time.Millisecond},
	8:  {exactFrom: 20, depth: 10, perMidgame: 290 * time.Millisecond, exactTail: 1300 * time.Millisecond},
	10: {exactFrom: 16, depth: 7, nodes: 1e6, perMidgame: 260 * time.Millisecond, exactTail: 2800 * time.Millisecond},
	12: {exactFrom: 16, depth: 6, nodes: 1e6, perMidgame: 205 * time.Millisecond, exactTail: 300 * time.Millisecond},
	14: {exactFrom: 16, depth: 5, nodes: 1e6, perMidgame: 56 * time.Millisecond, exactTail: 2100 * time.Millisecond},
	16: {exactFrom: 16, depth: 5, nodes: 1e6, perMidgame: 138 * time.Millisecond, exactTail: 1400 * time.Millisecond},
}

// reviewDefaults fills in the zero fields of opt with the defaults of the board size; a
// negative ExactFrom stays as it is (nothing solved) and Depth is at least minReviewDepth.
func reviewDefaults(size int, opt ReviewOptions) ReviewOptions {
	d := reviewSettings[size]
	if opt.ExactFrom == 0 {
		opt.ExactFrom = d.exactFrom
	}
	if opt.Depth == 0 {
		opt.Depth = d.depth
	}
	opt.Depth = max(opt.Depth, minReviewDepth)
	if opt.Nodes == 0 {
		opt.Nodes = d.nodes
	}
	return opt
}

// EstimateReview returns about how long the review of a game of moves placed discs on a
// board of the given size takes on one core with the default options: the mean cost of a
// midgame step times the midgame positions, plus the cost of the exact steps when the game
// reached them. It returns 0 for an invalid size or moves <= 0.
//
// The figures were measured on one game of each size from testdata/review_games.txt (five on
// 8×8), GOMAXPROCS=1 on a shared 2-core machine, with
//
//	GOMAXPROCS=1 nice -n 19 go test -run '^$' -bench 'Review' -benchtime 1x ./engine/ai/
//
// which reports mid-ms/step and exact-ms per game. A 60-move 8×8 game: about 13 s
// (11.5–14 s for the five games); a 252-move 16×16 game: about 34 s. Games differ: a single
// position's search took up to 2.7 s on 8×8 and 1 s on 16×16.
func EstimateReview(size, moves int) time.Duration {
	s, ok := reviewSettings[size]
	if !ok || !engine.ValidSize(size) || moves <= 0 {
		return 0
	}
	midgame := min(moves, max(size*size-4-s.exactFrom, 0))
	t := time.Duration(midgame) * s.perMidgame
	if moves > midgame {
		t += s.exactTail
	}
	return t
}
