package gametest

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/reversibot/reversi/game"
)

// Reminders is a game.Reminders in memory, with the semantics of package storage's: due times
// kept to the millisecond, claims in order of due time (then id), each claimed once, every
// method one atomic step. It keeps each game's last reminder message until a schedule, a
// cancel or a swap hands it back (the Redis store also lets it expire). It is safe for
// concurrent use; make one with NewReminders.
type Reminders struct {
	mu   sync.Mutex
	due  dueSet
	msgs map[string]game.MessageRef
}

// OfferExpiries is a game.OfferExpiries in memory, with the semantics of package storage's, as
// Reminders has. It is safe for concurrent use; make one with NewOfferExpiries.
type OfferExpiries struct {
	mu  sync.Mutex
	due dueSet
}

var (
	_ game.Reminders     = (*Reminders)(nil)
	_ game.OfferExpiries = (*OfferExpiries)(nil)
)

// NewReminders returns an empty Reminders.
func NewReminders() *Reminders {
	return &Reminders{due: dueSet{}, msgs: map[string]game.MessageRef{}}
}

// NewOfferExpiries returns an empty OfferExpiries.
func NewOfferExpiries() *OfferExpiries { return &OfferExpiries{due: dueSet{}} }

// ScheduleReminder makes game id's reminder due at due and hands back its last message, as
// game.Reminders documents.
func (r *Reminders) ScheduleReminder(_ context.Context, id string, due time.Time) (game.MessageRef, error) {
	if id == "" {
		return game.MessageRef{}, fmt.Errorf("gametest: schedule reminder without a game: %w", game.ErrInvalid)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.due.set(id, due)
	return r.take(id), nil
}

// CancelReminder drops game id's reminder and hands back its last message, as game.Reminders
// documents.
func (r *Reminders) CancelReminder(_ context.Context, id string) (game.MessageRef, error) {
	if id == "" {
		return game.MessageRef{}, fmt.Errorf("gametest: cancel reminder without a game: %w", game.ErrInvalid)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.due, id)
	return r.take(id), nil
}

// ClaimReminders removes and returns at most n reminders due at now, as game.Reminders
// documents.
func (r *Reminders) ClaimReminders(_ context.Context, now time.Time, n int) ([]string, []time.Time, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ids, due := r.due.claim(now, n)
	return ids, due, nil
}

// SwapReminder records ref as game id's last reminder message, as game.Reminders documents.
func (r *Reminders) SwapReminder(_ context.Context, id string, ref game.MessageRef) (game.MessageRef, error) {
	if id == "" || ref.ChatID == 0 || ref.MessageID == 0 {
		return game.MessageRef{}, fmt.Errorf("gametest: swap reminder %q %+v: %w", id, ref, game.ErrInvalid)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	prev := r.msgs[id]
	r.msgs[id] = ref
	return prev, nil
}

// take returns and forgets game id's last reminder message; r.mu is held.
func (r *Reminders) take(id string) game.MessageRef {
	prev := r.msgs[id]
	delete(r.msgs, id)
	return prev
}

// ScheduleOfferExpiry makes the offer of game id due to expire at due, as game.OfferExpiries
// documents.
func (o *OfferExpiries) ScheduleOfferExpiry(_ context.Context, id string, due time.Time) error {
	if id == "" {
		return fmt.Errorf("gametest: schedule offer expiry without a game: %w", game.ErrInvalid)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.due.set(id, due)
	return nil
}

// ClaimOfferExpiries removes and returns at most n offers due to expire at now, as
// game.OfferExpiries documents.
func (o *OfferExpiries) ClaimOfferExpiries(_ context.Context, now time.Time, n int) ([]string, []time.Time, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	ids, due := o.due.claim(now, n)
	return ids, due, nil
}

// dueSet holds ids by the Unix milliseconds they are due (never below 0), like a Redis sorted
// set.
type dueSet map[string]int64

func (d dueSet) set(id string, due time.Time) { d[id] = max(due.UnixMilli(), 0) }

// claim removes and returns at most n ids due at now or before, the earliest first (ties by
// id), with their due times; nil for none.
func (d dueSet) claim(now time.Time, n int) (ids []string, due []time.Time) {
	if n <= 0 {
		return nil, nil
	}
	at := now.UnixMilli()
	for id, ms := range d {
		if ms <= at {
			ids = append(ids, id)
		}
	}
	slices.SortFunc(ids, func(a, b string) int { return cmp.Or(cmp.Compare(d[a], d[b]), cmp.Compare(a, b)) })
	if len(ids) > n {
		ids = ids[:n]
	}
	for _, id := range ids {
		due = append(due, time.UnixMilli(d[id]))
		delete(d, id)
	}
	return ids, due
}
