package game

import (
	"context"
	"time"

	"github.com/reversibot/reversi/engine"
)

// The stores. What the Service keeps lives behind small interfaces, one per concern, each in
// a file of its own:
//
//   - games (store_games.go): Games, the game records with their compare-and-set and the
//     chats and inline messages bound to them; GameStyles, Invitations; GameMover and
//     ChatMover (migrate.go) and Drawings (drawings.go) beside them;
//   - players (store_players.go): Profiles, Ratings, ChatLangs, TurnNotices, together a
//     PlayerStore;
//   - matchmaking (store_matchmaking.go): Matchmaking, the queue and its searches;
//   - offers and reminders (store_offers.go): OfferExpiries, Reminders;
//   - reviews (store_reviews.go): Reviews;
//   - AI jobs (store_ai.go): AIFrontStreams, AIWorkerStreams, together AIStreams;
//   - Leases, below, shared by all.
//
// Package storage's Store implements every one of them on Redis. Package gametest keeps them
// in memory (Memory, and Reminders, OfferExpiries, AIStreams beside it) and holds each
// concern's contract test, which both pass. Every method is safe for concurrent use, and each
// is one atomic step, also among processes sharing the store.

// Store is one value that keeps what every Service needs: its games, its matchmaking and its
// players (package storage's Store and gametest's Memory are one). Config.Store takes it, so
// that one value wires a Service; the stores it may also be (Leases, Invitations, Reviews,
// GameStyles, GameMover, ChatMover) are taken from it too.
type Store interface {
	Games
	Matchmaking
	PlayerStore
}

// Leases hands out short exclusive leases by name, shared by every Service on one store (a
// game's AI reply, a position's hint go to one Service at a time). Package storage's Store and
// gametest's Memory implement it.
type Leases interface {
	// AcquireLease takes the lease name for ttl if nobody holds it (ok false otherwise) and
	// returns the token that holds it.
	AcquireLease(ctx context.Context, name string, ttl time.Duration) (token string, ok bool, err error)
	// RenewLease extends the lease for ttl while token holds it, and reports whether it did.
	RenewLease(ctx context.Context, name, token string, ttl time.Duration) (bool, error)
	// ReleaseLease ends the lease if token still holds it.
	ReleaseLease(ctx context.Context, name, token string) error
}

// Mover is the AI. Move returns the move the AI of the given level (1 to MaxLevel) plays in
// pos, which has a legal move for the side to move; Hint returns a good move for the side to
// move, for a player who asked. Both must be safe for concurrent use and should return soon
// after ctx ends. A move that is not legal is replaced by the first legal one.
type Mover interface {
	Move(ctx context.Context, pos engine.Position, level int) (engine.Square, error)
	Hint(ctx context.Context, pos engine.Position) (engine.Square, error)
}

// orStore returns v, or st when v is nil and st is a T (Config's fields left nil).
func orStore[T any](v T, st Store) T {
	if any(v) != nil {
		return v
	}
	if w, ok := st.(T); ok {
		return w
	}
	return v
}
