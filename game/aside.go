package game

import (
	"context"
	"errors"
	"fmt"
)

// readable passes err on, unless it reports a record that does not decode: that record is set
// aside (setAside). via names the chat or inline message the game was reached through.
func (s *Service) readable(ctx context.Context, err error, via ...MessageRef) error {
	var ce *CorruptError
	if errors.As(err, &ce) {
		return s.setAside(ctx, ce.GameID, err, via...)
	}
	return err
}

// replayStored replays a game read from the store, setting it aside when its moves do not
// replay.
func (s *Service) replayStored(ctx context.Context, g *Game, via ...MessageRef) (*state, error) {
	st, err := replay(g)
	if err != nil {
		return nil, s.setAside(ctx, g.ID, err, via...)
	}
	return st, nil
}

// setAside takes the unreadable record of game id out of play, logs where it went, and returns
// the *SetAsideError for the step to report. When the store cannot set it aside the step fails
// with ErrCorrupt (an internal error), and the next step tries again.
func (s *Service) setAside(ctx context.Context, id string, cause error, via ...MessageRef) error {
	key, moved, err := s.st.SetAside(ctx, id, via...)
	if errors.Is(err, ErrNotFound) {
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
