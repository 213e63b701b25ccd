package storage_test

import (
	"testing"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/game/gametest"
	"github.com/reversibot/reversi/storage"
	"github.com/reversibot/reversi/storage/storagetest"
)

// The Redis store keeps the contract the hosting service relies on, as the in-memory one does.
func TestStoreContract(t *testing.T) {
	gametest.TestStore(t, func(t *testing.T) game.Store { return storagetest.New(t) })
}

func TestSearchesContract(t *testing.T) {
	gametest.TestSearches(t, func(t *testing.T, c *gametest.Clock) game.Store {
		return storagetest.New(t, storage.Options{Now: c.Now})
	})
}

func TestPlayerStoreContract(t *testing.T) {
	gametest.TestPlayerStore(t, func(t *testing.T) game.PlayerStore { return storagetest.New(t) })
}
