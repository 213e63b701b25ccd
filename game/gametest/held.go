package gametest

import (
	"context"
	"strconv"
	"testing"

	"github.com/reversibot/reversi/engine"
)

// HeldMover is a FirstMover that announces every search it is asked for on Started, "level N"
// for a move at level N and "hint" for a hint, and holds each until one value is sent on
// Release or Stop is closed (a search whose context ends first fails with the context's
// error). Make one with NewHeldMover; close Stop before the pool that runs it closes.
type HeldMover struct {
	FirstMover
	Started chan string   // buffers 64 announcements
	Release chan struct{} // each value sent lets one held search answer
	Stop    chan struct{} // closed, lets every search answer
}

// NewHeldMover returns a HeldMover that holds every search.
func NewHeldMover() *HeldMover {
	return &HeldMover{Started: make(chan string, 64), Release: make(chan struct{}), Stop: make(chan struct{})}
}

// Next returns the announcement of the next search to start, failing the test when none
// starts within 20 s.
func (m *HeldMover) Next(t testing.TB) string {
	t.Helper()
	return Receive(t, m.Started, "no search started")
}

func (m *HeldMover) hold(ctx context.Context, what string) error {
	m.Started <- what
	select {
	case <-m.Release:
		return nil
	case <-m.Stop:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Move announces "level N", waits to be let go, then plays FirstMover's move.
func (m *HeldMover) Move(ctx context.Context, pos engine.Position, level int) (engine.Square, error) {
	if err := m.hold(ctx, "level "+strconv.Itoa(level)); err != nil {
		return engine.Pass, err
	}
	return m.FirstMover.Move(ctx, pos, level)
}

// Hint announces "hint", waits to be let go, then gives FirstMover's hint.
func (m *HeldMover) Hint(ctx context.Context, pos engine.Position) (engine.Square, error) {
	if err := m.hold(ctx, "hint"); err != nil {
		return engine.Pass, err
	}
	return m.FirstMover.Hint(ctx, pos)
}
