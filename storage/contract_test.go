package storage_test

import (
	"testing"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/game/gametest"
	"github.com/reversibot/reversi/storage"
	"github.com/reversibot/reversi/storage/storagetest"
)

// The Redis store keeps the contract of each concern the hosting service relies on, as the
// in-memory stores do (REDIS_URL, else the embedded Redis).

func TestGamesContract(t *testing.T) {
	gametest.TestGames(t, func(t *testing.T) game.Games { return storagetest.New(t) })
}

func TestMatchmakingContract(t *testing.T) {
	gametest.TestMatchmaking(t, func(t *testing.T, c *gametest.Clock) game.Matchmaking {
		return storagetest.New(t, storage.Options{Now: c.Now})
	})
}

func TestPlayersContract(t *testing.T) {
	gametest.TestPlayers(t, func(t *testing.T) game.PlayerStore { return storagetest.New(t) })
}

func TestInvitationsContract(t *testing.T) {
	gametest.TestInvitations(t, func(t *testing.T) game.Invitations { return storagetest.New(t) })
}

func TestReviewsContract(t *testing.T) {
	gametest.TestReviews(t, func(t *testing.T) gametest.GamesWithReviews { return storagetest.New(t) })
}

func TestRemindersContract(t *testing.T) {
	gametest.TestReminders(t, func(t *testing.T) game.Reminders { return storagetest.New(t) })
}

func TestOfferExpiriesContract(t *testing.T) {
	gametest.TestOfferExpiries(t, func(t *testing.T) game.OfferExpiries { return storagetest.New(t) })
}

// The embedded Redis (miniredis) tracks no consumer's idle time (XINFO CONSUMERS says -1), so
// pruning idle workers is checked in full on a real Redis only.
func TestAIStreamsContract(t *testing.T) {
	gametest.TestAIStreams(t, func(t *testing.T) game.AIStreams { return storagetest.New(t) }, storagetest.Real())
}
