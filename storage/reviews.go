package storage

import (
	"context"
	"time"

	"github.com/reversibot/reversi/game"
)

// review is the key of a finished game's review: a string, the encoding game.Service gives,
// that expires with the game (game.ReviewTTL).
func (k keys) review(gameID string) string { return k.p + "rv:{" + gameID + "}" }

// SaveReview keeps data, the review of game gameID, for ttl (game.Reviews). A ttl <= 0 or an
// id that cannot be a game's is ErrInvalid.
func (s *Store) SaveReview(ctx context.Context, gameID string, data []byte, ttl time.Duration) error {
	if !game.ValidID(gameID) || ttl <= 0 {
		return invalidf("save review of %q for %v", gameID, ttl)
	}
	return wrap("save review", s.rdb.Set(ctx, s.k.review(gameID), data, ttl).Err())
}

// LoadReview returns the review kept for gameID; ErrNotFound when none is.
func (s *Store) LoadReview(ctx context.Context, gameID string) ([]byte, error) {
	if !game.ValidID(gameID) {
		return nil, game.ErrNotFound
	}
	data, err := s.rdb.Get(ctx, s.k.review(gameID)).Bytes()
	if err != nil {
		return nil, wrap("load review", err) // redis.Nil: ErrNotFound
	}
	return data, nil
}
