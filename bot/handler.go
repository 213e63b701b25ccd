package bot

import (
	"context"

	"github.com/go-telegram/bot/models"
)

// handler is the end of the intake's middlewares: it gives each update to the handler of its
// kind, a message to commands (the service message of a group's upgrade to onMigrate), a button
// tap to taps, an inline query or a chosen inline result to inlineMode.
type handler struct {
	cmds   *commands
	taps   *taps
	inline *inlineMode
}

// newHandler returns the handler of b's updates, its parts wired to each other and to b.
func newHandler(b *Bot) *handler {
	pl := &play{bot: b}
	im := &inlineMode{bot: b, play: pl}
	cs := &commands{bot: b, play: pl}
	ts := &taps{bot: b, play: pl, cmds: cs, inline: im}
	return &handler{cmds: cs, taps: ts, inline: im}
}

// route is the handler at the end of the intake's middlewares: it gives u to the handler of
// its kind and records the outcome (error, or ignored when nothing was for this bot).
func (h *handler) route(ctx context.Context, u *models.Update) {
	var handled bool
	var err error
	switch {
	case u.Message != nil && isMigration(u.Message): // the group became a supergroup (migrate.go)
		handled, err = true, h.onMigrate(ctx, u.Message)
	case u.Message != nil:
		handled, err = h.cmds.onMessage(ctx, u.Message)
	case u.CallbackQuery != nil:
		handled, err = true, h.taps.onCallback(ctx, u.CallbackQuery)
	case u.InlineQuery != nil:
		handled, err = true, h.inline.onInlineQuery(ctx, u.InlineQuery)
	case u.ChosenInlineResult != nil:
		handled, err = true, h.inline.onChosenInline(ctx, u.ChosenInlineResult)
	}
	switch {
	case err != nil:
		setOutcome(ctx, outcomeError, err)
	case !handled:
		setOutcome(ctx, outcomeIgnored, nil)
	}
}
