package storage

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/reversibot/reversi/game"
)

// review is the key of a finished game's review: a string, the encoding game.Service gives,
// that expires with the game, and is deleted with it when its players' ledgers drop it
// (usercap.go): it shares the game's tag {g}. (Reviews kept before, under rv:{ID}, are not
// read: each expired within a day.)
func (k keys) review(gameID string) string { return k.gameBase() + "rv:" + gameID }

// saveReview keeps a review no longer than its game.
//
//	KEYS[1]  the review's key     KEYS[2]  the game's record
//	ARGV[1]  the review           ARGV[2]  the longest it is kept (ms)
//	returns  1 kept, 0 the game is gone: nothing kept
var saveReview = redis.NewScript(`
local left = redis.call('PTTL', KEYS[2])
if left == -2 then return 0 end
if left == -1 or left > tonumber(ARGV[2]) then left = tonumber(ARGV[2]) end
redis.call('SET', KEYS[1], ARGV[1], 'PX', left)
return 1
`)

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

// SaveReview keeps data, the review of game gameID, for ttl (game.Reviews), and never longer
// than the game's record: it keeps nothing for a game that is gone. A ttl <= 0 or an id that
// cannot be a game's is ErrInvalid.
func (s *Store) SaveReview(ctx context.Context, gameID string, data []byte, ttl time.Duration) error {
	if !game.ValidID(gameID) || ttl <= 0 {
		return invalidf("save review of %q for %v", gameID, ttl)
	}
	err := saveReview.Run(ctx, s.rdb, []string{s.k.review(gameID), s.k.game(gameID)}, data, ttl.Milliseconds()).Err()
	return wrap("save review", err)
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
