package host

import (
	"context"
	"errors"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/storage"
)

// NewAIGame starts a game between user and the AI of the given level (1 to MaxLevel) on a
// board of the given size, hosted in chatID (the user's private chat, or a group), with the
// user playing the chosen colour (a random one for ChooseRandom). The chat must not have a game
// in play or a lobby (ErrAlreadyPlaying); the user leaves the matchmaking queue. When the AI
// plays black, Result.NeedAI is set: post the board, then call AIReply.
//
// The start is one atomic step of the store (StartGame), after the user's LeaveQueue (see
// OpenLobby for why that may come first): of any number of racing starts in one chat exactly
// one succeeds.
func (s *Service) NewAIGame(ctx context.Context, user storage.Player, chatID int64, size, level int, color Choice) (*Result, error) {
	switch {
	case !s.ValidSize(size):
		return nil, ErrBadSize
	case level < 1 || level > MaxLevel:
		return nil, ErrBadLevel
	case user.UserID == 0 || chatID == 0:
		return nil, ErrBadRequest
	}
	if _, err := s.st.LeaveQueue(ctx, user.UserID); err != nil {
		return nil, err
	}
	side := int(color)
	if color != ChooseBlack && color != ChooseWhite {
		color, side = ChooseRandom, s.coin()
	}
	g := &storage.Game{Size: size, Flow: storage.FlowAI, Status: storage.StatusPlaying,
		CreatorColor: int8(color), AILevel: level, ChatID: chatID, Lang: user.Lang}
	g.Players[side] = user
	g.LastMoveAt = s.now()
	if _, err := s.start(ctx, g, storage.Hosting{Chats: []int64{chatID}}); err != nil {
		return nil, storeErr(err)
	}
	return s.resultOf(ctx, g, nil)
}

// AIReply lets the AI play when it is to move in the game: its move, the passes that follow,
// and more moves of the AI while the player must pass, until the player is to move or the game
// ends (recording the result). It does nothing (a Result with nothing played) when the AI is
// not to move, so calling it again is harmless. The search runs in the AI pool; when ctx ends
// first it fails with ErrBusy and the game waits for another call. An AI that fails or answers
// an illegal move is replaced for that move by the first legal one.
func (s *Service) AIReply(ctx context.Context, gameID string) (*Result, error) {
	return retry(func() (*Result, error) {
		st, err := s.load(ctx, gameID)
		if err != nil {
			return nil, err
		}
		var played []Played
		for needAI(st) {
			pos := st.pos()
			sq, err := s.think(ctx, func(ctx context.Context) (engine.Square, error) {
				return s.ai.Move(ctx, pos, st.g.AILevel)
			})
			if errors.Is(err, ErrBusy) {
				return nil, err
			}
			// A failing AI must not stall the game: it plays the first legal move.
			if err != nil || !pos.IsLegal(sq) || sq == engine.Pass {
				sq = pos.Moves().First()
			}
			flips, err := st.eg.Play(sq)
			if err != nil {
				return nil, ErrCorrupt
			}
			played = append(played, Played{Color: pos.Side(), Square: sq, Flips: flips})
			played = passes(st.eg, played)
			st.g.Moves = append(st.g.Moves, byte(sq))
		}
		if len(played) == 0 {
			return s.result(st, nil), nil
		}
		return s.commit(ctx, st, played)
	})
}

// think runs an AI search in the pool.
func (s *Service) think(ctx context.Context, search func(context.Context) (engine.Square, error)) (engine.Square, error) {
	var (
		sq  engine.Square
		err error
	)
	if perr := s.pool.Do(ctx, func(ctx context.Context) { sq, err = search(ctx) }); perr != nil {
		return engine.Pass, perr
	}
	if err != nil {
		if ctx.Err() != nil {
			return engine.Pass, ErrBusy
		}
		return engine.Pass, err
	}
	return sq, nil
}

// Undo takes back, in a game against the AI, the user's last move and the AI's replies to it,
// so that the user is to move where they moved last. ply is as for Move (AnyPly skips the
// check, so a double tap on a current board could undo twice). Fails with ErrNotAIGame in a
// game between people and ErrNothingToUndo before the user's first move.
func (s *Service) Undo(ctx context.Context, gameID string, userID int64, ply int) (*Result, error) {
	return retry(func() (*Result, error) {
		st, err := s.load(ctx, gameID)
		if err != nil {
			return nil, err
		}
		side, err := s.checkPlayer(st, userID)
		if err != nil {
			return nil, err
		}
		if st.g.AILevel <= 0 {
			return nil, ErrNotAIGame
		}
		if ply != AnyPly && ply != len(st.g.Moves) {
			return nil, ErrStale
		}
		n := len(st.colors)
		for n > 0 && int(st.colors[n-1]) != side {
			n--
		}
		if n == 0 {
			return nil, ErrNothingToUndo
		}
		n--
		undone := len(st.g.Moves) - n
		st.g.Moves = st.g.Moves[:n:n]
		st.g.LastMoveAt = s.now()
		if st, err = replay(st.g); err != nil {
			return nil, err
		}
		if err := s.update(ctx, st.g); err != nil {
			return nil, err
		}
		r := s.result(st, nil)
		r.Undone = undone
		return r, nil
	})
}

// Hint suggests a move for the user in a game against the AI at a level up to MaxHintLevel
// (ErrNoHint above, ErrNotAIGame in games between people), on the user's turn
// (ErrNotYourTurn). It changes nothing. The search runs in the AI pool.
func (s *Service) Hint(ctx context.Context, gameID string, userID int64) (engine.Square, error) {
	st, err := s.load(ctx, gameID)
	if err != nil {
		return engine.Pass, err
	}
	side, err := s.checkPlayer(st, userID)
	if err != nil {
		return engine.Pass, err
	}
	switch {
	case st.g.AILevel <= 0:
		return engine.Pass, ErrNotAIGame
	case st.g.AILevel > MaxHintLevel:
		return engine.Pass, ErrNoHint
	case int(st.pos().Side()) != side:
		return engine.Pass, ErrNotYourTurn
	}
	pos := st.pos()
	sq, err := s.think(ctx, func(ctx context.Context) (engine.Square, error) { return s.ai.Hint(ctx, pos) })
	if errors.Is(err, ErrBusy) {
		return engine.Pass, err
	}
	if err != nil || !pos.IsLegal(sq) || sq == engine.Pass {
		sq = pos.Moves().First()
	}
	return sq, nil
}
