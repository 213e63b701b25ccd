package game

import (
	"context"
	"errors"
	"fmt"
)

// A group chat that becomes a supergroup gets a new chat id, and the old id serves no more.
// What the bot keeps under the group's id moves to the new one: the lobby or game in play
// (with its style and language, which the game record carries), the group's leaderboard, its
// language and the game it finished last. Telegram tells the bot twice (a service message in
// each chat, in either order, possibly to different processes), and a call on the old id
// tells it again, so every step of a move is idempotent: a second move finds nothing left
// under the old id and changes nothing.

// GameMover is a Games that moves a game to the new chat of its group in one atomic step.
// Package storage's Store and gametest's Memory implement it; MigrateChat makes do with
// JoinGame and UnbindChat (two steps, each idempotent) on a Games without it.
type GameMover interface {
	// MoveGame stores g, read from the store and changed to be hosted in chat to, with
	// UpdateGame's compare-and-set on g.Version (ErrConflict when another write came
	// first, ErrNotFound for a game that is gone), binds chat to to it and unbinds chat from
	// if it still points at g, all in one step. Chat to must be free or bound to g already:
	// one bound to another lobby or game in play gives a *BusyError, one bound to a record
	// that cannot be read a *CorruptError, and nothing is written. In the same step it
	// records that chat from became chat to (MovedTo), for as long as a finished game or one
	// left idle in play is kept: a tap on a board of the old chat still reaches the game.
	MoveGame(ctx context.Context, g *Game, from, to int64) error
	// MovedTo returns the chat that chat from became, as recorded by a MoveGame that moved a
	// game from it; 0 when none did (or the record expired).
	MovedTo(ctx context.Context, from int64) (int64, error)
}

// ChatMover is a store that keeps records under a chat's id besides its games (a group's
// leaderboard and language, the game it finished last) and can move them to another id.
// Package storage's Store and gametest's Memory implement it.
type ChatMover interface {
	// MoveChat moves what the store keeps under chat from to chat to: a group's leaderboard
	// joins to's (a member of both keeps one entry), and from's language and last finished
	// game go to to unless to has its own already (a choice made in the new chat wins). Each
	// record moves in one atomic step of its own and is gone from from afterwards, so moving
	// again, or racing another move of the same chats, changes nothing more.
	MoveChat(ctx context.Context, from, to int64) error
}

// Migration is what MigrateChat did.
type Migration struct {
	// Game is the lobby or game in play that the supergroup (chat to) hosts after the move,
	// as a Snapshot with nothing played; nil when it hosts none.
	Game *Snapshot
	// Moved reports that this call moved the game to the new chat. Of any number of calls
	// for one group (in one process or many) at most one moves it: that one shows the game in
	// the new chat, since the messages in the old one can no longer be edited.
	Moved bool
}

// MigrateChat moves what a group kept under chat from to chat to, the id Telegram gave the
// group when it became a supergroup: the records of every store that is a ChatMover
// (leaderboard, language, last finished game), then its lobby or game in play (rehosted in
// to, its boards in from dropped: they cannot be edited any more). It is idempotent: calls racing
// for the same group, in either order, leave one game in to, and only one of them reports
// Moved. A finished game stays where it was. Chats that are not two different groups
// (negative ids) give ErrBadRequest; a chat to that hosts another lobby or game in play
// already gives ErrAlreadyPlaying, and the game stays in from. When only a ChatMover fails,
// the Migration comes back together with its error (calling again moves what is left).
func (s *Service) MigrateChat(ctx context.Context, from, to int64) (*Migration, error) {
	if from >= 0 || to >= 0 || from == to {
		return nil, fmt.Errorf("%w: migrate chat %d to %d", ErrBadRequest, from, to)
	}
	var errs []error
	for _, m := range s.chatMovers() {
		if err := m.MoveChat(ctx, from, to); err != nil {
			errs = append(errs, err)
		}
	}
	res, err := s.moveGame(ctx, from, to)
	if err != nil {
		return nil, err
	}
	return res, errors.Join(errs...)
}

// ChatMovedTo returns the chat that group chat from became when MigrateChat moved its game
// there (GameMover.MovedTo), so that a tap on an old board of the game, in the group's history,
// still acts on it; 0 when no game moved from chat from, or the Games is no GameMover.
func (s *Service) ChatMovedTo(ctx context.Context, from int64) (int64, error) {
	m, ok := s.st.(GameMover)
	if !ok || from >= 0 {
		return 0, nil
	}
	return m.MovedTo(ctx, from)
}

// chatMovers lists the stores of s that are ChatMovers, each once.
func (s *Service) chatMovers() []ChatMover {
	var out []ChatMover
	for _, st := range []any{s.st, s.players, s.reviewStore} {
		m, ok := st.(ChatMover)
		if !ok {
			continue
		}
		dup := false
		for _, o := range out {
			dup = dup || o == m
		}
		if !dup {
			out = append(out, m)
		}
	}
	return out
}

// moveGame moves the lobby or game in play bound to chat from into chat to (see
// MigrateChat): a compare-and-set on the game's version, read and tried again when another
// write came first.
func (s *Service) moveGame(ctx context.Context, from, to int64) (*Migration, error) {
	var err error
	for range 5 {
		var g *Game
		g, err = s.st.GameByChat(ctx, from)
		switch {
		case errors.Is(err, ErrNotFound):
			return s.hosted(ctx, to)
		case err != nil:
			err = s.readable(ctx, err, MessageRef{ChatID: from})
			if errors.Is(err, ErrSetAside) || errors.Is(err, ErrNoGame) {
				return s.hosted(ctx, to)
			}
			return nil, storeErr(err)
		case g.Status == StatusFinished:
			return s.hosted(ctx, to)
		case !hostedIn(g, from):
			// Moved by another call whose unbinding of from has not landed (a store without
			// GameMover does it in a second step): finish that step.
			if err := s.st.UnbindChat(ctx, from, g.ID); err != nil {
				return nil, err
			}
			return s.hosted(ctx, to)
		}
		c := g.Clone()
		rehost(c, from, to)
		if err = s.rebind(ctx, c, from, to); err == nil {
			snap, err := s.resultOf(ctx, c, nil)
			if err != nil {
				return nil, err
			}
			return &Migration{Game: snap, Moved: true}, nil
		}
		if !errors.Is(err, ErrConflict) {
			return nil, storeErr(err)
		}
	}
	return nil, err
}

// rebind stores c, rehosted from chat from in chat to, and moves its binding: in one step
// when the Games is a GameMover, else JoinGame binds to and UnbindChat frees from.
func (s *Service) rebind(ctx context.Context, c *Game, from, to int64) error {
	if m, ok := s.st.(GameMover); ok {
		return m.MoveGame(ctx, c, from, to)
	}
	if err := s.st.JoinGame(ctx, c, []int64{to}); err != nil {
		return err
	}
	// A failure leaves from bound to a game hosted in to, which the next move unbinds.
	_ = s.st.UnbindChat(ctx, from, c.ID)
	return nil
}

// hosted is the Migration that moved nothing: the lobby or game in play chat to hosts, if any.
func (s *Service) hosted(ctx context.Context, to int64) (*Migration, error) {
	g, err := s.st.GameByChat(ctx, to)
	if errors.Is(err, ErrNotFound) {
		return &Migration{}, nil
	}
	snap, err := s.resultOf(ctx, g, err, MessageRef{ChatID: to})
	switch {
	case errors.Is(err, ErrSetAside), errors.Is(err, ErrNoGame):
		return &Migration{}, nil
	case err != nil:
		return nil, err
	case snap.Game.Status == StatusFinished:
		return &Migration{}, nil
	}
	return &Migration{Game: snap}, nil
}

// hostedIn reports whether g still names chat as a place of its: its hosting chat, a
// player's chat or a board's.
func hostedIn(g *Game, chat int64) bool {
	found := false
	g.Places(func(c int64) { found = found || c == chat }, func(string) {})
	return found
}

// rehost makes g hosted in chat to wherever it was in chat from: its hosting chat and any
// player's chat become to, and its boards in from are dropped (a message of the old chat can
// no longer be edited; the board is posted again in the new one).
func rehost(g *Game, from, to int64) {
	if g.ChatID == from {
		g.ChatID = to
	}
	for i := range g.Players {
		if g.Players[i].ChatID == from {
			g.Players[i].ChatID = to
		}
	}
	var boards []MessageRef
	for _, b := range g.Boards {
		if b.InlineID != "" || b.ChatID != from {
			boards = append(boards, b)
		}
	}
	g.Boards = boards
}
