package storage

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/reversibot/reversi/game"
)

// enqueue pairs a waiter with the longest-waiting other person of the same size, or queues it.
// A person's entry is a string key with a TTL (the truth: an expired key is no entry); the
// size's sorted set only orders entries by deadline and is cleaned as it is read. Entry keys
// are built from ARGV[5] and share the {mm} hash tag with KEYS, as in hibiken/asynq.
//
//	KEYS[1]  the size's queue zset: member user id, score deadline (ms)
//	KEYS[2]  the waiter's entry key
//	ARGV[1]  now (ms)     ARGV[2] TTL (ms)     ARGV[3] the waiter's user id
//	ARGV[4]  the entry: "SIZE:" .. encoded waiter     ARGV[5] entry key prefix
//	ARGV[6]  key for this call's result (random per call): a retry of a call whose reply was
//	         lost gets the opponent it already took instead of queueing
//	returns  the paired opponent's entry, or false (nil) when the waiter was queued
var enqueue = redis.NewScript(`
local done = redis.call('GET', ARGV[6])
if done then return done end
local now, ttl = tonumber(ARGV[1]), tonumber(ARGV[2])
local tag = string.match(ARGV[4], '^%d+:')
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local ids = redis.call('ZRANGE', KEYS[1], 0, -1)
for _, id in ipairs(ids) do
  if id ~= ARGV[3] then
    local v = redis.call('GET', ARGV[5] .. id)
    redis.call('ZREM', KEYS[1], id)
    if v and string.sub(v, 1, #tag) == tag then
      redis.call('DEL', ARGV[5] .. id)
      redis.call('DEL', KEYS[2])
      redis.call('ZREM', KEYS[1], ARGV[3])
      redis.call('SET', ARGV[6], v, 'PX', 60000)
      return v
    end
  end
end
redis.call('SET', KEYS[2], ARGV[4], 'PX', ttl)
redis.call('ZADD', KEYS[1], now + ttl, ARGV[3])
redis.call('PEXPIRE', KEYS[1], ttl)
return false
`)

// queueEntry is w's entry in the queue for boards of size, "SIZE:" and the encoded waiter;
// ErrInvalid for a size no board has or a waiter without a user id.
func queueEntry(size int, w game.Waiter) (string, error) {
	if size < minSize || size > maxSize || size%2 != 0 {
		return "", invalidf("queue for size %d", size)
	}
	if w.UserID == 0 {
		return "", invalidf("waiter without a user id")
	}
	enc, err := encodeWaiter(w)
	if err != nil {
		return "", err
	}
	return strconv.Itoa(size) + ":" + string(enc), nil
}

// Enqueue looks for an opponent for w on boards of the given size. If someone else is
// waiting for that size (and their entry has not expired), the longest waiting is taken out
// of the queue and returned, and w is not queued. Otherwise w waits, replacing any earlier
// entry of w.UserID (for any size), until QueueTTL passes or LeaveQueue; the result is nil.
// Pairing is atomic: a waiter is handed to exactly one caller, and never to itself.
func (s *Store) Enqueue(ctx context.Context, size int, w game.Waiter) (*game.Waiter, error) {
	entry, err := queueEntry(size, w)
	if err != nil {
		return nil, err
	}
	id := itoa(w.UserID)
	res, err := enqueue.Run(ctx, s.rdb, []string{s.k.queue(size), s.k.waiter(w.UserID)},
		s.now().UnixMilli(), s.opt.QueueTTL.Milliseconds(), id, entry, s.k.waiterPrefix(),
		s.k.enqueueCall(newID())).Text()
	if err != nil {
		if errors.Is(err, redis.Nil) {
			return nil, nil
		}
		return nil, wrap("enqueue", err)
	}
	_, data, ok := strings.Cut(res, ":")
	if !ok {
		return nil, invalidf("queue entry")
	}
	opp, err := decodeWaiter([]byte(data))
	if err != nil {
		return nil, err
	}
	return &opp, nil
}

// LeaveQueue takes userID out of the matchmaking queue and reports whether it was waiting.
func (s *Store) LeaveQueue(ctx context.Context, userID int64) (bool, error) {
	n, err := s.rdb.Del(ctx, s.k.waiter(userID)).Result()
	if err != nil {
		return false, wrap("leave queue", err)
	}
	return n == 1, nil
}
