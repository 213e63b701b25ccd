package storage

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// KeyMemory is what one key of the store costs the Redis server.
type KeyMemory struct {
	Key   string
	Bytes int64         // MEMORY USAGE … SAMPLES 0: the value, the key and Redis's bookkeeping for them
	TTL   time.Duration // time left to live; negative for a key that never expires
}

// MemoryUsage returns every key under the store's Prefix with the memory it uses and its TTL,
// for measurements and diagnostics: it walks the keys with SCAN (on every master of a Cluster),
// so it never blocks the server for long but takes a while on a large database; keys written
// or expiring while it runs may be missed or counted. It refuses a store without a Prefix with
// ErrNoPrefix. A collection's size counts every element (SAMPLES 0), where the server can; an
// embedded Redis reports approximate sizes.
func (s *Store) MemoryUsage(ctx context.Context) ([]KeyMemory, error) {
	var out []KeyMemory
	samples := []int{0}
	err := s.scanPrefix(ctx, func(ctx context.Context, c *redis.Client, _ bool, batch []string) error {
		p := c.Pipeline()
		usage := make([]*redis.IntCmd, len(batch))
		ttl := make([]*redis.DurationCmd, len(batch))
		for i, k := range batch {
			usage[i] = p.MemoryUsage(ctx, k, samples...)
			ttl[i] = p.PTTL(ctx, k)
		}
		_, _ = p.Exec(ctx)
		for i, k := range batch {
			n, err := usage[i].Result()
			if err == redis.Nil {
				continue // gone since SCAN named it
			}
			if err != nil && len(samples) > 0 && strings.Contains(err.Error(), "syntax") {
				// A server without SAMPLES (the embedded one): ask it for its estimate.
				if n, err = c.MemoryUsage(ctx, k).Result(); err == redis.Nil {
					continue
				}
			}
			if err != nil {
				return err
			}
			out = append(out, KeyMemory{Key: k, Bytes: n, TTL: ttl[i].Val()})
		}
		return nil
	})
	if errors.Is(err, ErrNoPrefix) {
		return nil, err
	}
	if err != nil {
		return nil, wrap("memory usage", err)
	}
	return out, nil
}
