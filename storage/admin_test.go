package storage_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/storage"
)

// adminStores returns two stores on one Redis (REDIS_URL, else an embedded one) whose
// prefixes are siblings, the first with pattern characters in it: "…:a*[x]?:" and "…:ab:"
// (a pattern that took those characters as such would miss the first one's keys).
// Whatever is left under either prefix is deleted when the test ends.
func adminStores(t *testing.T) (a, b *storage.Store, pa, pb string) {
	t.Helper()
	ctx := context.Background()
	var r [6]byte
	_, _ = rand.Read(r[:])
	base := "admintest:" + hex.EncodeToString(r[:]) + ":"
	pa, pb = base+`a*[x]?:`, base+"ab:"
	a, err := storage.Open(ctx, os.Getenv("REDIS_URL"), storage.Options{Prefix: pa})
	if err != nil {
		t.Fatal(err)
	}
	b = storage.New(a.Client(), storage.Options{Prefix: pb})
	t.Cleanup(func() {
		_, _ = a.DeleteAll(ctx)
		_, _ = b.DeleteAll(ctx)
		a.Close()
	})
	return a, b, pa, pb
}

// keysUnder lists the keys that start with prefix.
func keysUnder(t *testing.T, c redis.UniversalClient, prefix string) []string {
	t.Helper()
	all, err := c.Keys(context.Background(), "*").Result()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, k := range all {
		if strings.HasPrefix(k, prefix) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// fill writes n raw keys and a game with its chat binding through s.
func fill(t *testing.T, s *storage.Store, prefix string, n int) {
	t.Helper()
	ctx := context.Background()
	p := s.Client().Pipeline()
	for i := range n {
		p.Set(ctx, fmt.Sprintf("%sraw:%d", prefix, i), "x", time.Hour)
	}
	if _, err := p.Exec(ctx); err != nil {
		t.Fatal(err)
	}
	g := sampleGame(1)
	if _, err := s.StartGame(ctx, g, game.Hosting{Chats: []int64{g.Players[0].ChatID}}); err != nil {
		t.Fatal(err)
	}
}

// TestDeleteAll checks that DeleteAll removes every key under its prefix, in several
// batches, and no other key, even a sibling prefix its pattern characters would match.
func TestDeleteAll(t *testing.T) {
	ctx := context.Background()
	a, b, pa, pb := adminStores(t)
	fill(t, a, pa, 1200) // more than two batches
	fill(t, b, pb, 10)
	before := len(keysUnder(t, a.Client(), pa))
	if before < 1202 {
		t.Fatalf("%d keys under %q before, want at least 1202", before, pa)
	}
	n, err := a.DeleteAll(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(before) {
		t.Errorf("DeleteAll = %d, want %d", n, before)
	}
	if left := keysUnder(t, a.Client(), pa); len(left) != 0 {
		t.Errorf("%d keys left under %q, such as %q", len(left), pa, left[0])
	}
	if left := keysUnder(t, b.Client(), pb); len(left) < 12 {
		t.Errorf("DeleteAll of %q took keys of %q: %d left, want 12", pa, pb, len(left))
	}
	if n, err := a.DeleteAll(ctx); n != 0 || err != nil {
		t.Errorf("DeleteAll again = %d, %v", n, err)
	}
}

// TestDeleteAllWithoutPrefix checks that a store without a prefix refuses and deletes nothing.
func TestDeleteAllWithoutPrefix(t *testing.T) {
	ctx := context.Background()
	a, _, pa, _ := adminStores(t)
	fill(t, a, pa, 3)
	bare := storage.New(a.Client(), storage.Options{})
	if n, err := bare.DeleteAll(ctx); !errors.Is(err, storage.ErrNoPrefix) || n != 0 {
		t.Fatalf("DeleteAll without a prefix = %d, %v; want ErrNoPrefix", n, err)
	}
	if left := keysUnder(t, a.Client(), pa); len(left) != 5 {
		t.Errorf("%d keys left, want 5", len(left))
	}
}

// TestServerCPU checks the CPU figure of a real Redis (it grows with work) and that an
// embedded one reports none.
func TestServerCPU(t *testing.T) {
	ctx := context.Background()
	a, _, pa, _ := adminStores(t)
	if a.Embedded() {
		if _, err := a.ServerCPU(ctx); !errors.Is(err, errors.ErrUnsupported) {
			t.Fatalf("ServerCPU of an embedded Redis = %v, want ErrUnsupported", err)
		}
		return
	}
	c0, err := a.ServerCPU(ctx)
	if err != nil || c0 <= 0 {
		t.Fatalf("ServerCPU = %v, %v", c0, err)
	}
	fill(t, a, pa, 20000)
	c1, err := a.ServerCPU(ctx)
	if err != nil || c1 <= c0 {
		t.Fatalf("ServerCPU after 20000 writes = %v (before %v), %v", c1, c0, err)
	}
}

// TestAdminOnCluster runs DeleteAll and ServerCPU on a one-node Redis Cluster of its own,
// with keys in many slots (a multi-key UNLINK would be refused with CROSSSLOT).
func TestAdminOnCluster(t *testing.T) {
	ctx := context.Background()
	addr := startCluster(t, "--appendonly", "no")
	admin := redis.NewClient(&redis.Options{Addr: addr})
	defer admin.Close()
	s, err := storage.Open(ctx, "redis+cluster://"+addr, storage.Options{Prefix: "adm:"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := range 700 {
		if err := s.Client().Set(ctx, fmt.Sprintf("adm:k%d", i), "x", 0).Err(); err != nil {
			t.Fatal(err)
		}
	}
	if err := admin.Set(ctx, "other", "x", 0).Err(); err != nil {
		t.Fatal(err)
	}
	n, err := s.DeleteAll(ctx)
	if err != nil || n != 700 {
		t.Fatalf("DeleteAll = %d, %v; want 700", n, err)
	}
	if keys, _ := admin.Keys(ctx, "*").Result(); !slices.Equal(keys, []string{"other"}) {
		t.Errorf("keys left: %q, want only other", keys)
	}
	if d, err := s.ServerCPU(ctx); err != nil || d <= 0 {
		t.Errorf("ServerCPU on a cluster = %v, %v", d, err)
	}
}
