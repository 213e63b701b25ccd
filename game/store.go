package game

import (
	"context"
	"time"

	"github.com/reversibot/reversi/engine"
)

// Store keeps the games the Service hosts, the chats and inline messages bound to them, and the
// matchmaking queue. Package storage implements it on Redis, package gametest in memory; both
// pass gametest.TestStore, which checks what follows. Every method is safe for concurrent use,
// and each is one atomic step, also among processes sharing the store.
//
// Games: StartGame stores a new game (assigning its ID, Version 1 and its Created and Updated
// times) and binds the chats and inline message of Hosting to it; JoinGame and UpdateGame
// store a game read from the store and changed, with a compare-and-set on Game.Version (on
// success Version is one more and Updated now) that fails with ErrConflict when another write
// came first. Lookups of a game that is not there (never stored, expired, an id that cannot be
// one) fail with ErrNotFound, and one whose record cannot be read with a *CorruptError naming
// it. A chat has at most one lobby or game in play: StartGame and JoinGame refuse a chat bound
// to another one with a *BusyError, and they alone decide whether a chat is free, so racing
// requests leave one game per chat. Games expire by their Status (lobbies soonest, finished
// games after a while, games in play after a long idle time), and so do their bindings. Each
// user keeps at most UserGames lobbies and finished games: storing one more (a lobby, a game
// that ends) deletes the user's oldest, with what guards it (caps.go); a game's rematch mark
// lives no longer than the finished game.
type Store interface {
	// StartGame stores g as a new game and binds it where h says. When h.InlineID shows a
	// game already, or h.RematchOf has its rematch already, nothing is written and that game
	// comes back as existing (ErrNotFound when that rematch is gone). The mark that h.RematchOf
	// has its rematch lives as long as that finished game (none when it is gone). g is
	// unchanged on failure; on success it has its ID, Version, Created and Updated.
	StartGame(ctx context.Context, g *Game, h Hosting) (existing *Game, err error)
	// JoinGame is UpdateGame that also binds chats (each free or bound to g already).
	JoinGame(ctx context.Context, g *Game, chats []int64) error
	// Game returns the game with the given ID.
	Game(ctx context.Context, id string) (*Game, error)
	// UpdateGame stores g, a compare-and-set on g.Version, and resets the expiry of g and of
	// the bindings it names that still point at it.
	UpdateGame(ctx context.Context, g *Game) error
	// GameByChat returns the game bound to a chat (ErrNotFound for none).
	GameByChat(ctx context.Context, chatID int64) (*Game, error)
	// UnbindChat removes a chat's binding if it still points at gameID.
	UnbindChat(ctx context.Context, chatID int64, gameID string) error
	// GameByInline returns the game bound to an inline message (ErrNotFound for none).
	GameByInline(ctx context.Context, inlineID string) (*Game, error)
	// Enqueue pairs w with the longest waiting other person for boards of size and returns
	// them (taken out of the queue), or queues w, replacing w's earlier entry, and returns
	// nil. A waiter is handed to exactly one caller, never to itself; entries expire.
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
	// SetAside takes the record of a game that cannot be read out of play, keeping it under
	// the key it returns for the operator, and frees the chats and inline messages bound to it
	// (via: where it was reached). moved is false when it was set aside before; ErrNotFound
	// when there is no such record.
	SetAside(ctx context.Context, gameID string, via ...MessageRef) (key string, moved bool, err error)
}

// PlayerStore keeps what is known of people: their names and results. Package storage
// implements it on Redis, package gametest in memory. Its methods are safe for concurrent use.
type PlayerStore interface {
	// TouchUser stores the user's display name, making them known: only known people's results
	// count. An empty name changes nothing.
	TouchUser(ctx context.Context, userID int64, name string) error
	// Profile returns what is known of the user; one never seen has rating InitialRating and
	// no results.
	Profile(ctx context.Context, userID int64) (*Profile, error)
	// RecordResult adds the result of the finished game g to its players' records, once per
	// game ID (while the store keeps the game's mark: each player's newest UserResults are
	// kept). A game between two known people counts for both and moves their Elo ratings
	// (EloK, InitialRating) and the global leaderboard and, for a group game, the group's; a
	// game against the AI counts in the person's record against that level only. A game with
	// OutcomeNone, or with a player who is not known, counts nothing. A game not finished
	// gives ErrInvalid. For a rated game between people it returns the ratings before and
	// after (Rated set), the same on every call for that game while the store keeps its
	// mark; otherwise, and for a game recorded before the store kept them, the zero value.
	RecordResult(ctx context.Context, g *Game) (RatingChange, error)
	// Top returns up to n people with the best ratings, of everyone (chatID 0) or of those
	// who played a rated game in that group; by rating, then wins, then user ID.
	Top(ctx context.Context, chatID int64, n int) ([]RankEntry, error)
	// SetLang stores the language the user chose (Profile.Lang); "" forgets the choice. A
	// language longer than MaxLang bytes gives ErrInvalid. A language set makes the user known.
	SetLang(ctx context.Context, userID int64, lang string) error
	// SetStyle stores how the user wants 8×8 boards drawn (Profile.Style); StyleButtons
	// forgets the choice, and a style that is not Valid gives ErrInvalid. StyleImage set
	// makes the user known.
	SetStyle(ctx context.Context, userID int64, style Style) error
	// ChatLang returns the language chosen for a chat, "" when none was.
	ChatLang(ctx context.Context, chatID int64) (string, error)
	// SetChatLang stores the language of a chat; "" forgets the choice. A language longer
	// than MaxLang bytes gives ErrInvalid.
	SetChatLang(ctx context.Context, chatID int64, lang string) error
	// SwapTurnNotice records n as the newest turn notice in the user's private chat and
	// returns the one recorded before (the zero TurnNotice: none), in one step, so that of two
	// notices sent at once each replaces exactly one. It is kept for TurnNoticeTTL (a bot may
	// delete a message for 48 hours).
	SwapTurnNotice(ctx context.Context, userID int64, n TurnNotice) (prev TurnNotice, err error)
	// NewestTurnNotice returns the user's newest turn notice (the zero TurnNotice: none).
	NewestTurnNotice(ctx context.Context, userID int64) (TurnNotice, error)
	// DropTurnNotice forgets n if it is still the user's newest turn notice, in one step, and
	// reports whether it did: of two callers that found the notice false, one takes it back.
	DropTurnNotice(ctx context.Context, userID int64, n TurnNotice) (bool, error)
}

// QueueGrace is how long a Store keeps a search past its deadline for ExpireSearches.
const QueueGrace = time.Hour

// TurnNoticeTTL is how long a PlayerStore keeps a user's newest turn notice: as long as
// Telegram lets a bot delete its messages.
const TurnNoticeTTL = 48 * time.Hour

// MaxLang is the longest language code a PlayerStore keeps, in bytes.
const MaxLang = 16

// GameStyles is a Store that reads a game together with the board styles of some people in
// one step (a Redis store: one round trip). Service.GameAndStyles uses it when the Store has
// it, and reads the game and then the profiles otherwise.
type GameStyles interface {
	// GameAndStyles returns the game with the given ID, as Store.Game does, and the style
	// each of users has chosen (styles[i] is Profile(users[i]).Style; StyleButtons for user
	// 0). When the game cannot be read, g is nil and err says why; when only a style cannot
	// be read, g comes back with err, and that style is StyleButtons.
	GameAndStyles(ctx context.Context, id string, users ...int64) (g *Game, styles []Style, err error)
}

// Invitations keeps which message each inline invitation opened a game in, so that an
// invitation copied onto another message opens nothing there. Package storage's Store and
// gametest's Memory implement it.
type Invitations interface {
	// ClaimInvitation binds the invitation that creator made with nonce to the inline message
	// inlineID for ttl: true when it was free or is bound to that message already, false when
	// another message claimed it first. It keeps the newest UserInvitations claims of each
	// creator. An inline id that cannot be one, or a ttl <= 0, gives ErrInvalid.
	ClaimInvitation(ctx context.Context, creator, nonce int64, inlineID string, ttl time.Duration) (bool, error)
}

// Rating constants of the Elo system used for games between people.
const (
	InitialRating = 1200
	EloK          = 32
)

// Leases hands out short exclusive leases by name, shared by every Service on one store:
// AcquireLease takes the lease for ttl if nobody holds it (ok false otherwise), RenewLease
// extends it while token holds it, ReleaseLease ends it if token still holds it. Package
// storage's Store implements it.
type Leases interface {
	AcquireLease(ctx context.Context, name string, ttl time.Duration) (token string, ok bool, err error)
	RenewLease(ctx context.Context, name, token string, ttl time.Duration) (bool, error)
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
