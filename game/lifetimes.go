package game

import "time"

// How long a store keeps what it holds, unless told otherwise: every store implementation
// uses these for its zero options, so games expire alike in Redis and in memory.
const (
	// DefaultFinishedTTL keeps a finished game (for /board and a rematch) for a day.
	DefaultFinishedTTL = 24 * time.Hour
	// DefaultIdleTTL keeps a game in play for a week after its last move.
	DefaultIdleTTL = 7 * 24 * time.Hour
	// DefaultLobbyTTL keeps a lobby nobody joined for an hour.
	DefaultLobbyTTL = time.Hour
	// DefaultQueueTTL keeps a matchmaking entry for ten minutes.
	DefaultQueueTTL = 10 * time.Minute
	// DefaultResultTTL remembers that a game's result was recorded for twice as long as the
	// finished game lives, so a result is never counted twice.
	DefaultResultTTL = 2 * DefaultFinishedTTL
)

// Lifetimes are how long a store keeps a game record after each write, by the game's status.
type Lifetimes struct {
	Lobby    time.Duration // a lobby waiting for a second player
	Finished time.Duration // a finished game
	Idle     time.Duration // a game in play (any other status)
}

// Of returns how long a game with status st lives after a write: Lobby for a lobby, Finished
// for a finished game and Idle for the rest, so every store expires games by the same rule.
func (l Lifetimes) Of(st Status) time.Duration {
	switch st {
	case StatusLobby:
		return l.Lobby
	case StatusFinished:
		return l.Finished
	}
	return l.Idle
}
