package host

import (
	"context"
	"errors"
	"fmt"

	"github.com/reversibot/reversi/storage"
)

// SetAsideError is the ErrSetAside of a step that found its game's record unreadable: the record
// does not decode, or replays to an illegal move. The record was moved to Key for the operator
// (storage.Store.SetAside), its chats are free, and the player should start a new game.
type SetAsideError struct {
	GameID string
	Key    string // where the record now lives
	Err    error  // what is wrong with the record
}

// Error names the game, where its record went and why.
func (e *SetAsideError) Error() string {
	return fmt.Sprintf("host: game %s could not be read and was set aside under %s: %v", e.GameID, e.Key, e.Err)
}

// Is makes errors.Is(err, ErrSetAside) true.
func (e *SetAsideError) Is(target error) bool { return target == ErrSetAside }

// Unwrap returns what is wrong with the record.
func (e *SetAsideError) Unwrap() error { return e.Err }

// readable passes err on, unless it reports a record that does not decode: that record is set
// aside (setAside). via names the chat or inline message the game was reached through.
func (s *Service) readable(ctx context.Context, err error, via ...storage.BoardRef) error {
	var ce *storage.CorruptError
	if errors.As(err, &ce) {
		return s.setAside(ctx, ce.GameID, err, via...)
	}
	return err
}

// replayStored replays a game read from the store, setting it aside when its moves do not
// replay.
func (s *Service) replayStored(ctx context.Context, g *storage.Game, via ...storage.BoardRef) (*state, error) {
	st, err := replay(g)
	if err != nil {
		return nil, s.setAside(ctx, g.ID, err, via...)
	}
	return st, nil
}

// setAside takes the unreadable record of game id out of play, logs where it went, and returns
// the *SetAsideError for the step to report. When the store cannot set it aside the step fails
// with ErrCorrupt (an internal error), and the next step tries again.
func (s *Service) setAside(ctx context.Context, id string, cause error, via ...storage.BoardRef) error {
	key, moved, err := s.st.SetAside(ctx, id, via...)
	if errors.Is(err, storage.ErrNotFound) {
		return fmt.Errorf("%w: %w", ErrNoGame, err) // gone meanwhile (expired)
	}
	if err != nil {
		s.log.Error("game record could not be read nor set aside", "game", id, "err", cause, "set_aside_err", err)
		return fmt.Errorf("%w: game %s: %v; setting it aside failed: %w", ErrCorrupt, id, cause, err)
	}
	if moved {
		s.log.Error("game record could not be read: set aside, its chats are free", "game", id, "key", key, "err", cause)
	} else {
		s.log.Warn("game record was already set aside", "game", id, "key", key)
	}
	return &SetAsideError{GameID: id, Key: key, Err: cause}
}
