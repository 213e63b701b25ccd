package gametest_test

import (
	"testing"

	"github.com/reversibot/reversi/game/gametest"
)

func TestMemoryMigration(t *testing.T) {
	gametest.TestMigration(t, func(*testing.T) gametest.MigratingStore { return gametest.NewMemory(gametest.MemoryOptions{}) })
}
