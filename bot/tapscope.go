package bot

import (
	"context"
	"errors"

	"github.com/reversibot/reversi/bot/boards"
	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/bot/i18n"
	"github.com/reversibot/reversi/game"
)

// A message is bound to a game only by the bot itself, when it posts the game there (or a
// player joins the lobby or inline post the bot posted for it). Anyone can send any callback
// data on any message with buttons, so before a tap whose data names a game does anything,
// scopeTap checks that the tapped message belongs to that game: a chat message recorded in
// the game's boards (a lobby's message is one until the lobby is joined), or the inline
// message the bot made the game for, as long as the message shows it. A tap on any other
// message changes nothing, draws nothing there and gets a short answer.
//
// One kind of message in between: a chat message of a chat where the game is played (its
// group, a player's private chat) that is not one of its boards. It is an older copy of the
// board or of the invitation (/board posted it again, a lobby was joined), a board whose
// recording never landed (sent with its buttons by a process that stopped; boards now get
// their buttons only once recorded, see postBoard), or any other message of that chat. A tap
// there acts as it would on the game's board, since it could do no more than a typed /move,
// /resign or /cancel there, but nothing is ever drawn into that message: it is not adopted as
// a board (t.stray), and a stale tap there is pointed to /board. So does a message of a group
// that became the supergroup where the game is played now (migrate.go): its old board, which
// players still see in the group's history, or a tap made as the group was upgraded.

// gameScoped reports whether the tap c acts on the game its data names (or, on an inline
// message, on the message's game).
func gameScoped(t *tap, c callback.Data) bool {
	switch c.Action {
	case callback.ActionMove, callback.ActionPage, callback.ActionResign, callback.ActionHint,
		callback.ActionUndo, callback.ActionRematch, callback.ActionJoin, callback.ActionClaim,
		callback.ActionRefresh, callback.ActionReview:
		return true
	case callback.ActionNoop:
		return c.Game != ""
	case callback.ActionCancel:
		return c.Game != "" || t.ref.InlineID != ""
	}
	return false
}

// scopeTap checks that the message t was tapped on belongs to the game c names, and sets
// t.game to that game as just read (and t.stray for a message of the game's chat that is not
// one of its boards). On an inline message a Join with an invitation (invitationJoin) and a
// Cancel without a game name the message's game: c.Game is set to it. It returns
// false when it has answered the tap and the handler must do nothing more; true with t.game nil
// only for a Join with an invitation on an inline message that has no game yet.
func (ts *taps) scopeTap(ctx context.Context, t *tap, c *callback.Data) (bool, error) {
	if t.ref.InlineID != "" {
		return ts.scopeInline(ctx, t, c)
	}
	if t.ref.ChatID == 0 {
		return false, t.answer(ctx, tr(t.user.lang, i18n.KeyErrBadRequest), true)
	}
	g, ok, err := ts.tappedGame(ctx, t, c.Game)
	if !ok {
		return false, err
	}
	switch {
	case boards.Has(g, t.ref):
		t.game = g
		return true, nil
	case inGameChat(g, t.ref.ChatID), ts.movedInto(ctx, g, t.ref.ChatID):
		t.game, t.stray = g, true
		return true, nil
	}
	return false, ts.foreignTap(ctx, t, g, *c)
}

// scopeInline is scopeTap for an inline message. A game belongs to it when the bot made the
// game for it (Game.InlineID: the lobby opened for the post, or a rematch in it), unless the
// game is over and the message shows a newer one now (its binding names the rematch). A Join
// with an invitation, and a Cancel naming no game, act on the game the message is bound to.
func (ts *taps) scopeInline(ctx context.Context, t *tap, c *callback.Data) (bool, error) {
	if ts.invitationJoin(ctx, *c) || c.Game == "" && c.Action == callback.ActionCancel {
		cur, err := ts.svc.LookupInline(ctx, t.ref.InlineID)
		if corrupt(err) {
			_, err = ts.svc.CurrentInline(ctx, t.ref.InlineID) // sets it aside, and says so
		}
		switch {
		case err == nil:
			c.Game, t.game = cur.ID, cur
			return true, nil
		case !errors.Is(err, game.ErrNotFound):
			return false, t.fail(ctx, err)
		case c.Action == callback.ActionJoin:
			return true, nil // no game yet: tapJoin opens the lobby from the signed invitation
		}
		return false, t.fail(ctx, game.ErrNoGame)
	}
	g, ok, err := ts.tappedGame(ctx, t, c.Game)
	if !ok {
		return false, err
	}
	if g.InlineID != t.ref.InlineID {
		return false, ts.foreignTap(ctx, t, g, *c)
	}
	if g.Status == game.StatusFinished {
		cur, err := ts.svc.LookupInline(ctx, t.ref.InlineID)
		if err != nil && !errors.Is(err, game.ErrNotFound) {
			return false, t.fail(ctx, err)
		}
		if err == nil && cur.ID != g.ID {
			// An older game of this message: the rematch shows there now.
			if c.Action == callback.ActionRematch {
				return false, t.answer(ctx, "", false)
			}
			return false, t.fail(ctx, game.ErrGameOver)
		}
	}
	t.game = g
	return true, nil
}

// invitationJoin reports whether c is a Join with an invitation: data the bot signed, or a
// creator tag that names no game (openInvitation refuses it aloud). One game id in 62 looks
// like a creator tag ("u" and base-36 letters): a Join naming such a game names that game.
func (ts *taps) invitationJoin(ctx context.Context, c callback.Data) bool {
	if _, tag := parseCreatorTag(c.Game); !tag || c.Action != callback.ActionJoin {
		return false
	}
	if _, signed := readInvitation(ts.inline.signer(), c); signed {
		return true
	}
	_, err := ts.svc.Lookup(ctx, c.Game)
	return errors.Is(err, game.ErrNotFound) || errors.Is(err, game.ErrInvalid)
}

// tappedGame reads the game id names; false when it has answered the tap instead (no such
// game, or the store failed).
func (ts *taps) tappedGame(ctx context.Context, t *tap, id string) (*game.Game, bool, error) {
	if id == "" {
		return nil, false, t.fail(ctx, game.ErrNoGame)
	}
	g, err := ts.svc.Lookup(ctx, id)
	if corrupt(err) {
		_, err = ts.svc.Game(ctx, id) // sets the unreadable record aside, and says so
		return nil, false, t.fail(ctx, err)
	}
	if errors.Is(err, game.ErrNotFound) || errors.Is(err, game.ErrInvalid) {
		return nil, false, t.fail(ctx, game.ErrNoGame)
	}
	if err != nil {
		return nil, false, t.fail(ctx, err)
	}
	return g, true, nil
}

// corrupt reports whether err is the store's report of a game record that does not decode.
func corrupt(err error) bool {
	var ce *game.CorruptError
	return errors.As(err, &ce)
}

// foreignTap answers a tap whose data names game g on a message that does not belong to it,
// and logs it: the data was copied from another message (or made up).
func (ts *taps) foreignTap(ctx context.Context, t *tap, g *game.Game, c callback.Data) error {
	ts.log.Info("tap on a message of another game", "user", t.user.id, "game", g.ID, "action", c.Action.String())
	if game.Side(g, t.user.id) < 0 && c.Action != callback.ActionJoin && c.Action != callback.ActionCancel {
		// Not the tapper's game either: what a spectator's tap would be told.
		return t.fail(ctx, game.ErrNotYourGame)
	}
	return t.answer(ctx, tr(t.user.lang, i18n.KeyErrForeignBoard), true)
}

// editsTapped reports whether the tap c, which names no game, replaces the content of the
// tapped message (the menus, /lang, a search's Cancel).
func editsTapped(t *tap, c callback.Data) bool {
	switch c.Action {
	case callback.ActionSize, callback.ActionLevel, callback.ActionColor, callback.ActionLang, callback.ActionMenu:
		return true
	case callback.ActionCancel:
		return c.Game == "" && t.ref.InlineID == ""
	}
	return false
}

// scopeMenu keeps a menu tap from replacing a board: in a group (where others' messages can
// be tapped too), a tap that would edit the message is refused when the message is a board
// of the game in play there. False when it has answered the tap.
func (ts *taps) scopeMenu(ctx context.Context, t *tap) (bool, error) {
	if t.private || t.ref.ChatID == 0 {
		return true, nil
	}
	g, err := ts.svc.LookupChat(ctx, t.ref.ChatID)
	if err == nil && boards.Has(g, t.ref) {
		ts.log.Info("menu tap on a board", "user", t.user.id, "game", g.ID)
		return false, t.answer(ctx, tr(t.user.lang, i18n.KeyErrForeignBoard), true)
	}
	return true, nil
}

// inGameChat reports whether chat hosts game g: its chat, or a player's private chat.
func inGameChat(g *game.Game, chat int64) bool {
	if chat == 0 {
		return false
	}
	if g.ChatID == chat {
		return true
	}
	for _, p := range g.Players {
		if p.UserID != 0 && p.ChatID == chat {
			return true
		}
	}
	return false
}
