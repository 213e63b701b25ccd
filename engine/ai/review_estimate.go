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
	4:  {exactFrom: 12, depth: 10, exactTail: 5 * time.Millisecond}, // every position solved
	6:  {exactFrom: 18, depth: 10, perMidgame: 260 * time.Millisecond, exactTail: 2600 * time.Millisecond},
	8:  {exactFrom: 20, depth: 10, perMidgame: 280 * time.Millisecond, exactTail: 1330 * time.Millisecond},
	10: {exactFrom: 16, depth: 7, nodes: 1e6, perMidgame: 240 * time.Millisecond, exactTail: 3500 * time.Millisecond},
	12: {exactFrom: 16, depth: 6, nodes: 1e6, perMidgame: 220 * time.Millisecond, exactTail: 300 * time.Millisecond},
	14: {exactFrom: 16, depth: 5, nodes: 1e6, perMidgame: 62 * time.Millisecond, exactTail: 2200 * time.Millisecond},
	16: {exactFrom: 16, depth: 5, nodes: 1e6, perMidgame: 130 * time.Millisecond, exactTail: 1600 * time.Millisecond},
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
// The figures are the benchmarks' (mid-ms/step and exact-ms) on the games of
// testdata/review_games.txt, one of each size and five of 8×8 (their means), run one after
// the other on a shared 2-core machine (load 1.7–2.0) with
//
//	GOMAXPROCS=1 nice -n 19 go test -run '^$' -bench 'Review' -benchtime 1x ./engine/ai/
//
// A 60-move 8×8 game took 10.3–14.8 s (mean 12.6 s, of which the exact steps 0.25–3.5 s);
// the 252-move 16×16 game 32–33 s; 6×6 6.3 s, 10×10 22 s, 12×12 28 s, 14×14 13 s. Games
// differ: single 8×8 steps took up to 2.7 s, 16×16 ones up to 1 s.
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
