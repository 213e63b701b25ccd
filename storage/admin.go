package storage

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Operations for tools (load tests, maintenance), not for the bot's own work.

// ErrNoPrefix is returned by DeleteAll for a store without a Prefix: it would delete the
// whole database.
var ErrNoPrefix = errors.New("storage: the store has no key prefix")

// deleteBatch is how many keys DeleteAll asks for per SCAN step and removes per round trip.
const deleteBatch = 500

// DeleteAll removes every key under the store's Prefix, and only those, and returns how many
// it removed. It walks the keys with SCAN (on every master of a Cluster) and removes them
// with UNLINK in batches, so it never blocks the server for long; keys written while it runs
// may survive. It refuses a store without a Prefix with ErrNoPrefix. A connection failure
// wraps ErrUnavailable.
func (s *Store) DeleteAll(ctx context.Context) (int64, error) {
	var total int64
	err := s.scanPrefix(ctx, func(ctx context.Context, c *redis.Client, cluster bool, batch []string) error {
		var n int64
		if cluster { // a Cluster node refuses a multi-key command across slots
			p := c.Pipeline()
			cmds := make([]*redis.IntCmd, len(batch))
			for i, k := range batch {
				cmds[i] = p.Unlink(ctx, k)
			}
			if _, err := p.Exec(ctx); err != nil {
				return err
			}
			for _, cmd := range cmds {
				n += cmd.Val()
			}
		} else {
			var err error
			if n, err = c.Unlink(ctx, batch...).Result(); err != nil {
				return err
			}
		}
		total += n
		return nil
	})
	if errors.Is(err, ErrNoPrefix) {
		return 0, err
	}
	return total, wrap("delete all", err)
}

// scanPrefix calls each with the keys under the store's Prefix, in batches of at most
// deleteBatch, walking them with SCAN on the server (on every master of a Cluster, with
// cluster set); the calls never overlap. It refuses a store without a Prefix with ErrNoPrefix.
func (s *Store) scanPrefix(ctx context.Context, each func(ctx context.Context, c *redis.Client, cluster bool, batch []string) error) error {
	if s.opt.Prefix == "" {
		return ErrNoPrefix
	}
	pattern := globEscape(s.opt.Prefix) + "*"
	var mu sync.Mutex // ForEachMaster runs the nodes at once
	walk := func(ctx context.Context, c *redis.Client, cluster bool) error {
		batch := make([]string, 0, deleteBatch)
		flush := func() error {
			if len(batch) == 0 {
				return nil
			}
			mu.Lock()
			defer mu.Unlock()
			err := each(ctx, c, cluster, batch)
			batch = batch[:0]
			return err
		}
		iter := c.Scan(ctx, 0, pattern, deleteBatch).Iterator()
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
	switch c := s.rdb.(type) {
	case *redis.ClusterClient:
		return c.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
			return walk(ctx, node, true)
		})
	case *redis.Client:
		return walk(ctx, c, false)
	}
	return fmt.Errorf("client type %T not supported", s.rdb)
}

// globEscape escapes the characters that SCAN MATCH would read as a pattern.
func globEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '*', '?', '[', ']', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// ServerCPU returns the CPU time the Redis server has used since it started, system and user
// (INFO cpu: used_cpu_sys + used_cpu_user), summed over the masters of a Cluster. Two
// readings around a run give the server's share of the machine. An embedded Redis reports
// none: the error then wraps errors.ErrUnsupported. A connection failure wraps ErrUnavailable.
func (s *Store) ServerCPU(ctx context.Context) (time.Duration, error) {
	if s.mini != nil {
		return 0, fmt.Errorf("storage: server cpu: embedded redis: %w", errors.ErrUnsupported)
	}
	read := func(ctx context.Context, c redis.Cmdable) (time.Duration, error) {
		info, err := c.Info(ctx, "cpu").Result()
		if err != nil {
			return 0, wrap("server cpu", err)
		}
		d, ok := parseCPU(info)
		if !ok {
			return 0, fmt.Errorf("storage: server cpu: INFO cpu without used_cpu_sys/used_cpu_user: %w", errors.ErrUnsupported)
		}
		return d, nil
	}
	c, ok := s.rdb.(*redis.ClusterClient)
	if !ok {
		return read(ctx, s.rdb)
	}
	var total time.Duration
	var mu sync.Mutex
	err := c.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
		d, err := read(ctx, node)
		mu.Lock()
		total += d
		mu.Unlock()
		return err
	})
	return total, err
}

// parseCPU adds used_cpu_sys and used_cpu_user of an INFO cpu answer; ok is false when
// either is missing or malformed.
func parseCPU(info string) (d time.Duration, ok bool) {
	var sum float64
	found := 0
	sc := bufio.NewScanner(strings.NewReader(info))
	for sc.Scan() {
		k, v, cut := strings.Cut(strings.TrimSpace(sc.Text()), ":")
		if !cut || (k != "used_cpu_sys" && k != "used_cpu_user") {
			continue
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || !(f >= 0 && f <= 1e9) { // also refuses NaN
			return 0, false
		}
		sum += f
		found++
	}
	if found != 2 {
		return 0, false
	}
	return time.Duration(sum * float64(time.Second)), true
}
