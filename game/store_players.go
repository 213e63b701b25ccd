package game

import (
	"context"
	"time"
)

// PlayerStore keeps what is known of people and chats: profiles, results and ratings, chat
// languages and turn notices. Players keeps them in one; the Service records results and
// reads board styles in it. Package storage implements it on Redis, package gametest in
// memory; both pass gametest.TestPlayers. Its methods are safe for concurrent use.
type PlayerStore interface {
	Profiles
	Ratings
	ChatLangs
	TurnNotices
}

// Profiles keeps each person's name and choices (language, board style), which make them
// known: only known people's results count.
type Profiles interface {
	// TouchUser stores the user's display name, making them known. An empty name changes
	// nothing.
	TouchUser(ctx context.Context, userID int64, name string) error
	// Profile returns what is known of the user; one never seen has rating InitialRating and
	// no results.
	Profile(ctx context.Context, userID int64) (*Profile, error)
	// SetLang stores the language the user chose (Profile.Lang); "" forgets the choice. A
	// language longer than MaxLang bytes gives ErrInvalid. A language set makes the user known.
	SetLang(ctx context.Context, userID int64, lang string) error
	// SetStyle stores how the user wants 8×8 boards drawn (Profile.Style); StyleButtons
	// forgets the choice, and a style that is not Valid gives ErrInvalid. StyleImage set
	// makes the user known.
	SetStyle(ctx context.Context, userID int64, style Style) error
}

// Ratings keeps people's results, their Elo ratings and the leaderboards, beside their
// Profiles (Profile.Stats and Profile.Rating show what it recorded).
type Ratings interface {
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
}

// ChatLangs keeps the language chosen for each chat.
type ChatLangs interface {
	// ChatLang returns the language chosen for a chat, "" when none was.
	ChatLang(ctx context.Context, chatID int64) (string, error)
	// SetChatLang stores the language of a chat; "" forgets the choice. A language longer
	// than MaxLang bytes gives ErrInvalid.
	SetChatLang(ctx context.Context, chatID int64, lang string) error
}

// TurnNotices keeps the newest turn notice sent into each user's private chat, so that the
// next one replaces it.
type TurnNotices interface {
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

// TurnNoticeTTL is how long a PlayerStore keeps a user's newest turn notice: as long as
// Telegram lets a bot delete its messages.
const TurnNoticeTTL = 48 * time.Hour

// MaxLang is the longest language code a PlayerStore keeps, in bytes.
const MaxLang = 16

// Rating constants of the Elo system used for games between people.
const (
	InitialRating = 1200
	EloK          = 32
)
