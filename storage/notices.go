package storage

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/reversibot/reversi/game"
)

// A user's newest turn notice is one string at tn:{USER}: the message id alone for a notice
// that claims nothing a later step can make false (and in records written before notices
// kept their claims), else "MSG:VERSION:MOVES:GAME" (a game id has no colon).

// SwapTurnNotice records n as the user's newest turn notice and returns the one before (the
// zero TurnNotice: none), in one SET … GET; the record lives game.TurnNoticeTTL.
func (s *Store) SwapTurnNotice(ctx context.Context, userID int64, n game.TurnNotice) (game.TurnNotice, error) {
	prev, err := s.rdb.SetArgs(ctx, s.k.turnNotice(userID), encodeTurnNotice(n),
		redis.SetArgs{Get: true, TTL: game.TurnNoticeTTL}).Result()
	if errors.Is(err, redis.Nil) {
		return game.TurnNotice{}, nil
	}
	if err != nil {
		return game.TurnNotice{}, wrap("turn notice", err)
	}
	return decodeTurnNotice(prev), nil
}

// NewestTurnNotice returns the user's newest turn notice (the zero TurnNotice: none).
func (s *Store) NewestTurnNotice(ctx context.Context, userID int64) (game.TurnNotice, error) {
	v, err := s.rdb.Get(ctx, s.k.turnNotice(userID)).Result()
	if errors.Is(err, redis.Nil) {
		return game.TurnNotice{}, nil
	}
	if err != nil {
		return game.TurnNotice{}, wrap("turn notice", err)
	}
	return decodeTurnNotice(v), nil
}

// dropIfEqual deletes a key if it holds a value.
//
//	KEYS[1]  the key    ARGV[1]  the value it must hold
//	returns  1 if it was deleted, 0 if it held anything else (or nothing)
var dropIfEqual = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`)

// DropTurnNotice forgets n if it is still the user's newest turn notice (one script) and
// reports whether it did.
func (s *Store) DropTurnNotice(ctx context.Context, userID int64, n game.TurnNotice) (bool, error) {
	if n == (game.TurnNotice{}) {
		return false, nil
	}
	done, err := dropIfEqual.Run(ctx, s.rdb, []string{s.k.turnNotice(userID)}, encodeTurnNotice(n)).Int()
	if err != nil {
		return false, wrap("turn notice", err)
	}
	return done == 1, nil
}

// encodeTurnNotice is n as tn:{USER} holds it.
func encodeTurnNotice(n game.TurnNotice) string {
	id := strconv.Itoa(n.MessageID)
	if n.GameID == "" {
		return id
	}
	return id + ":" + strconv.FormatInt(n.Version, 10) + ":" + strconv.Itoa(n.Moves) + ":" + n.GameID
}

// decodeTurnNotice reads what encodeTurnNotice wrote; a record it cannot read is a notice
// that claims nothing (its message id, when that much is readable, can still be replaced).
func decodeTurnNotice(v string) game.TurnNotice {
	f := strings.SplitN(v, ":", 4)
	var n game.TurnNotice
	n.MessageID, _ = strconv.Atoi(f[0])
	if len(f) != 4 {
		return n
	}
	ver, err1 := strconv.ParseInt(f[1], 10, 64)
	moves, err2 := strconv.Atoi(f[2])
	if err1 != nil || err2 != nil || f[3] == "" {
		return n
	}
	n.GameID, n.Version, n.Moves = f[3], ver, moves
	return n
}
