package game

import (
	"context"
	"time"
)

// Matchmaking keeps the queue of people looking for a random opponent, one search per person,
// each waiting until its deadline (the queue's TTL). Package storage implements it on Redis,
// package gametest in memory; both pass gametest.TestMatchmaking. Every method is safe for
// concurrent use and one atomic step, also among processes sharing the store.
type Matchmaking interface {
	// Enqueue pairs w with the longest waiting other person for boards of size and returns
	// them (taken out of the queue), or queues w, replacing w's earlier entry, and returns
	// nil. A waiter is handed to exactly one caller, never to itself; entries expire. A size
	// no board has (odd, or out of range), or a waiter without a user, gives ErrInvalid.
	Enqueue(ctx context.Context, size int, w Waiter) (*Waiter, error)
	// Requeue puts w back in the queue after a pairing whose game could not start, unless w
	// waits already (then it reports false).
	Requeue(ctx context.Context, size int, w Waiter) (bool, error)
	// LeaveQueue takes the user out of the queue and reports whether they waited. A search
	// whose deadline has passed is not waiting: it is left for ExpireSearches to report.
	LeaveQueue(ctx context.Context, userID int64) (bool, error)
	// Searching returns the user's search while it waits (before its deadline), nil when they
	// wait for nothing.
	Searching(ctx context.Context, userID int64) (*Search, error)
	// ExpireSearches takes out of the queue up to max searches whose deadline has passed and
	// returns them, each to exactly one caller among all sharing the store, so that the one
	// who waited is told once that their search ended. A search's record outlives its
	// deadline by QueueGrace for this; one not taken by then goes without a word.
	ExpireSearches(ctx context.Context, max int) ([]Search, error)
}

// QueueGrace is how long a Matchmaking keeps a search past its deadline for ExpireSearches.
const QueueGrace = time.Hour
