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
// Each offer is scheduled in the shared store (Offers) when it is made; the loop of
// OfferExpiries in every bot process claims the offers due (each goes to one process
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

// OfferExpiries expires the rematch offers nobody answered (see above): a rematch offer
// schedules its expiry when it is made (schedule), and the loop, from Start to Stop, expires
// those due every Options.RemindPoll (Now). Its zero value is not usable: New builds it.
type OfferExpiries struct {
	*core
	store   Offers           // the offers due to expire; nil: none
	refresh func(*game.Game) // redraws a game's boards and tells Options.OnGameChange
	loop    *loop
}

// newOfferExpiries returns the expiries of store, looked for every poll in base.
func newOfferExpiries(c *core, store Offers, poll time.Duration, base context.Context, refresh func(*game.Game)) *OfferExpiries {
	if poll <= 0 {
		poll = DefaultRemindPoll
	}
	o := &OfferExpiries{core: c, store: store, refresh: refresh}
	o.loop = newLoop(base, poll, func(ctx context.Context) {
		if _, err := o.Now(ctx); err != nil && ctx.Err() == nil {
			o.log.Warn("rematch offers", "err", o.scrub(err))
		}
	})
	return o
}

// Start starts the loop that expires the offers due (nothing without a store of offers).
func (o *OfferExpiries) Start() {
	if o.store != nil {
		o.loop.start()
	}
}

// Stop stops the loop (see Part.Stop).
func (o *OfferExpiries) Stop(ctx context.Context) error { return o.loop.halt(ctx) }

// schedule schedules the expiry of the rematch offer standing on the finished game g
// (nothing when none stands, or the Bot keeps no offers). A failure is logged: the offer is
// then found expired when somebody taps it.
func (o *OfferExpiries) schedule(ctx context.Context, g *game.Game) {
	due := o.svc.RematchDeadline(g)
	if o.store == nil || due.IsZero() {
		return
	}
	if err := o.store.ScheduleOfferExpiry(ctx, g.ID, due); err != nil {
		o.log.Warn("rematch offer: schedule its expiry", "game", g.ID, "err", o.scrub(err))
	}
}

// Now expires every rematch offer whose time is up by the Bot's clock (Options.Now),
// redrawing the boards of each to say so, and returns how many it expired. The loop calls it
// every Options.RemindPoll; tests and tools call it to expire the offers due at once. An
// offer claimed a little before its deadline (the clocks of two processes differ) is
// scheduled again; one answered since it was made is dropped. It does nothing when the Bot
// keeps no offers (Options.Offers).
func (o *OfferExpiries) Now(ctx context.Context) (int, error) {
	if o.store == nil {
		return 0, nil
	}
	return drainDue(ctx, offerBatch, func(ctx context.Context, n int) ([]string, []time.Time, error) {
		return o.store.ClaimOfferExpiries(ctx, o.now(), n)
	}, o.expire)
}

// expire expires the offer of the finished game id, claimed as due (when does not
// matter: the Service checks the deadline), and reports whether this call did (and so
// redrew its boards).
func (o *OfferExpiries) expire(ctx context.Context, id string, _ time.Time) bool {
	ctx, cancel := context.WithTimeout(ctx, remindTimeout)
	defer cancel()
	res, left, err := o.svc.ExpireRematch(ctx, id)
	switch {
	case err != nil:
		if !errors.Is(err, game.ErrNoGame) {
			o.log.Warn("rematch offer: expire", "game", id, "err", o.scrub(err))
		}
		return false
	case left > 0:
		if err := o.store.ScheduleOfferExpiry(ctx, id, o.now().Add(left)); err != nil {
			o.log.Warn("rematch offer: schedule its expiry again", "game", id, "err", o.scrub(err))
		}
		return false
	case res == nil:
		return false
	}
	o.log.Debug("rematch offer expired", "game", id)
	o.refresh(res.Game)
	return true
}
