// Package game is the domain of the Reversi bot and the logic of hosting its games, in plain Go
// that a test drives without Telegram or Redis: the game as it is kept (Game, Player,
// MessageRef, Flow, Status, Result, Style), people's profiles and results, and the
// Service that hosts games (whose turn it is, who may press, when the AI answers, what ends a
// game, and when results and ratings are recorded). It knows nothing of Telegram: the Telegram
// layer translates updates into calls on a Service and its Snapshots into messages.
//
// The Service keeps its games, its matchmaking queue and people's results in stores, one
// interface per concern (Games, Matchmaking, PlayerStore, …: see store.go; package storage
// implements them on Redis, package gametest in memory) and asks a Mover for the AI's moves.
//
// Every operation is one atomic step on the store: read the game, check the request, compute,
// and write with a compare-and-set on the game's version. When another step wrote first, the
// operation reads again and checks again once; if it loses twice it returns ErrConflict and
// changes nothing, so a tap again is always enough. Errors are sentinels (ErrNotYourTurn,
// ErrStale, ...) with a Code (see ErrorCode) for the Telegram layer to put into words.
//
// Moves are validated against the board the player saw: its position (MoveAt, by the tag that
// buttons and the Mini App carry, see engine.Position.Tag) or its ply (Move, see Ply; AnyPly
// for a typed move). A move on an out-of-date board fails with ErrStale instead of playing on
// a board the player did not see, also at the same ply after an undo and another line. Passes are never asked for: a player without a
// legal move passes automatically, and Snapshot.Played reports it.
package game

import (
	"fmt"
	"time"

	"github.com/reversibot/reversi/engine"
)

// Flow says how a game came to be: against the AI, by an invite link, in a group, through
// inline mode, or by matchmaking.
type Flow uint8

// The flows a game can have.
const (
	FlowAI Flow = iota
	FlowInvite
	FlowGroup
	FlowInline
	FlowMatch
	flowCount
)

// String returns the lower-case name of f ("ai", "invite", ...), or "flow(N)" for an unknown value.
func (f Flow) String() string {
	switch f {
	case FlowAI:
		return "ai"
	case FlowInvite:
		return "invite"
	case FlowGroup:
		return "group"
	case FlowInline:
		return "inline"
	case FlowMatch:
		return "match"
	}
	return fmt.Sprintf("flow(%d)", uint8(f))
}

// Valid reports whether f is one of the flows above.
func (f Flow) Valid() bool { return f < flowCount }

// Status is where a game is in its life. It decides how long the store keeps the game.
type Status uint8

// The statuses of a game.
const (
	// StatusLobby is a game waiting for its second player; the store lets it expire after a
	// while (an hour, by default).
	StatusLobby Status = iota
	// StatusPlaying is a game in progress; the store lets it expire after a
	// long time without an update (a week, by default).
	StatusPlaying
	// StatusFinished is a game that is over; the store keeps it a while for the
	// boards that show it (a day, by default).
	StatusFinished
	statusCount
)

// String returns "lobby", "playing", "finished", or "status(N)" for an unknown value.
func (s Status) String() string {
	switch s {
	case StatusLobby:
		return "lobby"
	case StatusPlaying:
		return "playing"
	case StatusFinished:
		return "finished"
	}
	return fmt.Sprintf("status(%d)", uint8(s))
}

// Valid reports whether s is one of the statuses above.
func (s Status) Valid() bool { return s < statusCount }

// Result is how a game stands or ended (who won, and why it ended): engine's Result, the one
// result type of the project, which render and the Telegram layer take as it is. A game keeps
// its parts in Game.Outcome and Game.Reason (see Game.Result).
type Result = engine.Result

// Outcome is who won a finished game: engine's Outcome.
type Outcome = engine.Outcome

// The outcomes of a game, under the names the hosting uses. OutcomeNone is an unfinished game
// or one that ended without a result.
const (
	OutcomeNone  = engine.Ongoing
	OutcomeBlack = engine.BlackWins
	OutcomeWhite = engine.WhiteWins
	OutcomeDraw  = engine.Draw
)

// EndReason says why a game ended: engine's EndReason.
type EndReason = engine.EndReason

// The reasons a game ends.
const (
	// EndNormal: neither side could move.
	EndNormal = engine.EndNormal
	// EndResign: a player resigned.
	EndResign = engine.EndResign
	// EndTimeout: the opponent of an idle player claimed the game.
	EndTimeout = engine.EndTimeout
	// EndAbandoned: the game was given up without a result (for example a lobby cancelled).
	EndAbandoned = engine.EndAbandoned
)

// ValidOutcome reports whether o is one of the outcomes above.
func ValidOutcome(o Outcome) bool { return o <= OutcomeDraw }

// ValidReason reports whether r is one of the reasons above.
func ValidReason(r EndReason) bool { return r <= EndAbandoned }

// Style is how a person wants boards that fit a keyboard (8×8) drawn. Larger boards are
// always images.
type Style uint8

// The board styles. The zero value, StyleButtons, is the default.
const (
	// StyleButtons draws the board as inline keyboard buttons.
	StyleButtons Style = iota
	// StyleImage draws the board as a picture with a keyboard of the legal moves.
	StyleImage
	styleCount
)

// String returns "buttons", "image", or "style(N)" for an unknown value.
func (s Style) String() string {
	switch s {
	case StyleButtons:
		return "buttons"
	case StyleImage:
		return "image"
	}
	return fmt.Sprintf("style(%d)", uint8(s))
}

// Valid reports whether s is one of the styles above.
func (s Style) Valid() bool { return s < styleCount }

// Player is one side of a game. The AI's Player has UserID 0.
type Player struct {
	UserID int64
	Name   string
	ChatID int64 // private chat showing this player's board; 0 if none
	Lang   string
}

// MessageRef is a message that shows a game's board: a chat message (ChatID, MessageID) or an
// inline-mode message (InlineID).
type MessageRef struct {
	ChatID    int64
	MessageID int
	InlineID  string
}

// Game is one hosted game as the store keeps it.
type Game struct {
	// ID is assigned by the store's StartGame: at most 12 characters from [A-Za-z0-9],
	// safe in callback data and deep links.
	ID string
	// Version is set by the store: 1 after StartGame, one more after each UpdateGame or
	// JoinGame. UpdateGame is a compare-and-set on it.
	Version int64

	Size   int // board side: an even number from 4 to 16
	Flow   Flow
	Status Status

	// Players[0] is black and Players[1] white; in a lobby Players[0] is the creator.
	Players [2]Player
	// CreatorColor is the colour the creator asked for: -1 random, 0 black, 1 white.
	CreatorColor int8
	// AILevel is above 0 when one side is the bot's AI (the Player with UserID 0).
	AILevel int
	// Moves holds one byte per move, row<<4|col (a1 = 0x00, b1 = 0x01, a2 = 0x10);
	// passes are omitted. The store only checks that each square lies on the board.
	Moves []byte

	ChatID   int64  // the chat (group or private) hosting the game, 0 for inline games
	InlineID string // the inline message hosting the game, "" otherwise
	Boards   []MessageRef
	Lang     string // language of texts in the hosting chat

	// Outcome and Reason are the game's Result: the zero values while it is not finished.
	Outcome Outcome
	Reason  EndReason

	// Style is how boards of this game that fit a keyboard are drawn in chats other than a
	// player's own private chat (a group, for instance); the bot sets it when the game opens.
	Style Style
	// LastMoveAt is when the player to move got the turn: the game's start or the last move
	// (second precision), for idle claims. It is kept as the caller sets it; zero in games
	// stored before the field existed.
	LastMoveAt time.Time

	// Rating is what the finished game did to its players' ratings, once its result is
	// recorded: set for a rated game between people, the zero value otherwise.
	Rating RatingChange

	// Rematch is where the offer of a rematch of this finished game between people stands;
	// RematchBy is the user who offered it and RematchAt when (second precision). Zero
	// while no one offered one. (Against the AI a rematch needs no offer.)
	Rematch   RematchState
	RematchBy int64
	RematchAt time.Time

	// Created and Updated are set by the store (second precision): Created by StartGame,
	// Updated by StartGame and every successful UpdateGame or JoinGame.
	Created, Updated time.Time
}

// RatingChange is what a rated game between people did to its players' ratings: Before and
// After are indexed as Game.Players (0 black, 1 white). The zero value (Rated false) is an
// unrated game, or one whose result is not recorded yet.
type RatingChange struct {
	Rated         bool
	Before, After [2]int
}

// Delta returns how much the rating of player i (0 black, 1 white) moved.
func (r RatingChange) Delta(i int) int { return r.After[i&1] - r.Before[i&1] }

// RematchState is where the rematch offer of a finished game between people stands.
type RematchState uint8

// The states of a rematch offer. Their numbers are stored: keep them.
const (
	// RematchNone: no one offered a rematch.
	RematchNone RematchState = iota
	// RematchOffered: Game.RematchBy offered one at Game.RematchAt; the other player may
	// accept or decline it until it expires (Service.RematchLeft).
	RematchOffered
	// RematchAccepted: the other player accepted, and the rematch was started.
	RematchAccepted
	// RematchDeclined: the other player declined the offer.
	RematchDeclined
	// RematchWithdrawn: the player who offered took the offer back.
	RematchWithdrawn
	// RematchExpired: the offer was not answered in time.
	RematchExpired
	rematchStateCount
)

// Valid reports whether r is one of the states above.
func (r RematchState) Valid() bool { return r < rematchStateCount }

// Aborted reports whether g is a game that ended before each player had made a move: it ends
// without a result (EndAbandoned) and counts for no one. A cancelled lobby (which never had a
// second player) is not aborted.
func (g *Game) Aborted() bool {
	return g.Status == StatusFinished && g.Reason == EndAbandoned && g.Outcome == OutcomeNone &&
		(g.AILevel > 0 || (g.Players[0].UserID != 0 && g.Players[1].UserID != 0))
}

// Result returns how g ended: {Outcome, Reason}, the zero Result while it is not finished.
func (g *Game) Result() Result { return Result{Outcome: g.Outcome, Reason: g.Reason} }

// Clone returns a deep copy of g that shares no slices with it.
func (g *Game) Clone() *Game {
	c := *g
	c.Moves = append([]byte(nil), g.Moves...)
	if g.Boards != nil {
		c.Boards = append([]MessageRef(nil), g.Boards...)
	}
	return &c
}

// Places calls chat with every chat and inline with every inline message ID that g names, in
// this order: its own chat and inline message, its players' chats, then each board's chat and
// inline message. These are where a store binds the game. Zero chats and empty IDs are passed
// on too, and a place may come more than once: the callers skip what they do not keep.
func (g *Game) Places(chat func(chatID int64), inline func(inlineID string)) {
	chat(g.ChatID)
	inline(g.InlineID)
	for _, p := range g.Players {
		chat(p.ChatID)
	}
	for _, b := range g.Boards {
		chat(b.ChatID)
		inline(b.InlineID)
	}
}

// AIRecord counts one person's results against one AI level.
type AIRecord struct {
	Wins, Losses, Draws int
}

// Stats are a person's results: Wins, Losses, Draws and Rating count games against people
// only; VsAI holds the results against each AI level that was played (nil if none).
type Stats struct {
	Wins, Losses, Draws int
	Rating              int
	VsAI                map[int]AIRecord
}

// Profile is what the store knows of a Telegram user.
type Profile struct {
	UserID int64
	Name   string
	Lang   string // "" until the user chooses one
	// Style is how the user wants 8×8 boards drawn; StyleButtons until they choose.
	Style Style
	Stats Stats
}

// RankEntry is one line of a leaderboard.
type RankEntry struct {
	UserID              int64
	Name                string
	Rating              int
	Wins, Losses, Draws int
}

// Waiter is a person waiting in the matchmaking queue.
type Waiter struct {
	UserID int64
	ChatID int64 // the private chat to tell them about their game
	Name   string
	Lang   string
	// MsgID is the message in ChatID that shows the search (0: none), which the bot edits when
	// the search pairs them, is cancelled or ends by itself.
	MsgID int
}

// Hosting says where a Store's StartGame binds a new game, and what stands in its way.
type Hosting struct {
	// Chats are bound to the game. Each must be free: a chat bound to a lobby or a game in play
	// makes StartGame fail with a *BusyError, one bound to a record that cannot be a game's with
	// a *CorruptError naming it; a binding to a finished or expired game is replaced.
	Chats []int64
	// InlineID, when set, is the inline message bound to the game. When it already shows a
	// game (in any state) other than RematchOf, StartGame returns that game instead.
	InlineID string
	// RematchOf, when set, is the ID of the finished game the new one is a rematch of. Each
	// game gets one rematch: when RematchOf has one already, StartGame returns it instead.
	RematchOf string
}
