package gametest

import (
	"context"

	"github.com/reversibot/reversi/game"
)

// SwapTurnNotice records the user's newest turn notice and returns the one before, as
// game.TurnNotices documents.
func (m *Memory) SwapTurnNotice(_ context.Context, userID int64, n game.TurnNotice) (game.TurnNotice, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	prev := m.notices[userID]
	m.notices[userID] = n
	return prev, nil
}

// NewestTurnNotice returns the user's newest turn notice, as game.TurnNotices documents.
func (m *Memory) NewestTurnNotice(_ context.Context, userID int64) (game.TurnNotice, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.notices[userID], nil
}

// DropTurnNotice forgets n if it is the user's newest turn notice, as game.TurnNotices
// documents.
func (m *Memory) DropTurnNotice(_ context.Context, userID int64, n game.TurnNotice) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if cur, ok := m.notices[userID]; !ok || cur != n {
		return false, nil
	}
	delete(m.notices, userID)
	return true, nil
}
