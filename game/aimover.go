package game

import (
	"context"
	"math/rand/v2"
	"sync"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/engine/ai"
)

// AI is the Mover backed by package ai: level n is ai.Level(n), and every search draws its own
// random stream from a seeded source, so a seed makes a run of games reproducible (when no
// search is cut short by time). It is safe for concurrent use.
type AI struct {
	mu  sync.Mutex
	rng *rand.Rand
}

// NewAI returns the AI Mover with its randomness seeded by seed.
func NewAI(seed uint64) *AI {
	return &AI{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

func (a *AI) stream() *rand.Rand {
	a.mu.Lock()
	defer a.mu.Unlock()
	return rand.New(rand.NewPCG(a.rng.Uint64(), a.rng.Uint64()))
}

// Move returns ai.Choose's move at the level.
func (a *AI) Move(ctx context.Context, pos engine.Position, level int) (engine.Square, error) {
	return ai.Choose(ctx, pos, ai.Level(level), a.stream())
}

// Hint returns ai.Hint's move.
func (a *AI) Hint(ctx context.Context, pos engine.Position) (engine.Square, error) {
	return ai.Hint(ctx, pos)
}
