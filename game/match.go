package game

import (
	"context"
	"errors"
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
	if !s.ValidSize(size) {
		return nil, ErrBadSize
	}
	if user.UserID == 0 || user.ChatID == 0 {
		return nil, ErrBadRequest
	}
	if err := s.checkFree(ctx, user.ChatID); err != nil {
		return nil, err
	}
	me := Waiter{UserID: user.UserID, ChatID: user.ChatID, Name: user.Name, Lang: user.Lang}
	for range maxPairings {
		opp, err := s.st.Enqueue(ctx, size, me)
		if err != nil {
			return nil, err
		}
		if opp == nil {
			return &Snapshot{Queued: true}, nil
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
			return s.resultOf(ctx, g, nil)
		case errors.As(err, &busy) && busy.ChatID == opp.ChatID:
			continue // the opponent plays elsewhere now: they left the queue; look again
		}
		// The user's own chat got a game since checkFree, or the store failed: the opponent,
		// who did nothing wrong, waits again.
		if _, rerr := s.st.Requeue(ctx, size, *opp); rerr != nil {
			err = errors.Join(err, rerr)
		}
		return nil, storeErr(err)
	}
	return nil, ErrConflict
}

// CancelFind takes the user out of the matchmaking queue; it reports whether they were in it.
func (s *Service) CancelFind(ctx context.Context, userID int64) (bool, error) {
	return s.st.LeaveQueue(ctx, userID)
}
