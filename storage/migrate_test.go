package storage_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/reversibot/reversi/game/gametest"
	"github.com/reversibot/reversi/storage"
	"github.com/reversibot/reversi/storage/storagetest"
)

// The Redis store moves a group's game and records to its supergroup's id as the in-memory
// one does.
func TestMigrationContract(t *testing.T) {
	gametest.TestMigration(t, func(t *testing.T) gametest.MigratingStore { return storagetest.New(t) })
}

// The moves keep to Cluster slots: the game's script to {g}, the leaderboard's to {p}, and
// each chat record's command to its own key, so a one-node Cluster (which refuses a command
// whose keys fall in different slots) runs the whole contract.
func TestMigrationCluster(t *testing.T) {
	addr := startCluster(t)
	n := 0
	gametest.TestMigration(t, func(t *testing.T) gametest.MigratingStore {
		n++
		s, err := storage.Open(context.Background(), "redis+cluster://"+addr, storage.Options{Prefix: fmt.Sprintf("m%d:", n)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	})
}
