package storage_test

import (
	"testing"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/game/gametest"
	"github.com/reversibot/reversi/storage/storagetest"
)

// The Redis store keeps the contract the hosting service relies on, as the in-memory one does.
func TestStoreContract(t *testing.T) {
	gametest.TestStore(t, func(t *testing.T) game.Store { return storagetest.New(t) })
}

func TestPlayerStoreContract(t *testing.T) {
	gametest.TestPlayerStore(t, func(t *testing.T) game.PlayerStore { return storagetest.New(t) })
}
