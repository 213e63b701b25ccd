package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/reversibot/reversi/game"
)

// Rematch offers that expire by themselves. A rematch offer between people stands for
// game.Config.RematchFor; when nobody answers it, its boards must say that it expired without
// anyone tapping. The offers to expire are kept here, like the turn reminders (reminders.go),
// so that every bot process on the Redis shares them and a restart loses none; each is
// claimed by exactly one process (ClaimOfferExpiries).
//
//	Z {ox}due      sorted set  finished game ids by the Unix milliseconds their offer expires
//
// A game has at most one offer standing, so at most one entry: a new offer replaces the due
// time of the one before. An entry leaves the set when it is claimed, so the set holds no
// more than the offers made in the last RematchFor that no process has claimed yet.

func (k keys) offersDue() string { return k.p + "{ox}due" }

// ScheduleOfferExpiry makes the rematch offer of the finished game id due to expire at due,
// replacing the due time of an earlier offer of the game. ErrInvalid for an empty id.
func (s *Store) ScheduleOfferExpiry(ctx context.Context, id string, due time.Time) error {
	if id == "" {
		return fmt.Errorf("storage: schedule offer expiry without a game: %w", game.ErrInvalid)
	}
	err := s.rdb.ZAdd(ctx, s.k.offersDue(), redis.Z{Score: float64(max(due.UnixMilli(), 0)), Member: id}).Err()
	return wrap("schedule offer expiry", err)
}

// ClaimOfferExpiries removes from the store and returns the ids of at most n finished games
// whose rematch offer is due to expire at now or before, the earliest first, with the time
// each was due. Each is returned to one caller only, whichever process calls: the caller
// expires the offer (game.Service.ExpireRematch) or schedules it again.
func (s *Store) ClaimOfferExpiries(ctx context.Context, now time.Time, n int) (ids []string, due []time.Time, err error) {
	return s.claimDue(ctx, "claim offer expiries", s.k.offersDue(), now, n)
}
