package bot

import (
	"context"

	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/game"
)

// handler is the end of the intake's middlewares: it gives each update to the handler of its
// kind, a message to commands (the service message of a group's upgrade to onMigrate), a button
// tap to taps, an inline query or a chosen inline result to inlineMode.
type handler struct {
	cmds   *commands
	taps   *taps
	inline *inlineMode
	after  *afterWork // a migration found by a refused call runs after it
}

// handlerDeps are what the handlers use beyond their core, as New wires them.
type handlerDeps struct {
	after   *afterWork
	play    *play // pl.core and the parts it uses; the rest is filled in by newHandler
	reviews *Reviews
	offers  *OfferExpiries
	sign    callback.Signer
	links   links
	finish  func(g *game.Game, ref game.MessageRef, c content) content
}

// newHandler returns the handler of the updates, its parts wired to each other and to d.
func newHandler(d handlerDeps) *handler {
	pl := d.play
	c := pl.core
	im := &inlineMode{core: c, play: pl, sign: d.sign, links: d.links}
	cs := &commands{core: c, play: pl, reviews: d.reviews}
	ts := &taps{core: c, play: pl, cmds: cs, inline: im, reviews: d.reviews, offers: d.offers, finish: d.finish}
	return &handler{cmds: cs, taps: ts, inline: im, after: d.after}
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
