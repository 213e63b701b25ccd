package game

import (
	"context"
	"time"
)

// OfferExpiries keeps the rematch offers due to expire, shared by every bot process, so that
// an offer nobody answers says by itself that it expired and a restart loses none. Package
// storage implements it on Redis, gametest.OfferExpiries in memory; both pass
// gametest.TestOfferExpiries. Its methods are safe for concurrent use and atomic.
type OfferExpiries interface {
	// ScheduleOfferExpiry makes the offer of the finished game id due to expire at due,
	// replacing the due time of an earlier offer of the game (a game has one entry at most).
	// An empty id gives ErrInvalid.
	ScheduleOfferExpiry(ctx context.Context, id string, due time.Time) error
	// ClaimOfferExpiries removes and returns at most n games whose offer is due to expire at
	// now or before, the earliest first, with the time each was due; each is returned to one
	// caller only, whichever process calls. n <= 0 claims nothing (nil).
	ClaimOfferExpiries(ctx context.Context, now time.Time, n int) (ids []string, due []time.Time, err error)
}

// Reminders keeps the turn reminders due (one per game: its current turn's) and the reminder
// message last sent for each game, shared by every bot process. Package storage implements it
// on Redis, gametest.Reminders in memory; both pass gametest.TestReminders. Its methods are
// safe for concurrent use and atomic.
type Reminders interface {
	// ScheduleReminder makes game id's reminder due at due, replacing the one it had, and
	// returns and forgets the reminder message last sent for the game (zero: none), which the
	// caller deletes. An empty id gives ErrInvalid.
	ScheduleReminder(ctx context.Context, id string, due time.Time) (MessageRef, error)
	// CancelReminder drops game id's reminder, if any, and returns and forgets its last
	// message, as ScheduleReminder does.
	CancelReminder(ctx context.Context, id string) (MessageRef, error)
	// ClaimReminders removes and returns at most n games whose reminder is due at now or
	// before, the earliest first, with the time each was due; each is returned to one caller
	// only. n <= 0 claims nothing (nil).
	ClaimReminders(ctx context.Context, now time.Time, n int) (ids []string, due []time.Time, err error)
	// SwapReminder records ref as game id's last reminder message and returns the one before
	// (zero: none). An empty id or a ref without a chat or a message gives ErrInvalid.
	SwapReminder(ctx context.Context, id string, ref MessageRef) (MessageRef, error)
}
