package host

import (
	"context"
	"errors"
	"hash/fnv"

	"github.com/reversibot/reversi/storage"
)

// Lobby describes a game between people that waits for its second player.
type Lobby struct {
	// Flow is storage.FlowGroup (a lobby posted in a group), storage.FlowInvite (a link the
	// creator forwards; each player then sees the board in their own private chat) or
	// storage.FlowInline (a post made through inline mode).
	Flow    storage.Flow
	Creator storage.Player // for FlowInvite, Creator.ChatID is the creator's private chat
	// ChatID is the group of a FlowGroup lobby; InlineID the inline message of a FlowInline one.
	ChatID   int64
	InlineID string
	Size     int
	Color    Choice // the creator's colour; ChooseRandom draws it when the second player joins
	Lang     string // language of the hosting chat
	// Style is how the game's 8×8 boards are drawn in chats that are no player's own private
	// chat (Game.Style): the bot passes the creator's preference. Rematches keep it.
	Style storage.BoardStyle
}

// OpenLobby opens a game between people waiting for its second player. A group lobby is bound
// to the group, which must not have a game in play or another lobby (ErrAlreadyPlaying); an
// inline one to its inline message; an invite is reached by its ID only (a deep link). The
// creator leaves the matchmaking queue. Post the lobby, then AddBoard its message.
func (s *Service) OpenLobby(ctx context.Context, l Lobby) (*Result, error) {
	if !s.ValidSize(l.Size) {
		return nil, ErrBadSize
	}
	if l.Creator.UserID == 0 {
		return nil, ErrBadRequest
	}
	g := &storage.Game{Size: l.Size, Flow: l.Flow, Status: storage.StatusLobby,
		CreatorColor: int8(l.Color), Lang: l.Lang, Style: l.Style}
	if l.Color != ChooseBlack && l.Color != ChooseWhite {
		g.CreatorColor = int8(ChooseRandom)
	}
	g.Players[0] = l.Creator
	switch l.Flow {
	case storage.FlowGroup:
		if l.ChatID == 0 {
			return nil, ErrBadRequest
		}
		if err := s.ensureFree(ctx, l.ChatID); err != nil {
			return nil, err
		}
		g.ChatID = l.ChatID
	case storage.FlowInvite:
		if l.Creator.ChatID == 0 {
			return nil, ErrBadRequest
		}
	case storage.FlowInline:
		if l.InlineID == "" {
			return nil, ErrBadRequest
		}
		via := storage.BoardRef{InlineID: l.InlineID}
		if cur, err := s.st.GameByInline(ctx, l.InlineID); err == nil {
			// The message already hosts a game: the first tap on it opened the lobby.
			st, err := s.replayStored(ctx, cur, via)
			if err != nil {
				return nil, err
			}
			r := s.result(st, nil)
			r.Existing = true
			return r, nil
		} else if !errors.Is(err, storage.ErrNotFound) {
			return nil, s.readable(ctx, err, via)
		}
		g.InlineID = l.InlineID
	default:
		return nil, ErrBadRequest
	}
	if _, err := s.st.LeaveQueue(ctx, l.Creator.UserID); err != nil {
		return nil, err
	}
	if err := s.st.CreateGame(ctx, g); err != nil {
		return nil, err
	}
	if g.Flow != storage.FlowInvite {
		if err := s.bind(ctx, g); err != nil {
			return nil, err
		}
	}
	st, err := replay(g)
	if err != nil {
		return nil, err
	}
	return s.result(st, nil), nil
}

// Join makes user the second player of a lobby and starts the game. Colours are drawn at
// random unless the creator chose one. It fails with ErrOwnLobby for the creator,
// ErrLobbyTaken once the game has its second player, ErrGameOver for a cancelled lobby, and
// ErrAlreadyPlaying when the joiner's private chat (needed for invites: user.ChatID) has a
// game in play. For invites both private chats are bound to the game: send each player a board
// and AddBoard it. The lobby's chat messages leave Game.Boards (see Result.Lobby), so a move
// made before the new boards are posted never turns an invitation into a second board.
func (s *Service) Join(ctx context.Context, gameID string, user storage.Player) (*Result, error) {
	if user.UserID == 0 {
		return nil, ErrBadRequest
	}
	freeChecked := false
	return retry(func() (*Result, error) {
		st, err := s.load(ctx, gameID)
		if err != nil {
			return nil, err
		}
		g := st.g
		switch {
		case g.Status == storage.StatusFinished:
			return nil, ErrGameOver
		case g.Players[0].UserID == user.UserID && g.Status == storage.StatusLobby:
			return nil, ErrOwnLobby
		case g.Status != storage.StatusLobby:
			return nil, ErrLobbyTaken
		}
		if g.Flow == storage.FlowInvite && !freeChecked {
			if user.ChatID == 0 {
				return nil, ErrBadRequest
			}
			if err := s.ensureFree(ctx, user.ChatID); err != nil {
				return nil, err
			}
			freeChecked = true
		}
		creator := g.Players[0]
		side := int(g.CreatorColor)
		if side != 0 && side != 1 {
			side = s.coin()
		}
		g.Players[side], g.Players[1-side] = creator, user
		g.Status = storage.StatusPlaying
		g.LastMoveAt = s.now()
		var lobbyMsgs, kept []storage.BoardRef
		for _, b := range g.Boards {
			if b.InlineID != "" {
				kept = append(kept, b)
			} else {
				lobbyMsgs = append(lobbyMsgs, b)
			}
		}
		g.Boards = kept
		if err := s.update(ctx, g); err != nil {
			return nil, err
		}
		if _, err := s.st.LeaveQueue(ctx, user.UserID); err != nil {
			return nil, err
		}
		if err := s.bind(ctx, g); err != nil {
			return nil, err
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
// for a cancelled lobby), and only when the chats are free (ErrAlreadyPlaying). Each finished
// game gets one rematch: when it was already made (the other player pressed first), Rematch
// returns that game with Result.Existing set, or ErrConflict while it is being made (a tap
// again finds it). The new game has no boards except an inline message: post them and
// AddBoard.
func (s *Service) Rematch(ctx context.Context, gameID string, userID int64) (*Result, error) {
	return retry(func() (*Result, error) {
		st, err := s.load(ctx, gameID)
		if err != nil {
			return nil, err
		}
		old := st.g
		side := Side(old, userID)
		if side < 0 {
			return nil, ErrNotYourGame
		}
		if old.Status != storage.StatusFinished || old.Reason == storage.EndAbandoned {
			if old.Status != storage.StatusFinished {
				return nil, ErrNotOver
			}
			return nil, ErrGameOver
		}
		if r, err := s.existingRematch(ctx, old); r != nil || err != nil {
			return r, err
		}
		for _, c := range chatsOf(old) {
			if err := s.ensureFree(ctx, c); err != nil {
				// The other player's rematch may have been bound just now.
				if r, err2 := s.existingRematch(ctx, old); r != nil && err2 == nil {
					return r, nil
				}
				return nil, err
			}
		}
		// Exactly one Rematch per game gets the mark; a racing one finds the new game on its
		// second try, or reports a conflict (a tap again then finds it).
		first, err := s.st.FirstSeen(ctx, onceKey("rematch", old.ID))
		if err != nil {
			return nil, err
		}
		if !first {
			return nil, ErrConflict
		}
		g := &storage.Game{Size: old.Size, Flow: old.Flow, Status: storage.StatusPlaying,
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
			g.Boards = []storage.BoardRef{{InlineID: g.InlineID}}
		}
		return s.create(ctx, g)
	})
}

// existingRematch finds a game in play between the same players bound where old was hosted.
func (s *Service) existingRematch(ctx context.Context, old *storage.Game) (*Result, error) {
	var (
		cur *storage.Game
		err error
		via storage.BoardRef
	)
	switch chats := chatsOf(old); {
	case old.InlineID != "":
		via.InlineID = old.InlineID
		cur, err = s.st.GameByInline(ctx, old.InlineID)
	case len(chats) > 0:
		via.ChatID = chats[0]
		cur, err = s.st.GameByChat(ctx, chats[0])
	default:
		return nil, nil
	}
	if err != nil {
		err = s.readable(ctx, err, via) // an unreadable game there is set aside: no rematch
	}
	if errors.Is(err, storage.ErrNotFound) || errors.Is(err, ErrSetAside) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if cur.ID == old.ID || cur.Status != storage.StatusPlaying || !samePlayers(cur, old) ||
		cur.Created.Before(old.Created) {
		return nil, nil
	}
	st, err := s.replayStored(ctx, cur, via)
	if errors.Is(err, ErrSetAside) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	r := s.result(st, nil)
	r.Existing = true
	return r, nil
}

func samePlayers(a, b *storage.Game) bool {
	x, y := a.Players[0].UserID, a.Players[1].UserID
	u, v := b.Players[0].UserID, b.Players[1].UserID
	return a.AILevel == b.AILevel && a.Size == b.Size && (x == u && y == v || x == v && y == u)
}

// onceKey turns an action on a game into a key for Store.FirstSeen: negative, so it never
// meets a Telegram update_id.
func onceKey(action, gameID string) int64 {
	h := fnv.New64a()
	h.Write([]byte(action))
	h.Write([]byte{0})
	h.Write([]byte(gameID))
	return -int64(h.Sum64()>>2) - 1
}
