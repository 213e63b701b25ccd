package storage

import (
	"context"
	"time"

	"github.com/reversibot/reversi/game"
)

// review is the key of a finished game's review: a string, the encoding game.Service gives,
// that expires with the game (game.ReviewTTL).
func (k keys) review(gameID string) string { return k.p + "rv:{" + gameID + "}" }

// lastGame is the key of the game last finished in a chat: its ID, a string.
func (k keys) lastGame(chatID int64) string { return k.p + "lg:{" + itoa(chatID) + "}" }

// SetLastGame records gameID as the game last finished in chatID, for ttl (game.Reviews).
func (s *Store) SetLastGame(ctx context.Context, chatID int64, gameID string, ttl time.Duration) error {
	if !game.ValidID(gameID) || ttl <= 0 {
		return invalidf("last game %q of chat %d for %v", gameID, chatID, ttl)
	}
	return wrap("set last game", s.rdb.Set(ctx, s.k.lastGame(chatID), gameID, ttl).Err())
}

// LastGame returns the game last finished in chatID; ErrNotFound for none.
func (s *Store) LastGame(ctx context.Context, chatID int64) (string, error) {
	id, err := s.rdb.Get(ctx, s.k.lastGame(chatID)).Result()
	if err != nil {
		return "", wrap("last game", err)
	}
	return id, nil
}

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
