package storage

import (
	"context"
	"time"

	"github.com/go-redis/redis_rate/v10"
	"github.com/redis/go-redis/v9"
)

// PaceBudgets are the bot's outgoing budgets (how many sends and edits a chat, and the bot as
// a whole, may still make) kept in Redis, so every bot process on the same Redis and prefix
// spends the same budgets. It is what botapi.Pacer counts with across processes (it satisfies
// botapi.Budgets). Each budget is a GCRA (redis_rate, one Lua script; its key expires once
// the budget is full again); a hold on a budget (after a 429) is a key with the hold's TTL.
type PaceBudgets struct{ s *Store }

// PaceBudgets returns the outgoing budgets kept in s's Redis under s's prefix.
func (s *Store) PaceBudgets() *PaceBudgets { return &PaceBudgets{s: s} }

// Take spends one unit of the budget key (burst at once, then rate per per) and returns 0, or,
// when the budget is held (Hold) or has no room, spends nothing and returns how long until it
// may have room. A Redis failure wraps ErrUnavailable; a budget without a positive rate, per
// and burst allows everything.
func (p *PaceBudgets) Take(ctx context.Context, key string, rate int, per time.Duration, burst int) (time.Duration, error) {
	if rate <= 0 || per <= 0 || burst <= 0 {
		return 0, nil
	}
	held, err := p.s.rdb.PTTL(ctx, p.s.k.paceHold(key)).Result()
	if err != nil {
		return 0, wrap("pace", err)
	}
	if held > 0 {
		return held, nil
	}
	res, err := redis_rate.NewLimiter(prefixedRediser{p.s.rdb}).Allow(ctx, p.s.k.pace(key),
		redis_rate.Limit{Rate: rate, Period: per, Burst: burst})
	if err != nil {
		return 0, wrap("pace", err)
	}
	if res.Allowed > 0 {
		return 0, nil
	}
	// redis_rate's RetryAfter is -1 only when allowed; a refusal always waits a little.
	return max(res.RetryAfter, time.Millisecond), nil
}

// holdScript sets KEYS[1] to live ARGV[1] ms unless it already lives longer.
var holdScript = redis.NewScript(`
local ms = tonumber(ARGV[1])
if redis.call('PTTL', KEYS[1]) < ms then
  redis.call('SET', KEYS[1], '1', 'PX', ms)
end
return 0`)

// Hold lets Take refuse the budget key for d from now in every process (after a 429 whose
// retry_after is d); a longer hold already in place stays. d under a millisecond does nothing.
// A Redis failure wraps ErrUnavailable.
func (p *PaceBudgets) Hold(ctx context.Context, key string, d time.Duration) error {
	ms := d.Milliseconds()
	if ms <= 0 {
		return nil
	}
	if err := holdScript.Run(ctx, p.s.rdb, []string{p.s.k.paceHold(key)}, ms).Err(); err != nil && err != redis.Nil {
		return wrap("pace hold", err)
	}
	return nil
}

// pace is the key of an outgoing budget, P pc:{KEY} (a GCRA time, TTL until full):
// redis_rate puts rateKeyPrefix before it, and prefixedRediser takes that off again.
func (k keys) pace(key string) string { return k.p + "pc:{" + key + "}" }

// paceHold is the key of a hold on an outgoing budget, P pc:{KEY}:hold, TTL = the hold's.
func (k keys) paceHold(key string) string { return k.pace(key) + ":hold" }
