package host

import (
	"context"

	"github.com/reversibot/reversi/storage"
)

// Find looks for a random opponent for user on a board of the given size. User.ChatID must be
// the user's private chat, and it must not have a game in play (ErrAlreadyPlaying). When
// someone else waits for that size, the two are paired at once into a storage.FlowMatch game
// with random colours, bound to both private chats (send each a board and AddBoard it);
// otherwise the user is queued (Result.Queued, no Game) until another Find pairs them or
// CancelFind, or the queue entry expires.
func (s *Service) Find(ctx context.Context, user storage.Player, size int) (*Result, error) {
	if !s.ValidSize(size) {
		return nil, ErrBadSize
	}
	if user.UserID == 0 || user.ChatID == 0 {
		return nil, ErrBadRequest
	}
	if err := s.ensureFree(ctx, user.ChatID); err != nil {
		return nil, err
	}
	opp, err := s.st.Enqueue(ctx, size, storage.Waiter{UserID: user.UserID, ChatID: user.ChatID,
		Name: user.Name, Lang: user.Lang})
	if err != nil {
		return nil, err
	}
	if opp == nil {
		return &Result{Queued: true}, nil
	}
	g := &storage.Game{Size: size, Flow: storage.FlowMatch, Status: storage.StatusPlaying,
		CreatorColor: int8(ChooseRandom), Lang: user.Lang}
	other := storage.Player{UserID: opp.UserID, Name: opp.Name, ChatID: opp.ChatID, Lang: opp.Lang}
	side := s.coin()
	g.Players[side], g.Players[1-side] = user, other
	return s.create(ctx, g)
}

// CancelFind takes the user out of the matchmaking queue; it reports whether they were in it.
func (s *Service) CancelFind(ctx context.Context, userID int64) (bool, error) {
	return s.st.LeaveQueue(ctx, userID)
}
