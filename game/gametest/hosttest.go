// Package gametest holds what tests of the hosting service need, shared by the tests of every
// package that drives games: the stores of package game in memory (Memory, which is a
// game.Store and most other concerns; Reminders, OfferExpiries, AIStreams, Drawings), the
// contract test of each store concern (TestGames, TestMatchmaking, TestPlayers, …; see
// contract.go) that every store implementation runs, a settable clock, deterministic AIs
// (FirstMover, GatedMover, HeldMover) and the leak check.
package gametest

import (
	"context"
	"sync"
	"time"

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

// Clock is a settable clock for tests, safe for concurrent use; pass its Now wherever a
// clock is injected (store, service, bot).
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock returns a Clock that reads t until it is moved.
func NewClock(t time.Time) *Clock { return &Clock{t: t} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Add moves the clock forward by d.
func (c *Clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}
