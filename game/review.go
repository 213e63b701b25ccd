package game

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/engine/ai"
)

// ErrNoMoves: the finished game has no move to look back at (a lobby cancelled, a game
// aborted before its first move).
var ErrNoMoves = newError(CodeNoMoves, "game: no move was played")

// ReviewTTL is how long a Service keeps a game's review: as long as a finished game lives.
const ReviewTTL = DefaultFinishedTTL

// Reviewed is a finished game and the engine's review of it.
type Reviewed struct {
	Game   *Game
	Replay *engine.Game
	Review ai.GameReview
	// Cached reports that the review was made before (it took no search now).
	Cached bool
}

// LastFinished returns the game that finished last in chat (for /review, once the chat is
// free again): ErrNoGame when none did in the last ReviewTTL or no Reviews store is set.
func (s *Service) LastFinished(ctx context.Context, chatID int64) (*Snapshot, error) {
	if s.reviewStore == nil {
		return nil, ErrNoGame
	}
	id, err := s.reviewStore.LastGame(ctx, chatID)
	if err != nil {
		return nil, storeErr(s.readable(ctx, err))
	}
	return s.Game(ctx, id)
}

// ReviewEstimate is how long the review of g takes on one idle core, to tell whoever asked.
func ReviewEstimate(g *Game) time.Duration { return ai.EstimateReview(g.Size, len(g.Moves)) }

// reviewing is the review of one game in flight in this Service: later requests wait for it.
type reviewing struct {
	done chan struct{}
	res  *Reviewed
	err  error
}

// reviews are the Service's reviews in flight, by game, and the users who asked for them.
type reviews struct {
	mu    sync.Mutex
	games map[string]*reviewing
	users map[int64]string // a user's review in flight: at most one each
}

// Review returns the engine's review of the finished game gameID for user: the moves of each
// side that lost the most, the turning point and the evaluation after each move (see
// ai.GameReview). A review kept before comes back at once. Otherwise the review runs on the
// AI pool as idle work (AIPool.DoIdle), one position at a time, so it never delays a search
// that a player waits for; progress, when not nil, is told after each position how many of
// how many are done. A request for a game already under review in this Service waits for that
// review; a user may have one review running at a time (ErrBusy for a second one). Fails
// with ErrNoGame for a game gone, ErrNotOver for one still in play, ErrNoMoves for one
// without a move, ErrBusy when the pool's idle queue is full, ctx ends or the Service closes.
func (s *Service) Review(ctx context.Context, gameID string, user int64, progress func(done, total int)) (*Reviewed, error) {
	g, err := s.st.Game(ctx, gameID)
	if err != nil {
		return nil, storeErr(s.readable(ctx, err))
	}
	st, err := replay(g)
	if err != nil {
		return nil, err
	}
	switch {
	case g.Status != StatusFinished:
		return nil, ErrNotOver
	case len(g.Moves) == 0:
		return nil, ErrNoMoves
	}
	if r, ok := s.cachedReview(ctx, g, st.eg); ok {
		return r, nil
	}
	f, lead, err := s.reviewing.join(gameID, user)
	if err != nil {
		return nil, err
	}
	if !lead {
		select {
		case <-f.done:
			return f.res, f.err
		case <-ctx.Done():
			return nil, ErrBusy
		}
	}
	f.res, f.err = s.runReview(ctx, g, st.eg, user, progress)
	s.reviewing.land(gameID, user, f)
	return f.res, f.err
}

// cachedReview returns the kept review of g, if there is one that reads.
func (s *Service) cachedReview(ctx context.Context, g *Game, eg *engine.Game) (*Reviewed, bool) {
	if s.reviewStore == nil {
		return nil, false
	}
	data, err := s.reviewStore.LoadReview(ctx, g.ID)
	if err != nil {
		if !errors.Is(err, ErrNotFound) {
			s.log.Warn("load review", "game", g.ID, "err", err)
		}
		return nil, false
	}
	var gr ai.GameReview
	if err := gr.UnmarshalBinary(data); err != nil || gr.Size != g.Size || len(gr.Moves) != eg.Ply() {
		s.log.Warn("kept review unreadable; reviewing again", "game", g.ID, "err", err)
		return nil, false
	}
	return &Reviewed{Game: g, Replay: eg, Review: gr, Cached: true}, true
}

// runReview reviews g step by step on the pool's idle workers and keeps the result.
func (s *Service) runReview(ctx context.Context, g *Game, eg *engine.Game, user int64, progress func(done, total int)) (*Reviewed, error) {
	r, err := ai.NewReview(eg, ai.ReviewOptions{})
	if err != nil {
		return nil, fmt.Errorf("game: review %s: %w", g.ID, err)
	}
	n := r.Steps()
	for i := range n {
		var stepErr error
		if err := s.reviewPool.DoIdle(WithUser(ctx, user), func(ctx context.Context) {
			if s.onReview != nil {
				s.onReview()
			}
			stepErr = r.Step(ctx, i)
		}); err != nil {
			return nil, err
		}
		if stepErr != nil {
			if ctx.Err() != nil {
				return nil, ErrBusy
			}
			return nil, fmt.Errorf("game: review %s step %d: %w", g.ID, i, stepErr)
		}
		if progress != nil {
			progress(i+1, n)
		}
	}
	gr, err := r.Result()
	if err != nil {
		return nil, fmt.Errorf("game: review %s: %w", g.ID, err)
	}
	if s.reviewStore != nil {
		if data, err := gr.MarshalBinary(); err != nil {
			s.log.Warn("encode review", "game", g.ID, "err", err)
		} else if err := s.reviewStore.SaveReview(ctx, g.ID, data, ReviewTTL); err != nil {
			s.log.Warn("keep review", "game", g.ID, "err", err)
		}
	}
	return &Reviewed{Game: g, Replay: eg, Review: gr}, nil
}

// join returns the review of gameID in flight, or starts one for user (lead true). A user who
// leads a review of another game already gets ErrBusy.
func (rs *reviews) join(gameID string, user int64) (f *reviewing, lead bool, err error) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if f := rs.games[gameID]; f != nil {
		return f, false, nil
	}
	if other, ok := rs.users[user]; ok && other != gameID {
		return nil, false, ErrBusy
	}
	if rs.games == nil {
		rs.games, rs.users = make(map[string]*reviewing), make(map[int64]string)
	}
	f = &reviewing{done: make(chan struct{})}
	rs.games[gameID] = f
	rs.users[user] = gameID
	return f, true, nil
}

// land ends the review f of gameID that user led, waking those who wait for it.
func (rs *reviews) land(gameID string, user int64, f *reviewing) {
	rs.mu.Lock()
	delete(rs.games, gameID)
	delete(rs.users, user)
	rs.mu.Unlock()
	close(f.done)
}

// ReviewRepost is how long after a review of a game is posted in a chat that chat gets no
// second copy of it (another tap on Review, another /review): one review each in a group.
const ReviewRepost = 10 * time.Minute

// ClaimReviewPost reports whether the review of gameID may be posted in chat now: true for
// the first caller in ReviewRepost among the Services that share the store's Leases (without
// Leases, for every caller). A caller that could not post the review after all calls release,
// so that the chat may ask again.
func (s *Service) ClaimReviewPost(ctx context.Context, gameID string, chat int64) (release func(), ok bool, err error) {
	if s.leases == nil {
		return func() {}, true, nil
	}
	name := "rvp:" + gameID + ":" + strconv.FormatInt(chat, 10)
	token, ok, err := s.leases.AcquireLease(ctx, name, ReviewRepost)
	if err != nil || !ok {
		return nil, false, storeErr(err)
	}
	return func() {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		defer cancel()
		_ = s.leases.ReleaseLease(rctx, name, token) // on failure the lease ends with its TTL
	}, true, nil
}
