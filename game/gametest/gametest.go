// Package gametest holds what tests of the hosting service need, shared by the tests of every
// package that drives games: the stores of package game in memory (Memory, which is a
// game.Store and most other concerns; Reminders, OfferExpiries, AIStreams, Drawings), the
// contract test of each store concern (TestGames, TestMatchmaking, TestPlayers, …; see
// contract.go) that every store implementation runs, the one virtual clock of the tests
// (Clock), deterministic AIs (FirstMover, GatedMover, HeldMover) and the leak check.
package gametest

import (
	"context"

	"github.com/reversibot/reversi/engine"
)

// FirstMover is a deterministic, instant AI for tests: it plays the lowest legal square, and its
// hint is the highest one. It must only be asked for positions with a legal move.
type FirstMover struct{}

// Move returns the lowest legal square of pos.
func (FirstMover) Move(_ context.Context, pos engine.Position, _ int) (engine.Square, error) {
	return pos.Moves().First(), nil
}

// Hint returns the highest legal square of pos.
func (FirstMover) Hint(_ context.Context, pos engine.Position) (engine.Square, error) {
	ms := pos.LegalMoves()
	return ms[len(ms)-1], nil
}
