package storage

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/reversibot/reversi/game"
)

// A group that becomes a supergroup gets a new chat id (game.Service.MigrateChat). What the
// store keeps under the old id moves key by key, each move one atomic step that is idempotent
// (a second move finds nothing left under the old id), so no migration record is needed and
// racing moves of one group, from the two service messages Telegram sends to any two
// processes, agree:
//
//   - the game, both chats' bindings and the record of the move {g}mg:OLD (all tagged {g}):
//     one script, MoveGame;
//   - the group's leaderboard, {p}top:OLD into {p}top:NEW (both tagged {p}): one script;
//   - the chat's language cl:{OLD} and last finished game lg:{OLD}: each in a slot of its own
//     (on a Cluster the two chats' keys are in different slots, so no script can hold both),
//     moved by SET NX on the new key and then DEL of the old one. SET NX is atomic on its key
//     and keeps a value the new chat set itself; a move cut off between the two commands
//     leaves the old key, which the next move (the second service message) takes again with
//     a SET NX that changes nothing, then deletes.

var (
	_ game.GameMover = (*Store)(nil)
	_ game.ChatMover = (*Store)(nil)
)

// moveGame stores a game's next version and moves its chat binding, unless the new chat is
// busy: joinGame with the old chat's binding dropped.
//
//	KEYS[1]          the game's key
//	KEYS[2]          the new chat's binding key; it must be free or name the game
//	KEYS[3]          the old chat's binding key; deleted if it names the game
//	KEYS[4]          the record of the move: the new chat's id, under the old chat's
//	KEYS[5..]        the other binding keys the new record names, whose TTL is reset when
//	                 they still name the game
//	ARGV[1]          expected version: the 4 bytes at offsets 1..4 of the stored record
//	ARGV[2]          the new record (with a nonce unique to the call)
//	ARGV[3]          TTL of the game and its bindings (ms)
//	ARGV[4]          the game's ID
//	ARGV[5]          game key prefix
//	ARGV[6]          the new chat's id       ARGV[7] TTL of the record of the move (ms)
//	returns  {1} done; also for a retry of a call that did it (the record is this call's)
//	         {0} no such game     {-1} the version differs
//	         {2} the new chat is bound to another lobby or game in play
//	         {5, 2, id} the new chat is bound to another game, id, whose record cannot be read
var moveGame = redis.NewScript(live(5) + `
local cur = redis.call('GET', KEYS[1])
if not cur then return {0} end
if cur == ARGV[2] then return {1} end
if string.sub(cur, 2, 5) ~= ARGV[1] then return {-1} end
local id = redis.call('GET', KEYS[2])
if id and id ~= ARGV[4] then
  local st = state(id)
  if st == 'live' then return {2} end
  if st == 'bad' then return {5, 2, id} end
end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
redis.call('SET', KEYS[2], ARGV[4], 'PX', ARGV[3])
if redis.call('GET', KEYS[3]) == ARGV[4] then redis.call('DEL', KEYS[3]) end
redis.call('SET', KEYS[4], ARGV[6], 'PX', ARGV[7])
for i = 5, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[4] then redis.call('PEXPIRE', KEYS[i], ARGV[3]) end
end
return {1}
`)

// MoveGame stores g, a game read from the store and rehosted in chat to, binds to to it and
// unbinds from, in one atomic step (one script, one round trip; all keys tagged {g}), as
// game.GameMover documents: a compare-and-set on g.Version like UpdateGame (ErrConflict,
// ErrNotFound), refused with a *BusyError when to is bound to another lobby or game in play
// (a *CorruptError when to another record that cannot be read), and recognised as the
// success it was when go-redis sends it again after a lost reply.
func (s *Store) MoveGame(ctx context.Context, g *game.Game, from, to int64) error {
	if from == 0 || to == 0 || from == to {
		return invalidf("move game from chat %d to %d", from, to)
	}
	c, data, expect, err := s.nextVersion(g)
	if err != nil {
		return err
	}
	keys := []string{s.k.game(g.ID), s.k.chat(to), s.k.chat(from), s.k.movedTo(from)}
	for _, k := range s.bindingKeys(&c) {
		if k != keys[1] && k != keys[2] {
			keys = append(keys, k)
		}
	}
	res, err := moveGame.Run(ctx, s.rdb, keys, expect[:], data, s.ttlFor(c.Status).Milliseconds(), g.ID,
		s.k.gamePrefix(), to, max(s.opt.FinishedTTL, s.opt.IdleTTL).Milliseconds()).Slice()
	if err != nil {
		return wrap("move game", err)
	}
	if done, err := rehostReply(res, g, &c); done {
		return err
	}
	return &game.BusyError{ChatID: to}
}

// movedTo is the key of the record that group chat from became another chat (MoveGame): that
// chat's id, a string kept for the longer of FinishedTTL and IdleTTL.
func (k keys) movedTo(from int64) string { return k.p + "{g}mg:" + itoa(from) }

// MovedTo returns the chat that chat from became, as game.GameMover documents: 0 when no
// game moved from it, or the record expired.
func (s *Store) MovedTo(ctx context.Context, from int64) (int64, error) {
	to, err := s.rdb.Get(ctx, s.k.movedTo(from)).Int64()
	if errors.Is(err, redis.Nil) {
		return 0, nil
	}
	return to, wrap("moved to", err)
}

// moveTop merges a group's leaderboard into another's and deletes it.
//
//	KEYS[1]  the old group's leaderboard zset     KEYS[2]  the new group's
//	ARGV[1]  the leaderboard cap
//	returns  the members moved (0: nothing to move)
//
// A member of both keeps the higher score (a rating as of a game in either group: Top orders
// by current ratings anyway). The new board lives as long as the longer-lived of the two.
var moveTop = redis.NewScript(`
local n = redis.call('ZCARD', KEYS[1])
if n == 0 then return 0 end
local ttl = math.max(redis.call('PTTL', KEYS[1]), redis.call('PTTL', KEYS[2]))
redis.call('ZUNIONSTORE', KEYS[2], 2, KEYS[2], KEYS[1], 'AGGREGATE', 'MAX')
redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -tonumber(ARGV[1]) - 1)
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
redis.call('DEL', KEYS[1])
return n
`)

// MoveChat moves the group leaderboard, the language and the last finished game of chat
// from to chat to, as game.ChatMover documents; see the top of this file for what each step
// holds atomic.
func (s *Store) MoveChat(ctx context.Context, from, to int64) error {
	if from == 0 || to == 0 || from == to {
		return invalidf("move chat %d to %d", from, to)
	}
	err := moveTop.Run(ctx, s.rdb, []string{s.k.top(from), s.k.top(to)}, groupTopCap).Err()
	if err != nil {
		return wrap("move leaderboard", err)
	}
	if err := s.moveKey(ctx, s.k.chatLang(from), s.k.chatLang(to)); err != nil {
		return wrap("move chat lang", err)
	}
	return wrap("move last game", s.moveKey(ctx, s.k.lastGame(from), s.k.lastGame(to)))
}

// moveKey moves the string at key from to key to, with its TTL, unless to holds one already,
// and deletes from: SET NX on to, then DEL of from (they may lie in different Cluster slots).
func (s *Store) moveKey(ctx context.Context, from, to string) error {
	var get *redis.StringCmd
	var ttl *redis.DurationCmd
	_, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		get, ttl = p.Get(ctx, from), p.PTTL(ctx, from)
		return nil
	})
	if errors.Is(err, redis.Nil) {
		return nil // nothing to move
	}
	if err != nil {
		return err
	}
	var keep time.Duration // 0: no TTL
	switch d := ttl.Val(); {
	case d > 0:
		keep = d
	case d == -2: // gone since the GET: it expired
		return nil
	}
	if err := s.rdb.SetNX(ctx, to, get.Val(), keep).Err(); err != nil {
		return err
	}
	return s.rdb.Del(ctx, from).Err()
}
