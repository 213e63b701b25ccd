package storage

import (
	"context"

	"github.com/redis/go-redis/v9"

	"github.com/reversibot/reversi/game"
)

// requeue puts a waiter back in a size's queue unless it has a waiting entry already (see
// queue.go for the layout).
//
//	KEYS[1]  the size's queue zset     KEYS[2]  the waiter's entry key
//	ARGV[1]  now (ms)     ARGV[2] TTL (ms)     ARGV[3] the waiter's user id
//	ARGV[4]  the entry: "SIZE:" .. encoded waiter     ARGV[5] queue key prefix
//	ARGV[6]  grace (ms): how long an entry outlives its deadline
//	returns  1 queued, 0 the waiter waits already (queued again meanwhile, for any size)
var requeue = redis.NewScript(liveEntry + `
local now, ttl, grace = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[6])
if live(KEYS[2], ARGV[5], ARGV[3], now) then return 0 end
redis.call('SET', KEYS[2], ARGV[4], 'PX', ttl + grace)
redis.call('ZADD', KEYS[1], now + ttl, ARGV[3])
redis.call('PEXPIRE', KEYS[1], ttl + grace)
return 1
`)

// Requeue puts w back in the queue for boards of the given size, for QueueTTL from now, after
// an Enqueue paired w with someone whose game then could not start (their chat had a game by
// then). It pairs nobody, and does nothing when w waits already (it reports false then):
// w's own newer /find or /cancel wins. Calling it twice queues w once.
func (s *Store) Requeue(ctx context.Context, size int, w game.Waiter) (bool, error) {
	entry, err := queueEntry(size, w)
	if err != nil {
		return false, err
	}
	n, err := requeue.Run(ctx, s.rdb, []string{s.k.queue(size), s.k.waiter(w.UserID)},
		s.now().UnixMilli(), s.opt.QueueTTL.Milliseconds(), itoa(w.UserID), entry,
		s.k.queuePrefix(), game.QueueGrace.Milliseconds()).Int()
	if err != nil {
		return false, wrap("requeue", err)
	}
	return n == 1, nil
}
