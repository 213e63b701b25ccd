package ai

import (
	"context"
	"math/rand/v2"
	"sync"

	"github.com/reversibot/reversi/engine"
)

// Player is the AI as a game host uses it: the move of a level (Choose) and a hint for a
// person (Hint). Every search draws its own random stream from the Player's source, seeded
// (NewPlayer) or not (the zero Player), so a seed makes a run of games reproducible as long
// as no search is cut short by time. A Player is safe for concurrent use, and any number of
// its searches may run at once.
type Player struct {
	// OnSearch, when not nil, is called at the start of every Move and Hint, on the goroutine
	// that then searches, before the search begins; a host can lower the priority of the
	// searching thread there. Set it before the Player is first used.
	OnSearch func()
	// NoBook makes every move a search, the opening book's included (see Options.NoBook). Set
	// it before the Player is first used.
	NoBook bool

	mu  sync.Mutex
	rng *rand.Rand // nil: each search's stream is drawn from the runtime's random source
}

// NewPlayer returns a Player whose searches draw their random streams, one after another,
// from a source seeded by seed.
func NewPlayer(seed uint64) *Player {
	return &Player{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// stream returns the random stream of one search.
func (a *Player) stream() *rand.Rand {
	if a.rng == nil {
		return rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return rand.New(rand.NewPCG(a.rng.Uint64(), a.rng.Uint64()))
}

// Move returns the move of the given level (1…6, see Level) for the side to move of pos:
// Choose's answer, engine.Pass when the side to move must pass. It fails as Choose does:
// ErrLevel, ErrPosition, ErrGameOver, or the error of a context done before it starts.
func (a *Player) Move(ctx context.Context, pos engine.Position, level int) (engine.Square, error) {
	if a.OnSearch != nil {
		a.OnSearch()
	}
	r, err := ChooseWith(ctx, pos, Level(level), a.stream(), Options{NoBook: a.NoBook})
	return r.Move, err
}

// Hint returns a good move for the side to move of pos, for a person asking for advice:
// the package's Hint, engine.Pass when the side to move must pass. A hint uses no randomness
// and draws no stream, so hints asked between moves leave a seeded Player's moves as they are.
func (a *Player) Hint(ctx context.Context, pos engine.Position) (engine.Square, error) {
	if a.OnSearch != nil {
		a.OnSearch()
	}
	return Hint(ctx, pos)
}
