package game

import (
	"context"
	"errors"

	"github.com/reversibot/reversi/engine"
)

// NewAIGame starts a game between user and the AI of the given level (1 to MaxLevel) on a
// board of the given size, hosted in chatID (the user's private chat, or a group), with the
// user playing the chosen colour (a random one for ChooseRandom). The chat must not have a game
// in play or a lobby (ErrAlreadyPlaying); the user leaves the matchmaking queue. When the AI
// plays black, Snapshot.Reply is set: post the board, then wait on it.
//
// The start is one atomic step of the store (StartGame), after the user's LeaveQueue (see
// OpenLobby for why that may come first): of any number of racing starts in one chat exactly
// one succeeds.
func (s *Service) NewAIGame(ctx context.Context, user Player, chatID int64, size, level int, color Choice) (*Snapshot, error) {
	switch {
	case !s.ValidSize(size):
		return nil, ErrBadSize
	case level < 1 || level > MaxLevel:
		return nil, ErrBadLevel
	case user.UserID == 0 || chatID == 0:
		return nil, ErrBadRequest
	}
	if _, err := s.queue.LeaveQueue(ctx, user.UserID); err != nil {
		return nil, err
	}
	side := int(color)
	if color != ChooseBlack && color != ChooseWhite {
		color, side = ChooseRandom, s.coin()
	}
	g := &Game{Size: size, Flow: FlowAI, Status: StatusPlaying,
		CreatorColor: int8(color), AILevel: level, ChatID: chatID, Lang: user.Lang}
	g.Players[side] = user
	g.LastMoveAt = s.now()
	if _, err := s.start(ctx, g, Hosting{Chats: []int64{chatID}}); err != nil {
		return nil, storeErr(err)
	}
	return s.resultOf(ctx, g, nil)
}

// Reply is the AI's move that a game owes. The Service decides when the AI is to move: every
// Snapshot that leaves the AI to move carries one (Snapshot.Reply), whatever the step — a move
// against the AI, a new AI game or a rematch where the AI plays black, and a read (Game,
// Current, ...) of a game whose reply never came because its process stopped or its search
// was cut short. The caller of a step shows the step (answers the tap), then waits on the
// Reply; it has nothing else to decide.
//
// The search starts when the Reply is waited for, not before: it runs under the waiter's
// context, which bounds it and ends it when the waiter stops, and on the waiter's goroutine,
// so the Service runs nothing of its own and nothing is left in flight when it closes. A
// Snapshot that nobody shows (a page polling a game, a check) starts no search.
type Reply struct {
	s      *Service
	gameID string
}

// Wait lets the AI play the move the game owes and returns that step, as AIReply does: the
// AI's move, the passes after it and its further moves while the player must pass, until the
// player is to move or the game ends (the result recorded). ctx bounds the search.
//
// A game has one reply under way at a time, among all the Services sharing the store: a Wait
// (by this Reply or another of the same game) while another runs plays nothing and returns at
// once with Snapshot.Thinking set; the one under way commits the move, and answers a move the
// player made meanwhile too. A Wait after the move is in plays nothing. It fails with ErrBusy
// when ctx ends, or no search slot frees, before the AI answers: the game still owes the move,
// and the Reply of any later step of it (a tap, a read) wakes the AI again.
//
// The Snapshot it returns carries a Reply only when the AI still owes a move (another reply is
// under way, or a later round was cut short): that one is for a later step, not to wait on now.
func (r *Reply) Wait(ctx context.Context) (*Snapshot, error) {
	return r.s.AIReply(ctx, r.gameID)
}

// GameID returns the ID of the game that owes the reply.
func (r *Reply) GameID() string { return r.gameID }

// AIReply lets the AI play when it is to move in the game: its move, the passes that follow,
// and more moves of the AI while the player must pass, until the player is to move or the game
// ends (recording the result). It does nothing (a Snapshot with nothing played) when the AI is
// not to move, so calling it again is harmless. The search runs in the AI pool as the work of
// the game's player; when ctx ends first it fails with ErrBusy and the game waits for another
// call. An AI that fails or answers an illegal move is replaced for that move by the first
// legal one.
//
// A game has one AI reply in progress at a time, among all the Services sharing the store
// (through Leases): a call while another runs returns at once, with nothing played and
// Snapshot.Thinking set, and the call in progress commits the move (its caller draws it); after
// it lets the game go, it looks again, and answers a move the player made meanwhile too (a
// round that plays needs a move of the player's, so this ends when the player waits). A
// write that does not move the game while the AI searches (a board recorded) costs a retry of
// the commit, not a second search; after aiAttempts lost commits it fails with ErrConflict.
//
// It is Reply.Wait for the game gameID, for callers that hold an ID rather than a step's
// Snapshot (tools, tests); a step's caller waits on Snapshot.Reply instead.
func (s *Service) AIReply(ctx context.Context, gameID string) (*Snapshot, error) {
	var last *Snapshot // the latest round that played
	for {
		r, again, err := s.replyRound(ctx, gameID)
		if err != nil {
			if last != nil {
				// A later round that fails leaves the AI to move, as a cut-short search
				// does: the boards drawn from last show it, and a tap wakes it.
				return last, nil
			}
			return nil, err
		}
		if len(r.Played) > 0 {
			last = r
		}
		if !again {
			if last != nil {
				return last, nil
			}
			return r, nil
		}
	}
}

// replyRound is one round of AIReply: unless another reply of the game is in progress (then
// a Snapshot with Thinking), it takes the game for the round and lets the AI play.
//
// A call that finds the game taken returns at once, trusting the holder to answer; it may
// have come for a move the holder did not see. So again reports that this round held the game
// in a way that may have turned such a call away (it took the lease, or calls joined it): the
// game must be looked at again, in a next round, now that it is free.
func (s *Service) replyRound(ctx context.Context, gameID string) (r *Snapshot, again bool, err error) {
	key := "ai:" + gameID
	f, lead := s.flights.join(key)
	if !lead {
		r, err := s.thinking(ctx, gameID, nil)
		return r, false, err
	}
	defer func() {
		if s.flights.land(key, f, engine.Pass, nil) {
			again = true
		}
	}()
	st, err := s.load(ctx, gameID)
	if err != nil {
		return nil, false, err
	}
	if !needAI(st) {
		return s.result(st, nil), false, nil
	}
	release, ok, err := s.lease(ctx, key, aiLeaseTTL(st.g))
	if err != nil {
		return nil, false, err
	}
	if !ok {
		r, err := s.thinking(ctx, gameID, st)
		return r, false, err
	}
	defer release()
	r, err = s.reply(ctx, gameID)
	return r, true, err
}

// aiAttempts bounds the commits AIReply tries when other writes (a board recorded, a
// player's step) keep changing the game under it.
const aiAttempts = 5

// reply is AIReply under the game's lease. It reads the game again first: a reply that ended
// since AIReply's first read has moved it on, and its position must not be searched again.
// When its commit loses to a write that left the moves as they were (a /board recording its
// message), it commits the same moves again without searching them again.
func (s *Service) reply(ctx context.Context, gameID string) (*Snapshot, error) {
	var (
		base  string          // the moves the AI's choices were made after
		moves []engine.Square // the AI's choices after base, in order
	)
	for attempt := 1; ; attempt++ {
		st, err := s.load(ctx, gameID)
		if err != nil {
			return nil, err
		}
		if string(st.g.Moves) != base {
			base, moves = string(st.g.Moves), nil
		}
		var played []Played
		for i := 0; needAI(st); i++ {
			pos := st.pos()
			if i == len(moves) {
				sq, err := s.think(ctx, humanOf(st.g), func(ctx context.Context) (engine.Square, error) {
					return s.ai.Move(ctx, pos, st.g.AILevel)
				})
				if errors.Is(err, ErrBusy) {
					return nil, err
				}
				// A failing AI must not stall the game: it plays the first legal move.
				if err != nil || !pos.IsLegal(sq) || sq == engine.Pass {
					sq = pos.Moves().First()
				}
				moves = append(moves, sq)
			}
			sq := moves[i]
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
		r, err := s.commit(ctx, st, played)
		if !errors.Is(err, ErrConflict) || attempt == aiAttempts {
			return r, err
		}
	}
}

// thinking is the Snapshot of an AIReply that found another reply of the game in progress:
// the game as it is (st, or read now when nil), with Thinking set while the AI is to move.
func (s *Service) thinking(ctx context.Context, gameID string, st *state) (*Snapshot, error) {
	if st == nil {
		var err error
		if st, err = s.load(ctx, gameID); err != nil {
			return nil, err
		}
	}
	r := s.result(st, nil)
	r.Thinking = r.Reply != nil
	return r, nil
}

// think runs an AI search in the pool as the work of user.
func (s *Service) think(ctx context.Context, user int64, search func(context.Context) (engine.Square, error)) (engine.Square, error) {
	var (
		sq  engine.Square
		err error
	)
	if perr := s.pool.Do(WithUser(ctx, user), func(ctx context.Context) { sq, err = search(ctx) }); perr != nil {
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
func (s *Service) Undo(ctx context.Context, gameID string, userID int64, ply int) (*Snapshot, error) {
	return s.undo(ctx, gameID, userID, seen{ply: ply})
}

// undo is Undo on the board at.
func (s *Service) undo(ctx context.Context, gameID string, userID int64, at seen) (*Snapshot, error) {
	return retry(func() (*Snapshot, error) {
		st, side, err := s.loadPlayer(ctx, gameID, userID)
		if err != nil {
			return nil, err
		}
		if st.g.AILevel <= 0 {
			return nil, ErrNotAIGame
		}
		if !at.current(st) {
			return nil, ErrStale
		}
		n := st.eg.Ply()
		for n > 0 && int(st.eg.PlacedBy(n-1)) != side {
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
// (ErrNotYourTurn). It changes nothing. The search runs in the AI pool as the user's work.
// A position has one hint search at a time: asked again while it runs, Hint waits for that
// search and returns its answer (ErrBusy when ctx ends first, or when another Service sharing
// the store is searching the same hint).
func (s *Service) Hint(ctx context.Context, gameID string, userID int64) (engine.Square, error) {
	st, side, err := s.loadPlayer(ctx, gameID, userID)
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
	key := "hint:" + positionKey(st.g)
	f, lead := s.flights.join(key)
	if !lead {
		return s.flights.wait(ctx, f)
	}
	sq, err := s.hint(ctx, key, userID, st.pos())
	s.flights.land(key, f, sq, err)
	return sq, err
}

// hint searches the hint of pos under the lease key, as Hint's leader.
func (s *Service) hint(ctx context.Context, key string, userID int64, pos engine.Position) (engine.Square, error) {
	release, ok, err := s.lease(ctx, key, hintBudget+leaseMargin)
	if err != nil {
		return engine.Pass, err
	}
	if !ok {
		return engine.Pass, ErrBusy
	}
	defer release()
	sq, err := s.think(ctx, userID, func(ctx context.Context) (engine.Square, error) { return s.ai.Hint(ctx, pos) })
	if errors.Is(err, ErrBusy) {
		return engine.Pass, err
	}
	if err != nil || !pos.IsLegal(sq) || sq == engine.Pass {
		sq = pos.Moves().First()
	}
	return sq, nil
}
