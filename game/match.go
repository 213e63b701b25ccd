package game

import (
	"context"
	"errors"
	"time"
)

// maxPairings bounds how many opponents one Find takes from the queue whose chats turn out to
// have a game by the time theirs would start.
const maxPairings = 3

// Find looks for a random opponent for user on a board of the given size. User.ChatID must be
// the user's private chat, and it must not have a game in play (ErrAlreadyPlaying). When
// someone else waits for that size, the two are paired at once into a FlowMatch game
// with random colours, bound to both private chats (send each a board and AddBoard it);
// otherwise the user is queued (Snapshot.Queued, no Game) until another Find pairs them or
// CancelFind, or the queue entry expires.
//
// The pairing (the queue's script) and the start (StartGame, which checks both chats) are two
// atomic steps, since the queue and the games live apart. When the start finds the opponent's
// chat busy (they started another game since they queued), the opponent is dropped and the
// user looks again; when it finds the user's own chat busy, the opponent goes back in the
// queue (Requeue) and the user gets ErrAlreadyPlaying.
func (s *Service) Find(ctx context.Context, user Player, size int) (*Snapshot, error) {
	f, err := s.Seek(ctx, user, size, 0)
	if err != nil {
		return nil, err
	}
	return f.Snapshot, nil
}

// Search is one person's matchmaking search: who waits (with the message that shows it), for
// boards of which size, and until when it waits before it ends by itself.
type Search struct {
	Size   int
	Waiter Waiter
	Until  time.Time
}

// Found is what a Seek came to: Snapshot as Find returns it; when the user was queued, Until
// is when their search ends by itself; when they were paired, Opponent is the one taken from
// the queue, with the message that showed their search (Waiter.MsgID).
type Found struct {
	Snapshot *Snapshot
	Until    time.Time
	Opponent Waiter
}

// Seek is Find for a search shown in message msgID of the user's private chat (0: none): the
// message is kept with the search, so that whoever pairs with the user, or the end of the
// search, can update it. A user who searches already has one search still, the newer one
// (its size and message replace the earlier's).
func (s *Service) Seek(ctx context.Context, user Player, size, msgID int) (*Found, error) {
	if !s.ValidSize(size) {
		return nil, ErrBadSize
	}
	if user.UserID == 0 || user.ChatID == 0 {
		return nil, ErrBadRequest
	}
	if err := s.checkFree(ctx, user.ChatID); err != nil {
		return nil, err
	}
	me := Waiter{UserID: user.UserID, ChatID: user.ChatID, Name: user.Name, Lang: user.Lang, MsgID: max(msgID, 0)}
	for range maxPairings {
		opp, err := s.queue.Enqueue(ctx, size, me)
		if err != nil {
			return nil, err
		}
		if opp == nil {
			f := &Found{Snapshot: &Snapshot{Queued: true}}
			if se, err := s.queue.Searching(ctx, user.UserID); err == nil && se != nil {
				f.Until = se.Until
			}
			return f, nil
		}
		g := &Game{Size: size, Flow: FlowMatch, Status: StatusPlaying,
			CreatorColor: int8(ChooseRandom), Lang: user.Lang, LastMoveAt: s.now()}
		other := Player{UserID: opp.UserID, Name: opp.Name, ChatID: opp.ChatID, Lang: opp.Lang}
		side := s.coin()
		g.Players[side], g.Players[1-side] = user, other
		_, err = s.start(ctx, g, Hosting{Chats: chatsOf(g)})
		var busy *BusyError
		switch {
		case err == nil:
			res, err := s.resultOf(ctx, g, nil)
			if err != nil {
				return nil, err
			}
			return &Found{Snapshot: res, Opponent: *opp}, nil
		case errors.As(err, &busy) && busy.ChatID == opp.ChatID:
			continue // the opponent plays elsewhere now: they left the queue; look again
		}
		// The user's own chat got a game since checkFree, or the store failed: the opponent,
		// who did nothing wrong, waits again.
		if _, rerr := s.queue.Requeue(ctx, size, *opp); rerr != nil {
			err = errors.Join(err, rerr)
		}
		return nil, storeErr(err)
	}
	return nil, ErrConflict
}

// CancelFind takes the user out of the matchmaking queue; it reports whether they were in it.
func (s *Service) CancelFind(ctx context.Context, userID int64) (bool, error) {
	return s.queue.LeaveQueue(ctx, userID)
}

// Searching returns the user's matchmaking search while it waits, nil when there is none (never
// started, paired, cancelled, or past its deadline).
func (s *Service) Searching(ctx context.Context, userID int64) (*Search, error) {
	if userID == 0 {
		return nil, nil
	}
	se, err := s.queue.Searching(ctx, userID)
	return se, storeErr(err)
}

// ExpireSearches ends up to max searches whose deadline has passed and returns them, each to
// one caller among every Service on the store, for telling their people that nobody came.
func (s *Service) ExpireSearches(ctx context.Context, max int) ([]Search, error) {
	if max <= 0 {
		return nil, nil
	}
	out, err := s.queue.ExpireSearches(ctx, max)
	return out, storeErr(err)
}
