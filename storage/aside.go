package storage

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/reversibot/reversi/game"
)

// Records that cannot be read. A game record that does not decode, or (as the host finds) that
// replays to an illegal move, would otherwise hold its chats until it expires: every step on it
// fails. SetAside moves it to a key of its own for the operator and frees its chats at once.

// DefaultAsideTTL is how long SetAside keeps a record it moved aside when Options.AsideTTL is 0.
const DefaultAsideTTL = 30 * 24 * time.Hour

// setAside moves a game record to its aside key and deletes the bindings that still name it.
//
//	KEYS[1]  the game's record        KEYS[2]  its aside key
//	KEYS[3…] chat and inline bindings that may name the game (all of them tagged {g})
//	ARGV[1]  the game ID              ARGV[2]  the aside key's TTL (ms)
//	returns  1 moved now, 0 moved before (only the aside copy is there: a retry, another
//	         process), -1 neither is there
var setAside = redis.NewScript(`
local rec = redis.call('GET', KEYS[1])
local moved = 0
if rec then
  redis.call('SET', KEYS[2], rec, 'PX', ARGV[2])
  redis.call('DEL', KEYS[1])
  moved = 1
elseif redis.call('EXISTS', KEYS[2]) == 0 then
  return -1
end
for i = 3, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[1] then redis.call('DEL', KEYS[i]) end
end
return moved
`)

// SetAside moves the record of game id, which its caller cannot read or replay, to a key of its
// own (AsideKey) that lives AsideTTL for the operator, and deletes the chat and inline bindings
// that still point at it: those the record names when it still decodes, and those of via (the
// chat or inline message the caller reached it through). From then on the game is not found and
// its chats are free; a binding SetAside could not name is dropped by its next read, as any
// binding to a missing game is.
//
// It returns the aside key and whether this call moved the record; a second call (a retry,
// another process that found the same record) returns the same key with moved false. Whatever
// record is there when it runs is moved: no step can turn a record that does not read or replay
// into one that does. ErrNotFound when there is neither the record nor an aside copy.
func (s *Store) SetAside(ctx context.Context, id string, via ...game.MessageRef) (key string, moved bool, err error) {
	if !game.ValidID(id) {
		return "", false, game.ErrNotFound
	}
	data, err := s.rdb.Get(ctx, s.k.game(id)).Bytes()
	if err != nil && !errors.Is(err, redis.Nil) {
		return "", false, wrap("set aside", err)
	}
	var rec *game.Game // the record, when it still decodes
	if g := new(game.Game); err == nil && DecodeGame(g, data) == nil {
		rec = g
	}
	bindings := s.bindingKeys(rec, via...)
	// The record, its aside key and the bindings all carry the tag {g} (keys): one script.
	key = s.k.aside(id)
	keys := append([]string{s.k.game(id), key}, bindings...)
	n, err := setAside.Run(ctx, s.rdb, keys, id, s.opt.AsideTTL.Milliseconds()).Int()
	switch {
	case err != nil:
		return "", false, wrap("set aside", err)
	case n < 0:
		return "", false, fmt.Errorf("storage: set aside game %s: %w", id, game.ErrNotFound)
	}
	return key, n == 1, nil
}

// AsideKey returns the key SetAside puts the record of game id under, for logs and diagnostics.
func (s *Store) AsideKey(id string) string { return s.k.aside(id) }

// AsideRecord returns the record SetAside moved aside for game id, as it was; ErrNotFound when
// there is none (never set aside, or expired).
func (s *Store) AsideRecord(ctx context.Context, id string) ([]byte, error) {
	if !game.ValidID(id) {
		return nil, game.ErrNotFound
	}
	data, err := s.rdb.Get(ctx, s.k.aside(id)).Bytes()
	return data, wrap("get aside record", err)
}

// GameRecord returns the stored record of game id as it is, readable or not, for operator tools
// and tests; ErrNotFound when there is none.
func (s *Store) GameRecord(ctx context.Context, id string) ([]byte, error) {
	if !game.ValidID(id) {
		return nil, game.ErrNotFound
	}
	data, err := s.rdb.Get(ctx, s.k.game(id)).Bytes()
	return data, wrap("get game record", err)
}

// PutGameRecord stores data, unchecked, as the record of game id with the TTL of a game in play
// (IdleTTL), replacing any record: for operator tools (putting a repaired record back) and
// tests (planting one that does not read). It fails with ErrInvalid for an id that cannot be a
// game's.
func (s *Store) PutGameRecord(ctx context.Context, id string, data []byte) error {
	if !game.ValidID(id) {
		return invalidf("game id %q", id)
	}
	return wrap("put game record", s.rdb.Set(ctx, s.k.game(id), data, s.opt.IdleTTL).Err())
}
