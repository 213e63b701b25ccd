package storage

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// KeyMemory is what one key of the store costs the Redis server.
type KeyMemory struct {
	Key   string
	Bytes int64         // MEMORY USAGE: the value, the key and Redis's bookkeeping for them
	TTL   time.Duration // time left to live; negative for a key that never expires
}

// MemoryUsage returns every key under the store's Prefix with the memory it uses and its TTL,
// for measurements and diagnostics: it walks the keys with SCAN (on every master of a Cluster),
// so it never blocks the server for long but takes a while on a large database; keys written
// or expiring while it runs may be missed or counted. It refuses a store without a Prefix with
// ErrNoPrefix. An embedded Redis reports approximate sizes.
func (s *Store) MemoryUsage(ctx context.Context) ([]KeyMemory, error) {
	if s.opt.Prefix == "" {
		return nil, ErrNoPrefix
	}
	var (
		mu  sync.Mutex
		out []KeyMemory
	)
	measure := func(ctx context.Context, c *redis.Client) error {
		iter := c.Scan(ctx, 0, globEscape(s.opt.Prefix)+"*", deleteBatch).Iterator()
		var batch []string
		flush := func() error {
			if len(batch) == 0 {
				return nil
			}
			p := c.Pipeline()
			usage := make([]*redis.IntCmd, len(batch))
			ttl := make([]*redis.DurationCmd, len(batch))
			for i, k := range batch {
				usage[i] = p.MemoryUsage(ctx, k)
				ttl[i] = p.PTTL(ctx, k)
			}
			_, _ = p.Exec(ctx)
			mu.Lock()
			defer mu.Unlock()
			for i, k := range batch {
				n, err := usage[i].Result()
				if err == redis.Nil {
					continue // gone since SCAN named it
				}
				if err != nil {
					return err
				}
				out = append(out, KeyMemory{Key: k, Bytes: n, TTL: ttl[i].Val()})
			}
			batch = batch[:0]
			return nil
		}
		for iter.Next(ctx) {
			if batch = append(batch, iter.Val()); len(batch) == deleteBatch {
				if err := flush(); err != nil {
					return err
				}
			}
		}
		if err := iter.Err(); err != nil {
			return err
		}
		return flush()
	}
	var err error
	switch c := s.rdb.(type) {
	case *redis.ClusterClient:
		err = c.ForEachMaster(ctx, measure)
	case *redis.Client:
		err = measure(ctx, c)
	default:
		err = fmt.Errorf("client type %T not supported", s.rdb)
	}
	if err != nil {
		return nil, wrap("memory usage", err)
	}
	return out, nil
}
