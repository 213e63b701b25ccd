package game

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// The lookups below return a game as the store keeps it, without replaying its moves and
// without setting aside a record that cannot be read: the Telegram layer uses them to find
// which game a message or chat shows, and to draw boards. They fail as the Games' lookups do:
// ErrNotFound when there is no such game, a *CorruptError when its record cannot be read
// (Game, Current or CurrentInline then set it aside).

// Lookup returns the game with the given ID as stored.
func (s *Service) Lookup(ctx context.Context, id string) (*Game, error) {
	return s.st.Game(ctx, id)
}

// LookupChat returns the game bound to a chat as stored.
func (s *Service) LookupChat(ctx context.Context, chatID int64) (*Game, error) {
	return s.st.GameByChat(ctx, chatID)
}

// LookupInline returns the game bound to an inline message as stored.
func (s *Service) LookupInline(ctx context.Context, inlineID string) (*Game, error) {
	return s.st.GameByInline(ctx, inlineID)
}

// GameAndStyles returns the game with the given ID as stored (see Lookup) together with the
// board style each of users has chosen (styles[i] is that of users[i]; StyleButtons for user
// 0), in one step of the store when it is a GameStyles. When the game cannot be read, g is
// nil and err says why; when only a style cannot be read, g comes back with err, and that
// style is StyleButtons.
func (s *Service) GameAndStyles(ctx context.Context, id string, users ...int64) (g *Game, styles []Style, err error) {
	if gs, ok := s.st.(GameStyles); ok {
		return gs.GameAndStyles(ctx, id, users...)
	}
	styles = make([]Style, len(users))
	if g, err = s.st.Game(ctx, id); err != nil {
		return nil, styles, err
	}
	for i, u := range users {
		if u == 0 {
			continue
		}
		p, perr := s.players.Profile(ctx, u)
		if perr != nil {
			err = errors.Join(err, perr)
			continue
		}
		styles[i] = p.Style
	}
	return g, styles, err
}

// ErrNoInvitations is returned by ClaimInvitation when the Service has no Invitations.
var ErrNoInvitations = fmt.Errorf("%w: no store of invitations", ErrUnavailable)

// ClaimInvitation binds the inline invitation that creator made with nonce to the inline
// message inlineID for ttl: true when it was free or is bound to that message already, false
// when another message claimed it first (see Invitations).
func (s *Service) ClaimInvitation(ctx context.Context, creator, nonce int64, inlineID string, ttl time.Duration) (bool, error) {
	if s.invites == nil {
		return false, ErrNoInvitations
	}
	return s.invites.ClaimInvitation(ctx, creator, nonce, inlineID, ttl)
}
