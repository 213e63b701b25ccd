package game

import (
	"context"
	"errors"
	"fmt"
	"time"
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
	if _, err := s.queue.LeaveQueue(ctx, l.Creator.UserID); err != nil {
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
		if _, err := s.queue.LeaveQueue(ctx, user.UserID); err != nil {
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

// Rematch asks for a new game after a finished one, with the same players, size, level and
// flow, hosted in the same chats (the same inline message for inline games): in a game between
// people the colours swap; against the AI the user keeps the colour choice of the first game.
// Only a player may ask (ErrNotYourGame), only once the game is over (ErrNotOver; ErrGameOver
// for a cancelled lobby).
//
// Against the AI the rematch starts at once (the bot always accepts). Between people it is an
// offer: the finished game records it (Game.Rematch is RematchOffered, by userID) and comes
// back with Snapshot.Offered set: redraw its boards, which show the offer to both. The other
// player accepts it (AcceptRematch) or declines it (DeclineRematch, with which the offerer
// withdraws it), within RematchFor. Asking again while one's own offer stands changes nothing;
// asking while the other player's offer stands accepts it.
//
// Each finished game gets one rematch: when it was made already, Rematch returns that game
// with Snapshot.Existing set (ErrGameOver once that one is over too).
func (s *Service) Rematch(ctx context.Context, gameID string, userID int64) (*Snapshot, error) {
	return retry(func() (*Snapshot, error) {
		st, err := s.rematchable(ctx, gameID, userID)
		if err != nil {
			return nil, err
		}
		old := st.g
		if old.AILevel > 0 {
			return s.startRematch(ctx, old, userID)
		}
		switch {
		case old.Rematch == RematchAccepted:
			return s.startRematch(ctx, old, userID)
		case old.Rematch == RematchOffered && s.RematchLeft(old) > 0:
			if old.RematchBy != userID {
				return s.accept(ctx, st, userID)
			}
			r := s.result(st, nil)
			r.Offered = true
			return r, nil
		}
		old.Rematch, old.RematchBy, old.RematchAt = RematchOffered, userID, s.now()
		if err := s.update(ctx, old); err != nil {
			return nil, err
		}
		r := s.result(st, nil)
		r.Offered = true
		return r, nil
	})
}

// AcceptRematch accepts the rematch offer of the finished game between people gameID and
// starts the rematch, as Rematch does against the AI (the Snapshot is the new game's; the
// finished game's boards must be redrawn too: its offer is RematchAccepted now). Only the
// player who did not offer may accept (ErrOwnOffer for the one who did, ErrNotYourGame for
// anyone else); ErrNoOffer when no offer stands, and ErrOfferExpired when it was not accepted
// within RematchFor: that expiry is then recorded on the finished game. When the chats are
// not free (ErrAlreadyPlaying, ErrOpponentBusy) the offer stands as it was.
func (s *Service) AcceptRematch(ctx context.Context, gameID string, userID int64) (*Snapshot, error) {
	return retry(func() (*Snapshot, error) {
		st, err := s.rematchable(ctx, gameID, userID)
		if err != nil {
			return nil, err
		}
		old := st.g
		switch {
		case old.AILevel > 0:
			return s.startRematch(ctx, old, userID)
		case old.Rematch == RematchAccepted:
			return s.startRematch(ctx, old, userID)
		case old.Rematch != RematchOffered:
			return nil, ErrNoOffer
		case old.RematchBy == userID:
			return nil, ErrOwnOffer
		}
		return s.accept(ctx, st, userID)
	})
}

// accept starts the rematch of the offer standing in st for userID, the player who did not
// make it, or records that it expired. The start is one atomic step of the store (StartGame,
// once per finished game); the finished game is marked RematchAccepted after it. A withdrawal
// that races the accept and loses is overwritten by that mark: the rematch was made while the
// offer stood. A process that stops between the two leaves the offer standing, and accepting
// again finds the rematch made.
func (s *Service) accept(ctx context.Context, st *state, userID int64) (*Snapshot, error) {
	old := st.g
	if s.RematchLeft(old) <= 0 {
		old.Rematch = RematchExpired
		if err := s.update(ctx, old); err != nil {
			return nil, err
		}
		return nil, ErrOfferExpired
	}
	r, err := s.startRematch(ctx, old, userID)
	if err != nil {
		return nil, err
	}
	g := old
	for range 3 {
		g.Rematch = RematchAccepted
		err := s.update(ctx, g)
		if err == nil || !errors.Is(err, ErrConflict) {
			break
		}
		if g, err = s.st.Game(ctx, old.ID); err != nil {
			break
		}
	}
	return r, nil
}

// DeclineRematch answers no to the rematch offer of the finished game gameID: the other player
// declines it (RematchDeclined), the player who offered withdraws it (RematchWithdrawn). The
// finished game comes back: redraw its boards. ErrNoOffer when no offer stands (one accepted
// is no longer for declining); ErrOfferExpired, recorded as for AcceptRematch, when it has
// expired; ErrNotYourGame for anyone but the players.
func (s *Service) DeclineRematch(ctx context.Context, gameID string, userID int64) (*Snapshot, error) {
	return retry(func() (*Snapshot, error) {
		st, err := s.rematchable(ctx, gameID, userID)
		if err != nil {
			return nil, err
		}
		old := st.g
		if old.Rematch != RematchOffered {
			return nil, ErrNoOffer
		}
		switch {
		case s.RematchLeft(old) <= 0:
			old.Rematch = RematchExpired
		case old.RematchBy == userID:
			old.Rematch = RematchWithdrawn
		default:
			old.Rematch = RematchDeclined
		}
		if err := s.update(ctx, old); err != nil {
			return nil, err
		}
		if old.Rematch == RematchExpired {
			return nil, ErrOfferExpired
		}
		return s.result(st, nil), nil
	})
}

// RematchLeft returns how long the rematch offer of g still stands: zero or less once it has
// expired (and when there is none).
func (s *Service) RematchLeft(g *Game) time.Duration {
	if g.Rematch != RematchOffered {
		return 0
	}
	return g.RematchAt.Add(s.offerFor).Sub(s.now())
}

// RematchFor returns how long an offer of a rematch stands.
func (s *Service) RematchFor() time.Duration { return s.offerFor }

// rematchable loads the finished game gameID and checks that userID may ask for its rematch.
func (s *Service) rematchable(ctx context.Context, gameID string, userID int64) (*state, error) {
	st, err := s.load(ctx, gameID)
	if err != nil {
		return nil, err
	}
	old := st.g
	switch {
	case Side(old, userID) < 0:
		return nil, ErrNotYourGame
	case old.Status != StatusFinished:
		return nil, ErrNotOver
	case old.Reason == EndAbandoned && !old.Aborted():
		return nil, ErrGameOver
	}
	return st, nil
}

// startRematch starts the rematch of the finished game old for userID, one of its players
// (see Rematch). It is one atomic step of the store (StartGame), which also makes the rematch
// once: a rematch made already comes back with Snapshot.Existing.
func (s *Service) startRematch(ctx context.Context, old *Game, userID int64) (*Snapshot, error) {
	side := Side(old, userID)
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

// RematchDeadline returns when the rematch offer standing on g expires (RematchAt plus
// RematchFor); the zero time when none stands.
func (s *Service) RematchDeadline(g *Game) time.Time {
	if g == nil || g.Rematch != RematchOffered {
		return time.Time{}
	}
	return g.RematchAt.Add(s.offerFor)
}

// ExpireRematch records that the rematch offer of the finished game gameID expired, once its
// time is up, so that its boards can say so without anyone tapping: it returns the finished
// game, RematchExpired now (redraw its boards), exactly to the one caller whose step recorded
// the expiry (a compare-and-set of the game), and nil to every other. When the offer still
// stands it changes nothing and returns how long it has left (ask again then). When no offer
// stands (accepted, declined, withdrawn, expired already, or never made) it returns nil and
// zero: nothing to redraw. ErrNoGame when the game is gone.
func (s *Service) ExpireRematch(ctx context.Context, gameID string) (*Snapshot, time.Duration, error) {
	var left time.Duration
	r, err := retry(func() (*Snapshot, error) {
		left = 0
		st, err := s.load(ctx, gameID)
		if err != nil {
			return nil, err
		}
		g := st.g
		if g.Status != StatusFinished || g.Rematch != RematchOffered {
			return nil, nil
		}
		if left = s.RematchLeft(g); left > 0 {
			return nil, nil
		}
		left = 0
		g.Rematch = RematchExpired
		if err := s.update(ctx, g); err != nil {
			return nil, err
		}
		return s.result(st, nil), nil
	})
	if errors.Is(err, ErrConflict) {
		// Two conflicts in a row: somebody else is changing the game now (a tap, another
		// process expiring it). Whoever recorded a change redraws; ask again shortly.
		return nil, time.Second, nil
	}
	return r, left, err
}
