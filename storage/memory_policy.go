package storage

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/redis/go-redis/v9"
)

// The policy under which nothing the bot keeps is ever evicted. Games in play, lobbies, result
// marks and group leaderboards carry TTLs, so every volatile-* policy may evict them; allkeys-*
// may evict anything, profiles and ratings included. noeviction evicts nothing: a full server
// refuses writes instead, which keeps every game and rating and is safe because every key a
// user can make grow is bounded (see the storage README's memory budget).
const safePolicy = "noeviction"

// MemoryPolicy is how one Redis server limits its memory.
type MemoryPolicy struct {
	// Server is the server's address on a Cluster (one policy per master); empty otherwise.
	Server string
	// MaxMemory is maxmemory in bytes; 0 means no limit.
	MaxMemory int64
	// Policy is maxmemory-policy: noeviction, allkeys-lru, volatile-ttl, ...
	Policy string
}

// Risks returns what the policy puts at risk of the bot's data, one sentence each for an
// operator's log; none for noeviction under a set maxmemory, the policy the README documents.
func (p MemoryPolicy) Risks() []string {
	var out []string
	if p.MaxMemory == 0 {
		out = append(out, "maxmemory 0: Redis has no memory limit, so it grows until the machine runs out "+
			"and the OS may kill it; set maxmemory with maxmemory-policy "+safePolicy)
	}
	switch {
	case p.Policy == safePolicy:
	case strings.HasPrefix(p.Policy, "allkeys-"):
		out = append(out, "policy "+p.Policy+" can evict games in play and ratings: any key may go "+
			"when memory is full; use "+safePolicy)
	case strings.HasPrefix(p.Policy, "volatile-"):
		out = append(out, "policy "+p.Policy+" can evict games in play, lobbies and result marks "+
			"(they carry TTLs; a lost result mark lets a result count twice); use "+safePolicy)
	default:
		out = append(out, fmt.Sprintf("policy %q is unknown to the bot and may evict games in play; use %s", p.Policy, safePolicy))
	}
	return out
}

// MemoryPolicies reads maxmemory and maxmemory-policy of the Redis server, or of every master of
// a Cluster: by CONFIG GET, or from INFO memory where CONFIG is refused (managed services often
// rename or forbid it). An embedded Redis has no policy to read: the result is empty. A server
// that answers neither wraps the error (ErrUnavailable for a connection failure).
func (s *Store) MemoryPolicies(ctx context.Context) ([]MemoryPolicy, error) {
	if s.mini != nil {
		return nil, nil
	}
	c, ok := s.rdb.(*redis.ClusterClient)
	if !ok {
		p, err := readMemoryPolicy(ctx, s.rdb)
		if err != nil {
			return nil, err
		}
		return []MemoryPolicy{p}, nil
	}
	var (
		mu  sync.Mutex
		out []MemoryPolicy
	)
	err := c.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
		p, err := readMemoryPolicy(ctx, node)
		p.Server = node.Options().Addr
		mu.Lock()
		defer mu.Unlock()
		out = append(out, p)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// MemoryRisks returns the Risks of every policy MemoryPolicies reads, each prefixed with its
// server on a Cluster: what the bot should warn its operator of at start-up.
func (s *Store) MemoryRisks(ctx context.Context) ([]string, error) {
	ps, err := s.MemoryPolicies(ctx)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range ps {
		for _, r := range p.Risks() {
			if p.Server != "" {
				r = p.Server + ": " + r
			}
			out = append(out, r)
		}
	}
	return out, nil
}

// readMemoryPolicy reads one server's policy: CONFIG GET, else INFO memory.
func readMemoryPolicy(ctx context.Context, c redis.Cmdable) (MemoryPolicy, error) {
	cfg, err := c.ConfigGet(ctx, "maxmemory*").Result()
	var rerr redis.Error
	switch {
	case err == nil && cfg["maxmemory"] != "" && cfg["maxmemory-policy"] != "":
		n, perr := strconv.ParseInt(cfg["maxmemory"], 10, 64)
		if perr == nil && n >= 0 {
			return MemoryPolicy{MaxMemory: n, Policy: cfg["maxmemory-policy"]}, nil
		}
	case err != nil && !errors.As(err, &rerr):
		return MemoryPolicy{}, wrap("memory policy", err) // no answer at all
	}
	// CONFIG refused (unknown command, NOPERM) or answered oddly: INFO has the same fields.
	info, err := c.Info(ctx, "memory").Result()
	if err != nil {
		return MemoryPolicy{}, wrap("memory policy", err)
	}
	p, ok := parseMemoryInfo(info)
	if !ok {
		return MemoryPolicy{}, fmt.Errorf("storage: memory policy: neither CONFIG GET nor INFO memory gives maxmemory and maxmemory_policy: %w", errors.ErrUnsupported)
	}
	return p, nil
}

// parseMemoryInfo reads maxmemory and maxmemory_policy from an INFO memory answer; ok is false
// when either is missing or malformed.
func parseMemoryInfo(info string) (p MemoryPolicy, ok bool) {
	var haveMax bool
	sc := bufio.NewScanner(strings.NewReader(info))
	for sc.Scan() {
		k, v, cut := strings.Cut(strings.TrimSpace(sc.Text()), ":")
		if !cut {
			continue
		}
		switch k {
		case "maxmemory":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 0 {
				return MemoryPolicy{}, false
			}
			p.MaxMemory, haveMax = n, true
		case "maxmemory_policy":
			p.Policy = v
		}
	}
	return p, haveMax && p.Policy != ""
}
