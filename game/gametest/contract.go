package gametest

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/reversibot/reversi/game"
)

// The contract tests, one per concern of package game's stores: TestGames, TestMatchmaking,
// TestPlayers, TestInvitations, TestReviews, TestReminders, TestOfferExpiries, TestAIStreams,
// TestLeases, TestMigration and DrawingsContract. Package gametest runs each on its in-memory
// stores, package storage on Redis. Each subtest gets a store of its own; a contract does not
// move clocks unless it takes one: expiry is otherwise the stores' own tests' business.

var bg = context.Background()

func lobbyGame(user int64) *game.Game {
	return &game.Game{Size: 8, Flow: game.FlowInvite, Status: game.StatusLobby, CreatorColor: -1,
		Players: [2]game.Player{{UserID: user, Name: "P", ChatID: user}}}
}

func playingGame(chat int64) *game.Game {
	return &game.Game{Size: 8, Flow: game.FlowGroup, Status: game.StatusPlaying, ChatID: chat,
		Players: [2]game.Player{{UserID: 1, Name: "A"}, {UserID: 2, Name: "B"}}, Moves: []byte{0x23}}
}

func mustStart(t *testing.T, s game.Games, g *game.Game, h game.Hosting) {
	t.Helper()
	if existing, err := s.StartGame(bg, g, h); err != nil || existing != nil {
		t.Fatalf("StartGame = %v, %v", existing, err)
	}
}

// race runs op(0) … op(n-1) in n goroutines at once, waits for all of them, and returns their
// errors by index: the start of every racing test of the contract.
func race(n int, op func(i int) error) []error {
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = op(i)
		}()
	}
	wg.Wait()
	return errs
}

func wantCode(t *testing.T, what string, err error, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("%s: error %v, want %v", what, err, want)
	}
}
