package game

import (
	"context"
	"time"
)

// Reviews keeps the review of each finished game once it is made, so that a second request
// (another watcher in a group, another process) costs a read, not a search, and the game each
// chat finished last, for /review once the chat is free again. Package storage's Store
// implements it, gametest's Memory too; both pass gametest.TestReviews. The Service works
// without one.
type Reviews interface {
	// SaveReview keeps data, the encoded review of game gameID, for ttl and no longer than
	// the store keeps the game: nothing for a game that is gone. A ttl <= 0 or an id that
	// cannot be one gives ErrInvalid.
	SaveReview(ctx context.Context, gameID string, data []byte, ttl time.Duration) error
	// LoadReview returns what SaveReview kept for gameID; ErrNotFound when nothing is.
	LoadReview(ctx context.Context, gameID string) ([]byte, error)
	// SetLastGame records gameID as the game last finished in chat, for ttl. An id that
	// cannot be one gives ErrInvalid.
	SetLastGame(ctx context.Context, chatID int64, gameID string, ttl time.Duration) error
	// LastGame returns the game SetLastGame recorded last for chat; ErrNotFound for none.
	LastGame(ctx context.Context, chatID int64) (string, error)
}
