package bot

import (
	"context"
	"strings"

	"github.com/reversibot/reversi/bot/i18n"
	"github.com/reversibot/reversi/bot/optional"
	"github.com/reversibot/reversi/bot/present"
	"github.com/reversibot/reversi/game"
)

// parseStyle reads a style a user typed (/style image): English or Russian words.
func parseStyle(s string) (game.Style, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "image", "picture", "png", "photo", "img", "картинка", "изображение", "фото":
		return game.StyleImage, true
	case "buttons", "button", "keyboard", "keys", "кнопки", "клавиатура":
		return game.StyleButtons, true
	}
	return 0, false
}

// cmdStyle sets how the user's 8×8 boards are drawn: /style image | buttons; without a valid
// argument it shows the choice as buttons.
func (cs *commands) cmdStyle(ctx context.Context, m *msgCtx) error {
	var style game.Style
	ok := len(m.args) == 1
	if ok {
		style, ok = parseStyle(m.args[0])
	}
	if !ok {
		err := cs.sendMenu(ctx, m.chat, present.MenuStyle, m.lang, present.MenuState{Style: m.user.style})
		return err
	}
	if err := cs.setStyle(ctx, m, style); err != nil {
		return cs.replyErr(ctx, m, err)
	}
	return nil
}

// setStyle stores the user's style and, in a private chat with a game in play, posts the
// board again in the new style (see restyle); then it confirms.
func (cs *commands) setStyle(ctx context.Context, m *msgCtx, style game.Style) error {
	if err := cs.players.SetStyle(ctx, m.user.id, style); err != nil {
		return err
	}
	m.user.style = style
	if err := cs.play.restyle(ctx, m); err != nil {
		cs.log.Warn("restyle", "user", m.user.id, "err", cs.scrub(err))
	}
	return cs.replyKey(ctx, m, i18n.KeyStyleSet, present.StyleName(m.lang, style))
}

// tapStyle handles the entries of the style menu.
func (ts *taps) tapStyle(ctx context.Context, t *tap, m *msgCtx, arg int) error {
	if err := t.answer(ctx, "", false); err != nil {
		return err
	}
	if present.Menu(arg) == present.MenuStyle {
		return ts.editMenu(ctx, t.ref, present.MenuStyle, m.lang, present.MenuState{Style: m.user.style, Back: true})
	}
	style := game.StyleButtons
	if present.Menu(arg) == present.MenuStyleImage {
		style = game.StyleImage
	}
	if err := ts.players.SetStyle(ctx, m.user.id, style); err != nil {
		return err
	}
	m.user.style = style
	if err := ts.play.restyle(ctx, m); err != nil {
		ts.log.Warn("restyle", "user", m.user.id, "err", ts.scrub(err))
	}
	return ts.edit(ctx, t.ref, content{Text: tr(m.lang, i18n.KeyStyleSet, present.StyleName(m.lang, style))})
}

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
