package telegram

import (
	"context"
	"math/rand/v2"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/engine/ai"
)

// aiMover is the game.Mover over package engine/ai.
type aiMover struct{}

// Move asks the AI of the level for its move; each search gets its own random source.
func (aiMover) Move(ctx context.Context, pos engine.Position, level int) (engine.Square, error) {
	backgroundThread()
	rng := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	return ai.Choose(ctx, pos, ai.Level(level), rng)
}

// Hint asks the AI for advice.
func (aiMover) Hint(ctx context.Context, pos engine.Position) (engine.Square, error) {
	backgroundThread()
	return ai.Hint(ctx, pos)
}
