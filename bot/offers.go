package bot

import (
	"context"
	"errors"
	"time"

	"github.com/reversibot/reversi/game"
)

// Rematch offers that expire by themselves. An offer between people stands for
// game.Service.RematchFor; when nobody answers it, its boards (both players' boards in a
// private-chat game, the one shared message in a group or inline game) say by themselves,
// within Options.RemindPoll of the deadline, that it expired, with a Rematch button again.
// Each offer is scheduled in the shared store (Offers) when it is made; the loop of the
// reminders (remind.go) in every bot process claims the offers due (each goes to one process
// only) and has the Service record the expiry (game.Service.ExpireRematch, a compare-and-set:
// of a tap and the loop racing, only the one that recorded it redraws). An offer answered
// before its time (accepted, declined, withdrawn) has nothing to expire: its entry is claimed
// and dropped. So a restart loses no expiry, and several processes redraw a board once. (A
// process that dies between claiming an offer and recording its expiry, a few milliseconds,
// loses that one: its boards keep the offer until a tap finds it expired.)

// Offers keeps the rematch offers due to expire, shared by every bot process (package
// storage's Store implements it, in Redis).
type Offers interface {
	// ScheduleOfferExpiry makes the offer of the finished game id due to expire at due,
	// replacing the due time of an earlier offer of the game.
	ScheduleOfferExpiry(ctx context.Context, id string, due time.Time) error
	// ClaimOfferExpiries removes and returns at most n games whose offer is due to expire at
	// now, with the time each was due; each is returned to one caller only.
	ClaimOfferExpiries(ctx context.Context, now time.Time, n int) (ids []string, due []time.Time, err error)
}

// offerBatch is how many offers one claim takes; they are expired side by side.
const offerBatch = 32

// scheduleOfferExpiry schedules the expiry of the rematch offer standing on the finished
// game g (nothing when none stands, or the Bot keeps no offers). A failure is logged: the
// offer is then found expired when somebody taps it.
func (b *Bot) scheduleOfferExpiry(ctx context.Context, g *game.Game) {
	due := b.svc.RematchDeadline(g)
	if b.offers == nil || due.IsZero() {
		return
	}
	if err := b.offers.ScheduleOfferExpiry(ctx, g.ID, due); err != nil {
		b.log.Warn("rematch offer: schedule its expiry", "game", g.ID, "err", b.scrub(err))
	}
}

// ExpireOffersNow expires every rematch offer whose time is up by the Bot's clock
// (Options.Now), redrawing the boards of each to say so, and returns how many it expired.
// The loop of the reminders calls it every Options.RemindPoll; tests and tools call it to
// expire the offers due at once. An offer claimed a little before its deadline (the clocks of
// two processes differ) is scheduled again; one answered since it was made is dropped. It
// does nothing when the Bot keeps no offers (Options.Offers).
func (b *Bot) ExpireOffersNow(ctx context.Context) (int, error) {
	if b.offers == nil {
		return 0, nil
	}
	return drainDue(ctx, offerBatch, func(ctx context.Context, n int) ([]string, []time.Time, error) {
		return b.offers.ClaimOfferExpiries(ctx, b.now(), n)
	}, b.expireOffer)
}

// expireOffer expires the offer of the finished game id, claimed as due (when does not
// matter: the Service checks the deadline), and reports whether this call did (and so
// redrew its boards).
func (b *Bot) expireOffer(ctx context.Context, id string, _ time.Time) bool {
	ctx, cancel := context.WithTimeout(ctx, remindTimeout)
	defer cancel()
	res, left, err := b.svc.ExpireRematch(ctx, id)
	switch {
	case err != nil:
		if !errors.Is(err, game.ErrNoGame) {
			b.log.Warn("rematch offer: expire", "game", id, "err", b.scrub(err))
		}
		return false
	case left > 0:
		if err := b.offers.ScheduleOfferExpiry(ctx, id, b.now().Add(left)); err != nil {
			b.log.Warn("rematch offer: schedule its expiry again", "game", id, "err", b.scrub(err))
		}
		return false
	case res == nil:
		return false
	}
	b.log.Debug("rematch offer expired", "game", id)
	b.refresh(res.Game)
	return true
}
