package game

import (
	"context"
	"errors"
	"fmt"
)

// Lobby describes a game between people that waits for its second player.
type Lobby struct {
	// Flow is FlowGroup (a lobby posted in a group), FlowInvite (a link the
	// creator forwards; each player then sees the board in their own private chat) or
	// FlowInline (a post made through inline mode).
	Flow    Flow
	Creator Player // for FlowInvite, Creator.ChatID is the creator's private chat
	// ChatID is the group of a FlowGroup lobby; InlineID the inline message of a FlowInline one.
	ChatID   int64
	InlineID string
	Size     int
	Color    Choice // the creator's colour; ChooseRandom draws it when the second player joins
	Lang     string // language of the hosting chat
	// Style is how the game's 8×8 boards are drawn in chats that are no player's own private
	// chat (Game.Style): the bot passes the creator's preference. Rematches keep it.
	Style Style
}

// OpenLobby opens a game between people waiting for its second player. A group lobby is bound
// to the group, which must not have a game in play or another lobby (ErrAlreadyPlaying); an
// inline one to its inline message, which becomes its board (when the message hosts a game
// already, because the first tap on it opened the lobby, that game comes back with
// Snapshot.Existing); an invite is reached by its ID only (a deep link). The creator leaves the
// matchmaking queue. Post the lobby, then AddBoard its message.
//
// Opening is one atomic step of the store (StartGame), after the creator's LeaveQueue: racing
// opens in one chat or inline message leave one lobby, and a process that dies leaves none or
// a complete one. LeaveQueue comes first because it is idempotent and harmless on its own: a
// process that dies after it has only taken the creator out of the queue they were leaving.
func (s *Service) OpenLobby(ctx context.Context, l Lobby) (*Snapshot, error) {
	if !s.ValidSize(l.Size) {
		return nil, ErrBadSize
	}
	if l.Creator.UserID == 0 {
		return nil, ErrBadRequest
	}
	g := &Game{Size: l.Size, Flow: l.Flow, Status: StatusLobby,
		CreatorColor: int8(l.Color), Lang: l.Lang, Style: l.Style}
	if l.Color != ChooseBlack && l.Color != ChooseWhite {
		g.CreatorColor = int8(ChooseRandom)
	}
	g.Players[0] = l.Creator
	var h Hosting
	switch l.Flow {
	case FlowGroup:
		if l.ChatID == 0 {
			return nil, ErrBadRequest
		}
		g.ChatID, h.Chats = l.ChatID, []int64{l.ChatID}
	case FlowInvite:
		if l.Creator.ChatID == 0 {
			return nil, ErrBadRequest
		}
	case FlowInline:
		if l.InlineID == "" {
			return nil, ErrBadRequest
		}
		g.InlineID, h.InlineID = l.InlineID, l.InlineID
		g.Boards = []MessageRef{{InlineID: l.InlineID}}
	default:
		return nil, ErrBadRequest
	}
	if _, err := s.st.LeaveQueue(ctx, l.Creator.UserID); err != nil {
		return nil, err
	}
	cur, err := s.start(ctx, g, h)
	if err != nil {
		return nil, storeErr(err)
	}
	if cur != nil {
		r := s.result(cur, nil)
		r.Existing = true
		return r, nil
	}
	return s.resultOf(ctx, g, nil)
}

// Join makes user the second player of a lobby and starts the game. Colours are drawn at
// random unless the creator chose one. It fails with ErrOwnLobby for the creator,
// ErrLobbyTaken once the game has its second player, ErrGameOver for a cancelled lobby,
// ErrAlreadyPlaying when the joiner's private chat (needed for invites: user.ChatID) has a
// game in play, and ErrOpponentBusy when the creator's has. For invites both private chats are
// bound to the game: send each player a board and AddBoard it. The lobby's chat messages leave
// Game.Boards (see Snapshot.Lobby), so a move made before the new boards are posted never turns
// an invitation into a second board.
//
// The join is one atomic step of the store (JoinGame: the compare-and-set of the lobby and the
// bindings of its chats, which it checks are free), after the joiner's LeaveQueue (see
// OpenLobby for why that may come first).
func (s *Service) Join(ctx context.Context, gameID string, user Player) (*Snapshot, error) {
	if user.UserID == 0 {
		return nil, ErrBadRequest
	}
	return retry(func() (*Snapshot, error) {
		st, err := s.load(ctx, gameID)
		if err != nil {
			return nil, err
		}
		g := st.g
		switch {
		case g.Status == StatusFinished:
			return nil, ErrGameOver
		case g.Players[0].UserID == user.UserID && g.Status == StatusLobby:
			return nil, ErrOwnLobby
		case g.Status != StatusLobby:
			return nil, ErrLobbyTaken
		}
		if g.Flow == FlowInvite && user.ChatID == 0 {
			return nil, ErrBadRequest
		}
		creator := g.Players[0]
		side := int(g.CreatorColor)
		if side != 0 && side != 1 {
			side = s.coin()
		}
		g.Players[side], g.Players[1-side] = creator, user
		g.Status = StatusPlaying
		g.LastMoveAt = s.now()
		var lobbyMsgs, kept []MessageRef
		for _, b := range g.Boards {
			if b.InlineID != "" {
				kept = append(kept, b)
			} else {
				lobbyMsgs = append(lobbyMsgs, b)
			}
		}
		g.Boards = kept
		if _, err := s.st.LeaveQueue(ctx, user.UserID); err != nil {
			return nil, err
		}
		own := user.ChatID
		if g.Flow != FlowInvite {
			own = 0 // a group's or no chat: a busy one is "already playing" for all
		}
		if err := s.join(ctx, g, chatsOf(g)); err != nil {
			return nil, busyErr(err, own)
		}
		r := s.result(st, nil)
		r.Lobby = lobbyMsgs
		return r, nil
	})
}

// Rematch starts a new game after a finished one, with the same players, size, level and flow,
// hosted in the same chats (the same inline message for inline games): in a game between
// people the colours swap; against the AI the user keeps the colour choice of the first game.
// Only a player may ask (ErrNotYourGame), only once the game is over (ErrNotOver; ErrGameOver
// for a cancelled lobby), and only when the chats are free (ErrAlreadyPlaying for the asking
// player's, ErrOpponentBusy for the other's). Each finished game gets one rematch: when it was
// made already (the other player pressed first), Rematch returns that game with
// Snapshot.Existing set (ErrGameOver once that one is over too). The new game has no boards
// except an inline message: post them and AddBoard. It is one atomic step of the store
// (StartGame), which also makes the rematch once.
func (s *Service) Rematch(ctx context.Context, gameID string, userID int64) (*Snapshot, error) {
	st, err := s.load(ctx, gameID)
	if err != nil {
		return nil, err
	}
	old := st.g
	side := Side(old, userID)
	if side < 0 {
		return nil, ErrNotYourGame
	}
	if old.Status != StatusFinished {
		return nil, ErrNotOver
	}
	if old.Reason == EndAbandoned {
		return nil, ErrGameOver
	}
	g := &Game{Size: old.Size, Flow: old.Flow, Status: StatusPlaying,
		CreatorColor: old.CreatorColor, AILevel: old.AILevel, ChatID: old.ChatID,
		InlineID: old.InlineID, Lang: old.Lang, Style: old.Style}
	if old.AILevel > 0 {
		user := old.Players[side]
		side := int(old.CreatorColor)
		if side != 0 && side != 1 {
			side = s.coin()
		}
		g.Players[side] = user
	} else {
		g.Players[0], g.Players[1] = old.Players[1], old.Players[0]
	}
	if g.InlineID != "" {
		g.Boards = []MessageRef{{InlineID: g.InlineID}}
	}
	own := old.Players[side].ChatID
	if old.Flow != FlowInvite && old.Flow != FlowMatch {
		own = 0
	}
	g.LastMoveAt = s.now()
	h := Hosting{Chats: chatsOf(g), InlineID: g.InlineID, RematchOf: old.ID}
	cur, err := s.start(ctx, g, h)
	switch {
	case errors.Is(err, ErrNotFound):
		return nil, fmt.Errorf("%w: the rematch is over and gone: %w", ErrGameOver, err)
	case err != nil:
		return nil, busyErr(err, own)
	case cur == nil:
		return s.resultOf(ctx, g, nil)
	case cur.g.Status == StatusFinished:
		return nil, ErrGameOver
	}
	r := s.result(cur, nil)
	r.Existing = true
	return r, nil
}
