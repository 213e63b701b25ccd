package gametest

import (
	"context"
	"fmt"
	"strconv"

	"github.com/reversibot/reversi/game"
)

var (
	_ game.GameMover = (*Memory)(nil)
	_ game.ChatMover = (*Memory)(nil)
)

// MoveGame stores g with a compare-and-set on g.Version, binds chat to to it and unbinds chat
// from, in one step, as game.GameMover documents.
func (m *Memory) MoveGame(_ context.Context, g *game.Game, from, to int64) error {
	if from == 0 || to == 0 {
		return fmt.Errorf("%w: move game from chat %d to %d", game.ErrInvalid, from, to)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	c, err := m.next(g)
	if err != nil {
		return err
	}
	if id := m.boundChat(to); id != "" && id != g.ID {
		switch m.state(id) {
		case "live":
			return &game.BusyError{ChatID: to}
		case "bad":
			return &game.CorruptError{GameID: id, Err: errUnreadable}
		}
	}
	if m.boundChat(from) == g.ID {
		delete(m.chats, from)
	}
	m.chats[to] = binding{id: g.ID, expires: m.now().Add(m.ttlFor(c.Status))}
	m.movedTo[from] = binding{id: strconv.FormatInt(to, 10), expires: m.now().Add(max(m.opt.FinishedTTL, m.opt.IdleTTL))}
	m.store(c)
	g.Version, g.Updated = c.Version, c.Updated
	return nil
}

// MovedTo returns the chat that chat from became, as game.GameMover documents.
func (m *Memory) MovedTo(_ context.Context, from int64) (int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	to, _ := strconv.ParseInt(bound(m, m.movedTo, from), 10, 64)
	return to, nil
}

// MoveChat moves the leaderboard, language and last finished game of chat from to chat to,
// as game.ChatMover documents.
func (m *Memory) MoveChat(_ context.Context, from, to int64) error {
	if from == 0 || to == 0 {
		return fmt.Errorf("%w: move chat %d to %d", game.ErrInvalid, from, to)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if top := m.tops[from]; len(top) > 0 {
		for u := range top {
			m.rank(to, u)
		}
	}
	delete(m.tops, from)
	if l, ok := m.chatLang[from]; ok {
		if _, taken := m.chatLang[to]; !taken {
			m.chatLang[to] = l
		}
		delete(m.chatLang, from)
	}
	if b, ok := m.lastGame[from]; ok {
		if cur, taken := m.lastGame[to]; (!taken || !m.now().Before(cur.expires)) && m.now().Before(b.expires) {
			m.lastGame[to] = b
		}
		delete(m.lastGame, from)
	}
	return nil
}
