package bot

import (
	"context"
	"strings"

	"github.com/reversibot/reversi/bot/i18n"
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
