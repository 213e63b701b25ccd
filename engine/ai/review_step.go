package ai

import (
	"context"

	"github.com/reversibot/reversi/engine"
)

// analyse runs one step: the exact solve or the fixed-depth search of its position.
func (r *Review) analyse(ctx context.Context, st reviewStep) (stepOutcome, error) {
	if st.exact {
		res, err := SolveStats(ctx, st.pos)
		if err != nil {
			return stepOutcome{}, err
		}
		return stepOutcome{best: res.Move, bestScore: res.Score, exact: true}, nil
	}
	return r.searchStep(ctx, st)
}

// searchStep searches the position before a move to the review's depth d for its best move
// and score, then the position after the played move to depth d-1, so that both values look
// equally far ahead from the position before the move (the child's own search handles a pass
// of the side to move there without using up depth, as the search inside the tree does).
// When the node cap stops the first search short of d, it is searched again without the cap
// to the depth it finished, and the child to one less.
func (r *Review) searchStep(ctx context.Context, st reviewStep) (stepOutcome, error) {
	root, err := r.search(ctx, st.pos, r.opt.Depth, r.opt.Nodes)
	if err != nil {
		return stepOutcome{}, err
	}
	if !root.Exact && root.Depth < r.opt.Depth {
		if root, err = r.search(ctx, st.pos, max(root.Depth, minReviewDepth), 0); err != nil {
			return stepOutcome{}, err
		}
	}
	out := stepOutcome{best: root.Move, bestScore: root.Score, exact: root.Exact, depth: root.Depth}
	if root.Exact {
		out.depth = 0
	}
	out.hasPlayed = true
	if st.played == root.Move {
		out.playedScore = root.Score
		return out, nil
	}
	child, _, err := st.pos.Play(st.played)
	if err != nil {
		return stepOutcome{}, err // cannot happen: NewReview replayed the move
	}
	if child.GameOver() {
		out.playedScore = -100 * child.FinalScore()
		return out, nil
	}
	res, err := r.search(ctx, child, max(root.Depth-1, 1), 0)
	if err != nil {
		return stepOutcome{}, err
	}
	out.playedScore = -res.Score // res.Score is for the child's side to move, the opponent
	return out, nil
}

// search is a search of p to exactly depth plies (no time limit, no early jump to the exact
// solver) with its own tables, stopping after nodes positions when nodes > 0. It returns the
// context's error when ctx is done before the search finished.
func (r *Review) search(ctx context.Context, p engine.Position, depth int, nodes uint64) (Result, error) {
	cfg := &config{ctx: ctx, depth: depth, nodes: nodes, tableBits: reviewTableBits, mustScore: true}
	res, err := run(cfg, p)
	if err == nil {
		err = ctx.Err()
	}
	return res, err
}

// reviewTableBits sizes the tables of a review's midgame searches: 2^18 entries, as levels 5
// and 6 use.
const reviewTableBits = 18

// minReviewDepth is the shallowest search of the position before a move: its child is
// searched one ply less, and a search of depth 0 would mean no limit.
const minReviewDepth = 2
