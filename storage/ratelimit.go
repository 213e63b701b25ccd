package storage

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/go-redis/redis_rate/v10"
	"github.com/redis/go-redis/v9"
)

// AllowUpdate takes one update from user's budget and reports whether the budget had room;
// when it had none, retryAfter says when it will have. The budget is a GCRA (a token bucket
// without a timer, its state one timestamp): burst updates at once, then rate per per. It is
// kept in Redis (go-redis's redis_rate, in one Lua script), so every process on the same Redis
// and prefix shares it, and its key expires once the budget is full again (at most
// burst·per/rate after the last update). A Redis failure wraps ErrUnavailable; a budget
// without a positive rate, per and burst allows everything.
func (s *Store) AllowUpdate(ctx context.Context, user int64, rate int, per time.Duration, burst int) (ok bool, retryAfter time.Duration, err error) {
	if rate <= 0 || per <= 0 || burst <= 0 {
		return true, 0, nil
	}
	res, err := redis_rate.NewLimiter(prefixedRediser{s.rdb}).Allow(ctx, s.k.rate(user),
		redis_rate.Limit{Rate: rate, Period: per, Burst: burst})
	if err != nil {
		return true, 0, wrap("rate limit", err)
	}
	if res.Allowed > 0 {
		return true, 0, nil
	}
	return false, max(res.RetryAfter, 0), nil
}

// rateKeyPrefix is what redis_rate puts before every key it is given.
const rateKeyPrefix = "rate:"

// errRateKey is a key that did not come from redis_rate as expected.
var errRateKey = errors.New("storage: rate limiter key without its prefix")

// prefixedRediser is the client that redis_rate sees: it takes redis_rate's own "rate:" off
// the front of each key, so that the key is the store's (k.rate, under Options.Prefix, with a
// hash tag) and DeleteAll and REDIS_PREFIX cover it like every other key.
type prefixedRediser struct{ rdb redis.UniversalClient }

// keys returns ks without redis_rate's prefix; ok is false when one lacks it.
func (prefixedRediser) keys(ks []string) ([]string, bool) {
	out := make([]string, len(ks))
	for i, k := range ks {
		var ok bool
		if out[i], ok = strings.CutPrefix(k, rateKeyPrefix); !ok {
			return nil, false
		}
	}
	return out, true
}

func (p prefixedRediser) Eval(ctx context.Context, script string, keys []string, args ...any) *redis.Cmd {
	ks, ok := p.keys(keys)
	if !ok {
		return failedCmd(ctx)
	}
	return p.rdb.Eval(ctx, script, ks, args...)
}

func (p prefixedRediser) EvalSha(ctx context.Context, sha1 string, keys []string, args ...any) *redis.Cmd {
	ks, ok := p.keys(keys)
	if !ok {
		return failedCmd(ctx)
	}
	return p.rdb.EvalSha(ctx, sha1, ks, args...)
}

func (p prefixedRediser) EvalRO(ctx context.Context, script string, keys []string, args ...any) *redis.Cmd {
	ks, ok := p.keys(keys)
	if !ok {
		return failedCmd(ctx)
	}
	return p.rdb.EvalRO(ctx, script, ks, args...)
}

func (p prefixedRediser) EvalShaRO(ctx context.Context, sha1 string, keys []string, args ...any) *redis.Cmd {
	ks, ok := p.keys(keys)
	if !ok {
		return failedCmd(ctx)
	}
	return p.rdb.EvalShaRO(ctx, sha1, ks, args...)
}

func (p prefixedRediser) ScriptExists(ctx context.Context, hashes ...string) *redis.BoolSliceCmd {
	return p.rdb.ScriptExists(ctx, hashes...)
}

func (p prefixedRediser) ScriptLoad(ctx context.Context, script string) *redis.StringCmd {
	return p.rdb.ScriptLoad(ctx, script)
}

func (p prefixedRediser) Del(ctx context.Context, keys ...string) *redis.IntCmd {
	ks, ok := p.keys(keys)
	if !ok {
		cmd := redis.NewIntCmd(ctx)
		cmd.SetErr(errRateKey)
		return cmd
	}
	return p.rdb.Del(ctx, ks...)
}

// failedCmd is a command that failed with errRateKey without being sent.
func failedCmd(ctx context.Context) *redis.Cmd {
	cmd := redis.NewCmd(ctx)
	cmd.SetErr(errRateKey)
	return cmd
}

// rate is the key of user's update budget, P rl:{USER}: redis_rate puts rateKeyPrefix before
// it, and prefixedRediser takes that off again.
func (k keys) rate(user int64) string { return k.p + "rl:{" + itoa(user) + "}" }
