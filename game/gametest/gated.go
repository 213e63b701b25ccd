package gametest

import (
	"context"
	"sync"
	"testing"

	"github.com/reversibot/reversi/engine"
)

// GatedMover is a FirstMover that counts the searches it is asked for, by kind and position,
// announces each on Started as it starts, and holds them all until Open is called (a search
// whose context ends first fails with the context's error). Make one with NewGatedMover.
type GatedMover struct {
	FirstMover
	// Started receives the key of every search as it starts: "move " or "hint " followed by
	// the position's text (engine.Position.String), as Count takes it. It buffers 256 keys;
	// a search that finds it full waits for room.
	Started chan string

	gate chan struct{}
	once sync.Once

	mu       sync.Mutex
	searches map[string]int
}

// NewGatedMover returns a GatedMover whose gate is shut.
func NewGatedMover() *GatedMover {
	return &GatedMover{Started: make(chan string, 256), gate: make(chan struct{}), searches: map[string]int{}}
}

// Open lets every search held, and every later one, answer. It is idempotent.
func (m *GatedMover) Open() { m.once.Do(func() { close(m.gate) }) }

// Count returns the number of searches of key (see Started) asked for so far.
func (m *GatedMover) Count(key string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.searches[key]
}

// Next returns the key of the next search to start, failing the test when none starts within
// 20 s.
func (m *GatedMover) Next(t testing.TB) string {
	t.Helper()
	return Receive(t, m.Started, "no search started")
}

func (m *GatedMover) hold(ctx context.Context, key string) error {
	m.mu.Lock()
	m.searches[key]++
	m.mu.Unlock()
	m.Started <- key
	select {
	case <-m.gate:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Move counts and announces the search, holds it until Open, then plays FirstMover's move.
func (m *GatedMover) Move(ctx context.Context, pos engine.Position, level int) (engine.Square, error) {
	if err := m.hold(ctx, "move "+pos.String()); err != nil {
		return engine.Pass, err
	}
	return m.FirstMover.Move(ctx, pos, level)
}

// Hint counts and announces the search, holds it until Open, then gives FirstMover's hint.
func (m *GatedMover) Hint(ctx context.Context, pos engine.Position) (engine.Square, error) {
	if err := m.hold(ctx, "hint "+pos.String()); err != nil {
		return engine.Pass, err
	}
	return m.FirstMover.Hint(ctx, pos)
}
