package game

import (
	"context"
	"errors"
)

// Starts and joins around games that cannot be read. The store's start and join scripts refuse
// a chat whose game is in the way; when that game's record does not decode or replay, nothing
// else would ever free the chat. start and join then set it aside (for the operator, logged)
// and make the step once more, so the player's /ai, /new or tap goes ahead at once. A step
// that finds nothing unreadable costs nothing more: the store's one script.

// start is StartGame with the existing game it gives back (an inline message's, a rematch
// made already) replayed. A game in the way that cannot be read is set aside and the start
// made again once; a rematch made already that cannot be read ends the step with its
// ErrSetAside.
func (s *Service) start(ctx context.Context, g *Game, h Hosting) (existing *state, err error) {
	via := refsOf(h)
	existing, err = s.startOnce(ctx, g, h, via)
	cleared, again := s.clearWay(ctx, err, via)
	if !again {
		if cleared != nil {
			return nil, cleared
		}
		return existing, err
	}
	existing, err = s.startOnce(ctx, g, h, via)
	if h.RematchOf != "" && errors.Is(err, ErrNotFound) && errors.Is(cleared, ErrSetAside) {
		return nil, cleared // the rematch made was the game set aside
	}
	return existing, err
}

// startOnce is one StartGame, with the existing game it gives back replayed (one that does not
// replay is set aside: ErrSetAside).
func (s *Service) startOnce(ctx context.Context, g *Game, h Hosting, via []MessageRef) (*state, error) {
	cur, err := s.st.StartGame(ctx, g, h)
	if err != nil || cur == nil {
		return nil, err
	}
	return s.replayStored(ctx, cur, via...)
}

// join is JoinGame; a game that cannot be read in one of the chats is set aside and the join
// made again once.
func (s *Service) join(ctx context.Context, g *Game, chats []int64) error {
	via := make([]MessageRef, len(chats))
	for i, c := range chats {
		via[i] = MessageRef{ChatID: c}
	}
	err := s.st.JoinGame(ctx, g, chats)
	cleared, again := s.clearWay(ctx, err, via)
	if !again {
		if cleared != nil {
			return cleared
		}
		return err
	}
	return s.st.JoinGame(ctx, g, chats)
}

// clearWay looks at the error of a start or join for a game in the way that cannot be read: a
// record the store could not read (*CorruptError), a chat's lobby or game in play
// (*BusyError) whose record turns out not to decode or replay, or a game given back
// that did not replay (ErrSetAside already). It sets that game aside (via: the chats and inline
// message of the step) and reports again, with the step's ErrSetAside or ErrNoGame (the game
// went meanwhile) as cleared. When setting aside fails, cleared is that error and again false;
// when nothing unreadable is in the way, both are zero and err stands.
func (s *Service) clearWay(ctx context.Context, err error, via []MessageRef) (cleared error, again bool) {
	var (
		ce   *CorruptError
		busy *BusyError
	)
	switch {
	case err == nil:
		return nil, false
	case errors.Is(err, ErrSetAside):
		return err, true
	case errors.As(err, &ce):
		cleared = s.setAside(ctx, ce.GameID, err, via...)
	case errors.As(err, &busy):
		if _, cleared = s.boundGame(ctx, busy.ChatID); !errors.Is(cleared, ErrSetAside) {
			return nil, false // a game that reads (or a failed read): the chat is busy
		}
	default:
		return nil, false
	}
	return cleared, errors.Is(cleared, ErrSetAside) || errors.Is(cleared, ErrNoGame)
}

// boundGame returns the game bound to chatID, replayed when it is not over; one that cannot be
// read is set aside (ErrSetAside), and no game is ErrNotFound.
func (s *Service) boundGame(ctx context.Context, chatID int64) (*Game, error) {
	via := MessageRef{ChatID: chatID}
	g, err := s.st.GameByChat(ctx, chatID)
	if err != nil {
		return nil, s.readable(ctx, err, via)
	}
	if g.Status != StatusFinished {
		if _, err := s.replayStored(ctx, g, via); err != nil {
			return nil, err
		}
	}
	return g, nil
}
