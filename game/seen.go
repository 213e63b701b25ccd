package game

import (
	"context"

	"github.com/reversibot/reversi/engine"
)

// A board's ply does not name the position it shows: after an undo and another line, a game
// comes back to the same ply with other discs, and a tap on the old board would be played on
// a position its player never saw. The steps below name the position itself instead, by its
// tag (engine.Position.Tag, which buttons and the Mini App's page carry): a request made on
// any other position is ErrStale and changes nothing.

// seen is the board a step was asked on: by its position's tag when byPos is set (0 names
// none, so it is never current), else by its ply (AnyPly: any board).
type seen struct {
	ply   int
	pos   uint64
	byPos bool
}

// current reports whether the game st is as the board at showed it.
func (at seen) current(st *state) bool {
	if at.byPos {
		return at.pos == st.pos().Tag()
	}
	return at.ply == AnyPly || at.ply == st.eg.Ply()
}

// PosTag returns the tag of g's position (engine.Position.Tag), as the requests of MoveAt,
// MoveOnAt and UndoAt name it; the error is ErrCorrupt's when g does not replay.
func PosTag(g *Game) (uint64, error) {
	st, err := replay(g) // reads g only
	if err != nil {
		return 0, err
	}
	return st.pos().Tag(), nil
}

// MoveAt is Move on the board whose position has the tag pos (engine.Position.Tag): the board
// is current only when the game's position is that one (ErrStale otherwise, also at the same
// ply after an undo and another line; always for pos 0), so the move is played on the very
// position the player saw or not at all.
func (s *Service) MoveAt(ctx context.Context, gameID string, userID int64, sq engine.Square, pos uint64) (*Snapshot, error) {
	return s.move(ctx, gameID, nil, userID, sq, seen{pos: pos, byPos: true})
}

// MoveOnAt is MoveAt in the game g that the caller has just read from the store, as MoveOn is
// Move.
func (s *Service) MoveOnAt(ctx context.Context, g *Game, userID int64, sq engine.Square, pos uint64) (*Snapshot, error) {
	if g == nil {
		return nil, ErrNoGame
	}
	return s.move(ctx, g.ID, g, userID, sq, seen{pos: pos, byPos: true})
}

// UndoAt is Undo on the board whose position has the tag pos, current as for MoveAt: an Undo
// tapped on an older board takes nothing back (ErrStale), not even at the same ply.
func (s *Service) UndoAt(ctx context.Context, gameID string, userID int64, pos uint64) (*Snapshot, error) {
	return s.undo(ctx, gameID, userID, seen{pos: pos, byPos: true})
}

// Lost reports whether the stored game g is behind a board drawn from its version drawn: a
// game's version only grows with its writes, so a board drawn from a newer version than the
// store has shows writes the store has lost (a Redis failover to a replica they had not
// reached). drawn 0 names no version (a board drawn before boards named one): never lost.
func Lost(g *Game, drawn int64) bool {
	return g != nil && drawn > 0 && drawn > g.Version
}
