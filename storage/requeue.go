package storage

import (
	"context"

	"github.com/redis/go-redis/v9"

	"github.com/reversibot/reversi/game"
)

// requeue puts a waiter back in a size's queue unless it has an entry already.
//
//	KEYS[1]  the size's queue zset     KEYS[2]  the waiter's entry key
//	ARGV[1]  now (ms)     ARGV[2] TTL (ms)     ARGV[3] the waiter's user id
//	ARGV[4]  the entry: "SIZE:" .. encoded waiter
//	returns  1 queued, 0 the waiter has an entry (queued again meanwhile, for any size)
var requeue = redis.NewScript(`
if not redis.call('SET', KEYS[2], ARGV[4], 'NX', 'PX', ARGV[2]) then return 0 end
local deadline = tonumber(ARGV[1]) + tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], deadline, ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
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
		s.now().UnixMilli(), s.opt.QueueTTL.Milliseconds(), itoa(w.UserID), entry).Int()
	if err != nil {
		return false, wrap("requeue", err)
	}
	return n == 1, nil
}
