package storagetest_test

import (
	"context"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/reversibot/reversi/storage/storagetest"
)

// TestStartCluster starts three masters with a replica each and checks that every key is
// served by the master Owner names, and that Slot agrees with the server's CLUSTER KEYSLOT.
func TestStartCluster(t *testing.T) {
	ctx := context.Background()
	c := storagetest.StartCluster(t, storagetest.ClusterOptions{Replicas: 1})
	if len(c.Nodes) != 6 {
		t.Fatalf("%d nodes, want 6", len(c.Nodes))
	}
	admin := redis.NewClient(&redis.Options{Addr: c.Nodes[0].Addr})
	defer admin.Close()
	for _, key := range []string{"", "a", "{g}g:1", "p:{p}u:7", "{}x", "{a", "x{}{y}", "rl:{12345}"} {
		want, err := admin.ClusterKeySlot(ctx, key).Result()
		if err != nil {
			t.Fatal(err)
		}
		if got := storagetest.Slot(key); got != int(want) {
			t.Errorf("Slot(%q) = %d, want %d", key, got, want)
		}
	}
	rdb := redis.NewClusterClient(&redis.ClusterOptions{Addrs: c.Addrs()})
	defer rdb.Close()
	for _, key := range []string{"{g}g:1", "{p}u:7", "rl:{5}", "db:{0}"} {
		if err := rdb.Set(ctx, key, "v", 0).Err(); err != nil {
			t.Fatalf("SET %s: %v", key, err)
		}
		m := c.Nodes[c.MasterOf(key)]
		direct := redis.NewClient(&redis.Options{Addr: m.Addr})
		if n, err := direct.Exists(ctx, key).Result(); err != nil || n != 1 {
			t.Errorf("%s on master %d (%s): %d, %v", key, c.MasterOf(key), m.Addr, n, err)
		}
		direct.Close()
	}
}
