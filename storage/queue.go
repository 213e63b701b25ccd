package storage

import (
	"context"
	"errors"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/reversibot/reversi/game"
)

// The matchmaking queue. A person's entry is a string key, "SIZE:" and the encoded waiter;
// the size's sorted set holds the entry's deadline as its score (the truth about whether the
// search still waits: an entry whose score has passed waits no longer). An entry outlives its
// deadline by game.QueueGrace, so that ExpireSearches can still tell who waited in vain. A
// member of a size's set whose entry names another size (the person searched again for
// another size) is stale and is dropped where it is met. Entry and queue keys are built from
// the prefixes in ARGV and share the {mm} hash tag with KEYS, as in hibiken/asynq.

// enqueue pairs a waiter with the longest-waiting other person of the same size, or queues it.
//
//	KEYS[1]  the size's queue zset: member user id, score deadline (ms)
//	KEYS[2]  the waiter's entry key
//	ARGV[1]  now (ms)     ARGV[2] TTL (ms)     ARGV[3] the waiter's user id
//	ARGV[4]  the entry: "SIZE:" .. encoded waiter     ARGV[5] entry key prefix
//	ARGV[6]  key for this call's result (random per call): a retry of a call whose reply was
//	         lost gets the opponent it already took instead of queueing
//	ARGV[7]  grace (ms): how long an entry outlives its deadline
//	returns  the paired opponent's entry, or false (nil) when the waiter was queued
var enqueue = redis.NewScript(`
local done = redis.call('GET', ARGV[6])
if done then return done end
local now, ttl, grace = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[7])
local tag = string.match(ARGV[4], '^%d+:')
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. now, '+inf')
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
redis.call('SET', KEYS[2], ARGV[4], 'PX', ttl + grace)
redis.call('ZADD', KEYS[1], now + ttl, ARGV[3])
redis.call('PEXPIRE', KEYS[1], ttl + grace)
return false
`)

// liveEntry is the Lua of a function live(entryKey, queuePrefix, id, now) that returns the
// entry and its deadline (as a string) when the entry waits, else nil.
const liveEntry = `
local function live(key, qprefix, id, now)
  local v = redis.call('GET', key)
  if not v then return nil end
  local size = string.match(v, '^(%d+):')
  if not size then return nil end
  local score = redis.call('ZSCORE', qprefix .. size, id)
  if not score or tonumber(score) <= now then return nil end
  return v, score, qprefix .. size
end
`

// leaveQueue takes a waiting entry out of the queue.
//
//	KEYS[1]  the entry key     ARGV[1] now (ms)     ARGV[2] queue key prefix     ARGV[3] user id
//	returns  1 when the entry waited, else 0 (an entry past its deadline stays, for expireQueue)
var leaveQueue = redis.NewScript(liveEntry + `
local v, score, q = live(KEYS[1], ARGV[2], ARGV[3], tonumber(ARGV[1]))
if not v then return 0 end
redis.call('DEL', KEYS[1])
redis.call('ZREM', q, ARGV[3])
return 1
`)

// searching reads a waiting entry.
//
//	KEYS[1]  the entry key     ARGV[1] now (ms)     ARGV[2] queue key prefix     ARGV[3] user id
//	returns  {entry, deadline} when the entry waits, else false (nil)
var searching = redis.NewScript(liveEntry + `
local v, score = live(KEYS[1], ARGV[2], ARGV[3], tonumber(ARGV[1]))
if not v then return false end
return {v, score}
`)

// expireQueue takes the entries whose deadline has passed out of the queues.
//
//	KEYS     the queue zsets, one per size
//	ARGV[1]  now (ms)     ARGV[2] entry key prefix     ARGV[3] the most entries to take
//	ARGV[3+i] the size of KEYS[i]
//	returns  entry, deadline, entry, deadline, ... of the entries taken
var expireQueue = redis.NewScript(`
local now, left = tonumber(ARGV[1]), tonumber(ARGV[3])
local out = {}
for i, q in ipairs(KEYS) do
  if left <= 0 then break end
  local tag = ARGV[3 + i] .. ':'
  local ids = redis.call('ZRANGEBYSCORE', q, '-inf', now, 'WITHSCORES', 'LIMIT', 0, left)
  for j = 1, #ids, 2 do
    local id, score = ids[j], ids[j + 1]
    redis.call('ZREM', q, id)
    local v = redis.call('GET', ARGV[2] .. id)
    if v and string.sub(v, 1, #tag) == tag then
      redis.call('DEL', ARGV[2] .. id)
      table.insert(out, v)
      table.insert(out, score)
      left = left - 1
    end
  end
end
return out
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

// parseEntry reads an entry and its deadline (a zset score, in ms) into a Search.
func parseEntry(entry, deadline string) (game.Search, error) {
	sz, data, ok := strings.Cut(entry, ":")
	if !ok {
		return game.Search{}, invalidf("queue entry")
	}
	size, err := strconv.Atoi(sz)
	if err != nil || size < minSize || size > maxSize {
		return game.Search{}, invalidf("queue entry size")
	}
	w, err := decodeWaiter([]byte(data))
	if err != nil {
		return game.Search{}, err
	}
	ms, err := strconv.ParseFloat(deadline, 64)
	if err != nil || math.IsNaN(ms) || math.Abs(ms) > 1<<53 {
		return game.Search{}, invalidf("queue deadline")
	}
	return game.Search{Size: size, Waiter: w, Until: time.UnixMilli(int64(ms))}, nil
}

// Enqueue looks for an opponent for w on boards of the given size. If someone else is
// waiting for that size (and their deadline has not passed), the longest waiting is taken out
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
		s.k.enqueueCall(newID()), game.QueueGrace.Milliseconds()).Text()
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
// An entry past its deadline is not waiting: it stays for ExpireSearches.
func (s *Store) LeaveQueue(ctx context.Context, userID int64) (bool, error) {
	n, err := leaveQueue.Run(ctx, s.rdb, []string{s.k.waiter(userID)}, s.now().UnixMilli(),
		s.k.queuePrefix(), itoa(userID)).Int()
	if err != nil {
		return false, wrap("leave queue", err)
	}
	return n == 1, nil
}

// Searching returns userID's search while it waits, nil when there is none.
func (s *Store) Searching(ctx context.Context, userID int64) (*game.Search, error) {
	res, err := searching.Run(ctx, s.rdb, []string{s.k.waiter(userID)}, s.now().UnixMilli(),
		s.k.queuePrefix(), itoa(userID)).StringSlice()
	if err != nil {
		if errors.Is(err, redis.Nil) {
			return nil, nil
		}
		return nil, wrap("searching", err)
	}
	if len(res) != 2 {
		return nil, invalidf("queue entry")
	}
	se, err := parseEntry(res[0], res[1])
	if err != nil {
		return nil, err
	}
	return &se, nil
}

// ExpireSearches takes up to max entries whose deadline has passed out of the queues of every
// size and returns them, each to exactly one caller (the script is one atomic step).
func (s *Store) ExpireSearches(ctx context.Context, max int) ([]game.Search, error) {
	if max <= 0 {
		return nil, nil
	}
	var keys []string
	args := []any{s.now().UnixMilli(), s.k.waiterPrefix(), max}
	for n := minSize; n <= maxSize; n += 2 {
		keys = append(keys, s.k.queue(n))
		args = append(args, n)
	}
	res, err := expireQueue.Run(ctx, s.rdb, keys, args...).StringSlice()
	if err != nil {
		if errors.Is(err, redis.Nil) {
			return nil, nil
		}
		return nil, wrap("expire searches", err)
	}
	out := make([]game.Search, 0, len(res)/2)
	var bad error
	for i := 0; i+1 < len(res); i += 2 {
		se, err := parseEntry(res[i], res[i+1])
		if err != nil {
			bad = err // taken out all the same: an entry nobody can read tells nobody anything
			continue
		}
		out = append(out, se)
	}
	if len(out) == 0 && bad != nil {
		return nil, bad
	}
	return out, nil
}
