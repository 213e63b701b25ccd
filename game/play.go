package game

import (
	"context"
	"errors"
	"time"

	"github.com/reversibot/reversi/engine"
)

// AnyPly, given as the ply of Move or Undo, skips the out-of-date check: for typed moves, which
// the player makes looking at the newest board.
const AnyPly = -1

// Move plays sq for user in the game, on the board the user saw at ply (see Ply; AnyPly for a
// typed move). It checks, in this order: the game exists (ErrNoGame), has started
// (ErrNotStarted) and is not over (ErrGameOver); the user plays in it (ErrNotYourGame); the
// board is current (ErrStale); it is the user's turn (ErrNotYourTurn); and the square is on the
// board (ErrOffBoard), empty (ErrOccupied) and flips something (ErrIllegal). Then it plays the
// move and the passes that follow, and ends the game when neither side can move (recording the
// result). In a game against the AI, Snapshot.Reply is then set: answer the tap, then wait on
// it for the AI's move.
func (s *Service) Move(ctx context.Context, gameID string, userID int64, sq engine.Square, ply int) (*Snapshot, error) {
	return s.move(ctx, gameID, nil, userID, sq, seen{ply: ply})
}

// MoveOn is Move in the game g that the caller has just read from the store, which saves
// reading it again. Its checks see the game as g has it, so g must be read after the tap (or
// message) the move answers. Nothing is lost when the game changed since: the compare-and-set
// of the write finds that, and the move is then checked again on the game as stored. g is not
// changed.
func (s *Service) MoveOn(ctx context.Context, g *Game, userID int64, sq engine.Square, ply int) (*Snapshot, error) {
	if g == nil {
		return nil, ErrNoGame
	}
	return s.move(ctx, g.ID, g, userID, sq, seen{ply: ply})
}

// move is Move, on read (if not nil) for its first try, on the board at.
func (s *Service) move(ctx context.Context, gameID string, read *Game, userID int64, sq engine.Square, at seen) (*Snapshot, error) {
	return retry(func() (*Snapshot, error) {
		var st *state
		var err error
		if read != nil {
			st, err = replay(read.Clone())
			read = nil
		}
		if st == nil {
			st, err = s.load(ctx, gameID) // also when read does not replay: load judges that
		}
		if err != nil {
			return nil, err
		}
		side, err := s.checkPlayer(st, userID)
		if err != nil {
			return nil, err
		}
		if !at.current(st) {
			return nil, ErrStale
		}
		pos := st.pos()
		if int(pos.Side()) != side {
			return nil, ErrNotYourTurn
		}
		if err := checkSquare(pos, sq); err != nil {
			return nil, err
		}
		flips, err := st.eg.Play(sq)
		if err != nil {
			return nil, ErrIllegal
		}
		played := []Played{{Color: pos.Side(), Square: sq, Flips: flips, UserID: userID}}
		played = passes(st.eg, played)
		st.g.Moves = append(st.g.Moves, byte(sq))
		return s.commit(ctx, st, played)
	})
}

// checkPlayer checks that the game is in play and that userID plays in it, returning the
// user's side.
// loadPlayer loads the game gameID and checks, as checkPlayer does, that userID plays it and
// that it is in play, returning the state and userID's side: the start of every step a player
// takes. When only the check fails, the state comes back with its error, for a step (Resign)
// that treats some refusals as a case of its own; when the load fails, it is nil.
func (s *Service) loadPlayer(ctx context.Context, gameID string, userID int64) (*state, int, error) {
	st, err := s.load(ctx, gameID)
	if err != nil {
		return nil, -1, err
	}
	side, err := s.checkPlayer(st, userID)
	return st, side, err
}

func (s *Service) checkPlayer(st *state, userID int64) (int, error) {
	switch st.g.Status {
	case StatusLobby:
		if Side(st.g, userID) < 0 {
			return -1, ErrNotYourGame
		}
		return -1, ErrNotStarted
	case StatusFinished:
		return -1, ErrGameOver
	}
	side := Side(st.g, userID)
	if side < 0 {
		return -1, ErrNotYourGame
	}
	return side, nil
}

func checkSquare(pos engine.Position, sq engine.Square) error {
	switch {
	case !sq.Valid() || !sq.OnBoard(pos.Size()):
		return ErrOffBoard
	case func() bool { _, ok := pos.At(sq); return ok }():
		return ErrOccupied
	case !pos.IsLegal(sq):
		return ErrIllegal
	}
	return nil
}

// commit writes a game whose moves changed, ending it first when neither side can move, and
// settles a finished game.
func (s *Service) commit(ctx context.Context, st *state, played []Played) (*Snapshot, error) {
	st.g.LastMoveAt = s.now()
	if st.pos().GameOver() {
		st.g.Status = StatusFinished
		st.g.Outcome = st.pos().Outcome()
		st.g.Reason = EndNormal
	}
	if err := s.update(ctx, st.g); err != nil {
		return nil, err
	}
	r := s.result(st, played)
	if r.End != nil {
		s.settle(ctx, r)
	}
	return r, nil
}

// end writes the end of a game that did not end on the board (resignation, idle claim,
// cancelled lobby) and settles it.
//
// A resignation or claim before each player has placed a disc aborts the game instead: it ends
// without a result (EndAbandoned, see Game.Aborted) and no rating or record moves.
func (s *Service) end(ctx context.Context, st *state, o Outcome, why EndReason) (*Snapshot, error) {
	if (why == EndResign || why == EndTimeout) && !eachMoved(st.eg) {
		o, why = OutcomeNone, EndAbandoned
	}
	st.g.Status = StatusFinished
	st.g.Outcome = o
	st.g.Reason = why
	if err := s.update(ctx, st.g); err != nil {
		return nil, err
	}
	r := s.result(st, nil)
	s.settle(ctx, r)
	return r, nil
}

// eachMoved reports whether both sides of eg have placed a disc.
func eachMoved(eg *engine.Game) bool {
	var moved [2]bool
	c := eg.Start().Side()
	for _, m := range eg.Moves() {
		if m != engine.Pass {
			moved[c&1] = true
		}
		c = c.Opponent()
	}
	return moved[0] && moved[1]
}

// Resign ends the game with a win for the opponent of userID (the AI in an AI game); before
// each player has placed a disc it aborts the game instead, unrated (see end). The
// creator of a lobby that nobody joined cancels it instead: the game ends abandoned, without a
// result. Anyone else gets ErrNotYourGame; a finished game ErrGameOver.
func (s *Service) Resign(ctx context.Context, gameID string, userID int64) (*Snapshot, error) {
	return retry(func() (*Snapshot, error) {
		st, side, err := s.loadPlayer(ctx, gameID, userID)
		if errors.Is(err, ErrNotStarted) {
			return s.end(ctx, st, OutcomeNone, EndAbandoned)
		}
		if err != nil {
			return nil, err
		}
		return s.end(ctx, st, winFor(1-side), EndResign)
	})
}

// ClaimIdle ends a game between people with a win for userID when the opponent is to move and
// has left the game untouched for IdleAfter (or aborts it, unrated, when either player has
// not placed a disc yet: see end). Otherwise it fails: ErrPeopleOnly in an AI game,
// ErrNotIdle (an *IdleError saying how long is left) while the time has not passed or when it
// is the claimant's own turn, and as Move does for spectators and finished games.
func (s *Service) ClaimIdle(ctx context.Context, gameID string, userID int64) (*Snapshot, error) {
	return retry(func() (*Snapshot, error) {
		st, side, err := s.loadPlayer(ctx, gameID, userID)
		if err != nil {
			return nil, err
		}
		if st.g.AILevel > 0 {
			return nil, ErrPeopleOnly
		}
		if int(st.pos().Side()) == side {
			return nil, ErrNotIdle
		}
		if left := s.IdleLeft(st.g); left > 0 {
			return nil, &IdleError{Left: left}
		}
		return s.end(ctx, st, winFor(side), EndTimeout)
	})
}

// IdleLeft returns how long the player to move in g may still wait before the opponent may
// claim the game; zero or less once the claim is open. The time counts from when that player
// got the turn (Game.LastMoveAt: the last move, or the start of the game), so posting the
// board again or any other write that plays no move does not restart it. A game stored
// before LastMoveAt existed counts from its last update.
func (s *Service) IdleLeft(g *Game) time.Duration {
	since := g.LastMoveAt
	if since.IsZero() {
		since = g.Updated
	}
	return since.Add(s.idleAfter).Sub(s.now())
}
