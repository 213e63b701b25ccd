package storage_test

import (
	"context"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/reversibot/reversi/storage"
	"github.com/reversibot/reversi/storage/storagetest"
)

func TestMemoryPolicyRisks(t *testing.T) {
	const mb = 1 << 20
	for _, tt := range []struct {
		p    storage.MemoryPolicy
		want []string // one substring per risk, in order
	}{
		{storage.MemoryPolicy{MaxMemory: 256 * mb, Policy: "noeviction"}, nil},
		{storage.MemoryPolicy{MaxMemory: 0, Policy: "noeviction"}, []string{"maxmemory 0: "}},
		{storage.MemoryPolicy{MaxMemory: 256 * mb, Policy: "allkeys-lru"}, []string{"policy allkeys-lru can evict games in play and ratings"}},
		{storage.MemoryPolicy{MaxMemory: 256 * mb, Policy: "allkeys-random"}, []string{"policy allkeys-random can evict games in play and ratings"}},
		{storage.MemoryPolicy{MaxMemory: 256 * mb, Policy: "volatile-lru"}, []string{"policy volatile-lru can evict games in play"}},
		{storage.MemoryPolicy{MaxMemory: 256 * mb, Policy: "volatile-ttl"}, []string{"policy volatile-ttl can evict games in play"}},
		{storage.MemoryPolicy{MaxMemory: 0, Policy: "allkeys-lfu"}, []string{"maxmemory 0: ", "policy allkeys-lfu can evict games in play and ratings"}},
		{storage.MemoryPolicy{MaxMemory: mb, Policy: "evict-everything"}, []string{`policy "evict-everything" is unknown`}},
	} {
		got := tt.p.Risks()
		if len(got) != len(tt.want) {
			t.Errorf("%+v: Risks() = %q, want %d risks", tt.p, got, len(tt.want))
			continue
		}
		for i, w := range tt.want {
			if !strings.Contains(got[i], w) {
				t.Errorf("%+v: risk %d = %q, want it to contain %q", tt.p, i, got[i], w)
			}
		}
	}
}

// TestMemoryRisksOfServer reads the policy of a redis-server of its own as the bot does at
// start-up, by CONFIG GET and, on a server that refuses CONFIG (as managed services do), by
// INFO memory.
func TestMemoryRisksOfServer(t *testing.T) {
	ctx := context.Background()
	risks := func(s *storage.Store) []string {
		t.Helper()
		r, err := s.MemoryRisks(ctx)
		if err != nil {
			t.Fatalf("MemoryRisks: %v", err)
		}
		return r
	}
	open := func(extra ...string) (*storage.Store, *redis.Client) {
		client := redis.NewClient(&redis.Options{Addr: storagetest.StartScratchServer(t, extra...)})
		t.Cleanup(func() { client.Close() })
		return storage.New(client, storage.Options{}), client
	}

	s, client := open("--maxmemory", "8mb", "--maxmemory-policy", "allkeys-lru")
	if r := risks(s); len(r) != 1 || !strings.Contains(r[0], "policy allkeys-lru can evict games in play and ratings") {
		t.Errorf("allkeys-lru, 8mb: risks %q", r)
	}
	if err := client.ConfigSet(ctx, "maxmemory-policy", "noeviction").Err(); err != nil {
		t.Fatal(err)
	}
	if r := risks(s); len(r) != 0 {
		t.Errorf("noeviction, 8mb: risks %q, want none", r)
	}
	if err := client.ConfigSet(ctx, "maxmemory", "0").Err(); err != nil {
		t.Fatal(err)
	}
	if r := risks(s); len(r) != 1 || !strings.HasPrefix(r[0], "maxmemory 0: ") {
		t.Errorf("noeviction, no limit: risks %q", r)
	}

	s, _ = open("--maxmemory", "8mb", "--maxmemory-policy", "volatile-lru", "--rename-command", "CONFIG", "")
	if r := risks(s); len(r) != 1 || !strings.Contains(r[0], "policy volatile-lru can evict games in play") {
		t.Errorf("volatile-lru without CONFIG: risks %q", r)
	}

	emb, err := storage.Open(ctx, "", storage.Options{}) // what the bot runs on with REDIS_URL empty
	if err != nil {
		t.Fatal(err)
	}
	defer emb.Close()
	if r, err := emb.MemoryRisks(ctx); err != nil || len(r) != 0 {
		t.Errorf("embedded: MemoryRisks = %q, %v; want none", r, err)
	}
}
