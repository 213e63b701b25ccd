package bot

import (
	"context"

	"github.com/reversibot/reversi/bot/optional"
	"github.com/reversibot/reversi/bot/present"
	"github.com/reversibot/reversi/game"
)

// styles keeps what is known of people (game.Players) and reads it for the steps that can do
// without it: a board's style, a user's language.
type styles struct {
	players *game.Players
	// optional runs the store calls a step can do without (styles, languages, dedupe, the
	// shared budget, pacing): bounded, skipped for a while after one fails, logged once.
	optional *optional.Guard
}

// styleOf is how the board message ref of g is drawn when g's board fits a keyboard: in a
// player's own private chat, that player's current /style choice; in an inline message always
// buttons (an inline message cannot take an uploaded photo); in any other chat (a group) the
// style of the person playing the AI in an AI game, else the game's Style, which a game between
// people takes from the preference of whoever opened it. A style the store cannot give in time
// is the game's Style.
func (s styles) styleOf(ctx context.Context, g *game.Game, ref game.MessageRef) game.Style {
	user, fixed := styleUser(g, ref)
	if fixed {
		return game.StyleButtons
	}
	if user == 0 {
		return g.Style
	}
	p, ok := s.profile(ctx, user)
	if !ok {
		return g.Style
	}
	return p.Style
}

// profile reads what is known of user for a step that can do without it (a language, a board
// style): false when the store fails or does not answer in time (see styles.optional).
func (s styles) profile(ctx context.Context, user int64) (*game.Profile, bool) {
	var p *game.Profile
	ok := s.optional.Do(ctx, "profile", func(ctx context.Context) (err error) {
		p, err = s.players.Profile(ctx, user)
		return err
	})
	return p, ok
}

// styleUser is whose /style choice the board message ref of g follows (see styleOf): fixed
// when the board is always buttons (an inline message, a board too large for a keyboard),
// else the user, 0 when the board follows g.Style.
func styleUser(g *game.Game, ref game.MessageRef) (user int64, fixed bool) {
	if ref.InlineID != "" || !present.FitsKeyboard(g.Size) {
		return 0, true
	}
	for _, p := range g.Players {
		if p.UserID == 0 {
			continue
		}
		if ref.ChatID == p.UserID || (p.ChatID != 0 && ref.ChatID == p.ChatID) || g.AILevel > 0 {
			return p.UserID, false
		}
	}
	return 0, false
}
