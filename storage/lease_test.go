package storage_test

import (
	"testing"
	"time"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/game/gametest"
	"github.com/reversibot/reversi/storage/storagetest"
)

// Leases keep their contract on the Redis of REDIS_URL (else the embedded one), whose clock
// runs on its own, and on the embedded Redis moved on by FastForward, where they expire.
func TestLeasesContract(t *testing.T) {
	gametest.TestLeases(t, func(t *testing.T) (game.Leases, func(time.Duration)) { return storagetest.New(t), nil })
}

func TestLeasesExpireContract(t *testing.T) {
	gametest.TestLeases(t, func(t *testing.T) (game.Leases, func(time.Duration)) {
		s, mini := storagetest.NewEmbedded(t)
		return s, mini.FastForward
	})
}
