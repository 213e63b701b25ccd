package storage

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Update dedupe. Telegram numbers a bot's updates one after another, so FirstSeen remembers an
// update_id as one bit of a bitmap that covers a block of dedupeBlockIDs consecutive ids. A
// jump in the ids (Telegram may start anywhere) just opens another block.

const (
	// dedupeBlockBytes is the length of one block's bitmap. Redis keeps a string of 16,000
	// bytes in one allocation of MEMORY USAGE 16,432 bytes (16,384 would cost 20,528), so a
	// full block costs 0.13 bytes per update.
	dedupeBlockBytes = 16_000
	// dedupeBlockIDs is how many update ids one block covers.
	dedupeBlockIDs = dedupeBlockBytes * 8
	// dedupeSlack is how much longer than DedupeTTL a block's TTL is set, so that a busy block
	// has its TTL moved forward at most once per dedupeSlack rather than on every update.
	dedupeSlack = 500 * time.Millisecond
)

// markUpdate sets the bit of one update in its block's bitmap.
//
//	KEYS[1]  the block's bitmap
//	ARGV[1]  the update's bit in the block     ARGV[2] the block's last bit
//	ARGV[3]  DedupeTTL (ms)                    ARGV[4] the TTL to give the block (ms), a little more
//	returns  1 if the bit was clear (the update is new), 0 if it was set
//
// A new block is made whole at once (its last bit written first): a string that grows bit by
// bit is reallocated with room to spare, up to twice its length. The block's TTL is set when
// it is made, in the same script, and moved forward when a new mark finds less than DedupeTTL
// left, so every mark lives at least DedupeTTL and a block at most ARGV[4] after its last mark.
var markUpdate = redis.NewScript(`
local ttl = redis.call('PTTL', KEYS[1])
if ttl == -2 then redis.call('SETBIT', KEYS[1], ARGV[2], 0) end
if redis.call('SETBIT', KEYS[1], ARGV[1], 1) == 1 then return 0 end
if ttl < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[1], ARGV[4]) end
return 1
`)

// FirstSeen reports true exactly once for each Telegram update_id within DedupeTTL, false for
// every later call: the first caller applies the update, the others drop it. Each id is one
// bit (see markUpdate). update_ids are never negative: a negative one fails with ErrInvalid.
//
// When Redis's reply to an update's mark is lost (the connection breaks after the server ran
// the script), FirstSeen fails instead of letting go-redis send the script again: the second
// run would find the bit its first run set and call the update a duplicate, and nobody would
// handle it. The bot handles an update whose FirstSeen failed, so a lost reply can at worst
// let an update that was also delivered twice be handled twice, which every game step's
// compare-and-set makes harmless.
func (s *Store) FirstSeen(ctx context.Context, updateID int64) (bool, error) {
	if updateID < 0 {
		return false, invalidf("update_id %d", updateID)
	}
	ttl := s.opt.DedupeTTL.Milliseconds()
	n, err := s.evalOnce(ctx, markUpdate, []string{s.k.dedupeBlock(updateID / dedupeBlockIDs)},
		updateID%dedupeBlockIDs, dedupeBlockIDs-1, ttl, ttl+dedupeSlack.Milliseconds()).Int()
	if err != nil {
		return false, wrap("dedupe", err)
	}
	return n == 1, nil
}

// noRetry is a command that go-redis must not send again after a failure (it honours
// Cmder.NoRetry): one whose second run would misread the effect of the first.
type noRetry struct{ *redis.Cmd }

// NoRetry tells go-redis not to retry the command.
func (noRetry) NoRetry() bool { return true }

// evalOnce runs sc like Script.Run (EVALSHA, and on NOSCRIPT loading it and EVALSHA again),
// but never sends a script that may have run a second time: a lost reply is an error.
func (s *Store) evalOnce(ctx context.Context, sc *redis.Script, keys []string, args ...any) *redis.Cmd {
	run := func() *redis.Cmd {
		a := make([]any, 0, 3+len(keys)+len(args))
		a = append(a, "evalsha", sc.Hash(), len(keys))
		for _, k := range keys {
			a = append(a, k)
		}
		c := redis.NewCmd(ctx, append(a, args...)...)
		_ = s.rdb.Process(ctx, noRetry{c})
		return c
	}
	c := run()
	if redis.HasErrorPrefix(c.Err(), "NOSCRIPT") {
		// The script did not run: load it (a retry of that is harmless) and run it once.
		if err := sc.Load(ctx, s.rdb).Err(); err != nil {
			c.SetErr(err)
			return c
		}
		c = run()
	}
	return c
}
