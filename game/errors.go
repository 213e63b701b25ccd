package game

import (
	"errors"
	"fmt"
	"time"
)

// Code classifies an error for the layer that shows it: the Telegram layer looks up the text
// of a Service's error by its code (see ErrorCode). The value of a code is a short, stable
// name ("not_your_turn") that may be used as a key.
type Code string

// The codes of the Service's errors, one per sentinel below (Codes lists them).
const (
	CodeNoGame         Code = "no_game"
	CodeNotYourGame    Code = "not_your_game"
	CodeNotYourTurn    Code = "not_your_turn"
	CodeStale          Code = "stale"
	CodeOffBoard       Code = "off_board"
	CodeOccupied       Code = "occupied"
	CodeIllegal        Code = "illegal"
	CodeGameOver       Code = "game_over"
	CodeNotStarted     Code = "not_started"
	CodeNotOver        Code = "not_over"
	CodeConflict       Code = "conflict"
	CodeAlreadyPlaying Code = "already_playing"
	CodeOpponentBusy   Code = "opponent_busy"
	CodeOwnLobby       Code = "own_lobby"
	CodeLobbyTaken     Code = "lobby_taken"
	CodeNotAIGame      Code = "not_ai_game"
	CodeNoHint         Code = "no_hint"
	CodeNothingToUndo  Code = "nothing_to_undo"
	CodeNotIdle        Code = "not_idle"
	CodePeopleOnly     Code = "people_only"
	CodeBadSize        Code = "bad_size"
	CodeBadLevel       Code = "bad_level"
	CodeBadRequest     Code = "bad_request"
	CodeBusy           Code = "busy"
	CodeSetAside       Code = "set_aside"
	CodeNoOffer        Code = "no_offer"
	CodeOwnOffer       Code = "own_offer"
	CodeOfferExpired   Code = "offer_expired"
	CodeNoMoves        Code = "no_moves"
	// CodeInternal is a failure the player can do nothing about (a bug, a store that fails):
	// the code of ErrCorrupt, of ErrPanic and of every error without a code of its own.
	CodeInternal Code = "internal"
)

// The codes of a store's errors (see Games). The Service turns those a player can act on into
// its own (a missing game into ErrNoGame, a busy chat into ErrAlreadyPlaying); one that reaches
// a player as it is counts as internal (see Code.Internal).
const (
	CodeNotFound    Code = "not_found"   // ErrNotFound
	CodeChatBusy    Code = "chat_busy"   // ErrChatBusy, *BusyError
	CodeInvalid     Code = "invalid"     // ErrInvalid
	CodeCorrupt     Code = "corrupt"     // *CorruptError
	CodeUnavailable Code = "unavailable" // ErrUnavailable
)

// Internal reports whether c is CodeInternal or a store's code: an error the player cannot act
// on, shown as an internal error and logged for the operator.
func (c Code) Internal() bool {
	switch c {
	case CodeInternal, CodeNotFound, CodeChatBusy, CodeInvalid, CodeCorrupt, CodeUnavailable:
		return true
	}
	return false
}

// Error is an error with a Code. The sentinels below are *Error values; test for them with
// errors.Is.
type Error struct {
	Code    Code
	Message string
}

// Error returns the message.
func (e *Error) Error() string { return e.Message }

// ErrorCode returns the code of e.
func (e *Error) ErrorCode() Code { return e.Code }

// coded is an error that knows its code: *Error and the error types of this package.
type coded interface {
	error
	ErrorCode() Code
}

// ErrorCode returns the code of err: that of the first error in its chain (as errors.As walks
// it) that has one, CodeInternal when none has, "" for nil.
func ErrorCode(err error) Code {
	if err == nil {
		return ""
	}
	var c coded
	if errors.As(err, &c) {
		return c.ErrorCode()
	}
	return CodeInternal
}

func newError(c Code, msg string) *Error { return &Error{Code: c, Message: msg} }

// Errors returned by the Service; test them with errors.Is. Each has a Code that the Telegram
// layer turns into a message in the player's language. None of them but ErrSetAside and
// ErrOfferExpired changes anything: the game is as it was before the call.
var (
	// ErrNoGame: no such game (never existed, expired), or no game in this chat.
	ErrNoGame = newError(CodeNoGame, "game: no game")
	// ErrNotYourGame: the user is not one of the two players (a spectator).
	ErrNotYourGame = newError(CodeNotYourGame, "game: not your game")
	// ErrNotYourTurn: the user plays in the game, but the other side is to move.
	ErrNotYourTurn = newError(CodeNotYourTurn, "game: not your turn")
	// ErrStale: the board the user pressed does not show the game as it is: another move came
	// first, or (MoveAt, UndoAt) the game is at that ply on another position, after an undo.
	ErrStale = newError(CodeStale, "game: the board is out of date")
	// ErrOffBoard: the square is not on this board.
	ErrOffBoard = newError(CodeOffBoard, "game: square off the board")
	// ErrOccupied: the square already holds a disc.
	ErrOccupied = newError(CodeOccupied, "game: square occupied")
	// ErrIllegal: the square is empty but the move flips nothing.
	ErrIllegal = newError(CodeIllegal, "game: illegal move")
	// ErrGameOver: the game has finished.
	ErrGameOver = newError(CodeGameOver, "game: game over")
	// ErrNotStarted: the game is a lobby still waiting for its second player.
	ErrNotStarted = newError(CodeNotStarted, "game: game not started")
	// ErrNotOver: the step needs a finished game (a rematch) and this one is still going.
	ErrNotOver = newError(CodeNotOver, "game: game not over")
	// ErrConflict: the game changed since it was read. From a Games' compare-and-set: read
	// it again and retry. From the Service: the game changed twice while the step ran,
	// nothing was applied, and tapping again is enough.
	ErrConflict = newError(CodeConflict, "game: conflict, try again")
	// ErrAlreadyPlaying: the chat (or the user's private chat) already has a game in play or a
	// lobby open; finish or resign it first.
	ErrAlreadyPlaying = newError(CodeAlreadyPlaying, "game: a game is already in progress")
	// ErrOpponentBusy: the other player's chat has another game in play (the creator of an
	// invitation, the opponent of a rematch); the lobby or finished game stays as it was.
	ErrOpponentBusy = newError(CodeOpponentBusy, "game: the other player is in another game")
	// ErrOwnLobby: the creator of a lobby tried to join it.
	ErrOwnLobby = newError(CodeOwnLobby, "game: cannot join your own game")
	// ErrLobbyTaken: the lobby already has its second player.
	ErrLobbyTaken = newError(CodeLobbyTaken, "game: the game already has two players")
	// ErrNotAIGame: the step (undo, hint) exists only in games against the AI.
	ErrNotAIGame = newError(CodeNotAIGame, "game: only in games against the AI")
	// ErrNoHint: hints are offered only on the lower AI levels (1 to MaxHintLevel).
	ErrNoHint = newError(CodeNoHint, "game: no hints at this level")
	// ErrNothingToUndo: the player has no move to take back.
	ErrNothingToUndo = newError(CodeNothingToUndo, "game: nothing to undo")
	// ErrNotIdle: the opponent has not been idle long enough to claim the game (see IdleError),
	// or it is the claimant's own turn.
	ErrNotIdle = newError(CodeNotIdle, "game: the opponent is not idle")
	// ErrPeopleOnly: the step (claiming an idle game) exists only in games between people.
	ErrPeopleOnly = newError(CodePeopleOnly, "game: only in games between people")
	// ErrBadSize: the board size is not one of Sizes.
	ErrBadSize = newError(CodeBadSize, "game: unsupported board size")
	// ErrBadLevel: the AI level is not 1 to MaxLevel.
	ErrBadLevel = newError(CodeBadLevel, "game: unsupported AI level")
	// ErrBadRequest: the request is malformed (a missing chat, an unknown flow...).
	ErrBadRequest = newError(CodeBadRequest, "game: bad request")
	// ErrBusy: the AI pool is closed or the caller's context ended before the AI answered;
	// the game stays with the AI to move, and AIReply may be called again.
	ErrBusy = newError(CodeBusy, "game: the AI is busy")
	// ErrCorrupt: the stored game cannot be replayed. It should never happen.
	ErrCorrupt = newError(CodeInternal, "game: stored game is corrupt")
	// ErrSetAside: the game's record could not be read (it does not decode, or replays to an
	// illegal move), so it was taken out of play and kept for the operator (see SetAsideError);
	// its chats are free for a new game. Unlike the others, this error changed something.
	ErrSetAside = newError(CodeSetAside, "game: the game could not be read and was set aside")
	// ErrNoOffer: there is no rematch offer to accept or decline (none was made, or it was
	// declined or withdrawn).
	ErrNoOffer = newError(CodeNoOffer, "game: no rematch offer")
	// ErrOwnOffer: the player who offered a rematch tried to accept it: the other player must.
	ErrOwnOffer = newError(CodeOwnOffer, "game: only the other player may accept the offer")
	// ErrOfferExpired: the rematch offer was not answered in time (see Config.RematchFor). The
	// step that finds it so records the expiry on the game: redraw its boards.
	ErrOfferExpired = newError(CodeOfferExpired, "game: the rematch offer expired")
)

// Errors of the stores (see Games, Matchmaking and PlayerStore); test them with errors.Is.
var (
	// ErrNotFound: no such game (never existed, expired, or an id that cannot be one), or
	// another record a lookup names.
	ErrNotFound = newError(CodeNotFound, "game: not found")
	// ErrChatBusy: a chat a game was to be bound to already has a lobby or a game in play.
	// Errors that wrap it are *BusyError, naming the chat.
	ErrChatBusy = newError(CodeChatBusy, "game: the chat already has a game")
	// ErrInvalid: a value the store refuses to keep, or a stored value it cannot decode.
	ErrInvalid = newError(CodeInvalid, "game: invalid value")
	// ErrUnavailable: the store could not be reached or is not serving (down, restarting,
	// fail-over in progress, out of memory). The operation may be retried later.
	ErrUnavailable = newError(CodeUnavailable, "game: store unavailable")
)

// serviceErrors are the Service's sentinels, in the order Codes lists their codes.
var serviceErrors = []*Error{
	ErrNoGame, ErrNotYourGame, ErrNotYourTurn, ErrStale, ErrOffBoard, ErrOccupied, ErrIllegal,
	ErrGameOver, ErrNotStarted, ErrNotOver, ErrConflict, ErrAlreadyPlaying, ErrOpponentBusy,
	ErrOwnLobby, ErrLobbyTaken, ErrNotAIGame, ErrNoHint, ErrNothingToUndo, ErrNotIdle,
	ErrPeopleOnly, ErrBadSize, ErrBadLevel, ErrBadRequest, ErrBusy, ErrSetAside, ErrNoOffer,
	ErrOwnOffer, ErrOfferExpired, ErrNoMoves, ErrCorrupt,
}

// Codes returns every code the Service's errors have, CodeInternal last, so that a test can
// check that each has a text. (A store's codes are not among them: see Code.Internal.)
func Codes() []Code {
	out := make([]Code, 0, len(serviceErrors))
	for _, e := range serviceErrors {
		out = append(out, e.Code)
	}
	return out
}

// IdleError is the ErrNotIdle of ClaimIdle when the opponent is to move but has not been idle
// long enough: Left is how long the claimant still has to wait.
type IdleError struct{ Left time.Duration }

// Error describes the wait.
func (e *IdleError) Error() string {
	return fmt.Sprintf("game: the opponent is not idle (claim possible in %v)", e.Left.Round(time.Second))
}

// Is makes errors.Is(err, ErrNotIdle) true.
func (e *IdleError) Is(target error) bool { return target == ErrNotIdle }

// ErrorCode is CodeNotIdle.
func (e *IdleError) ErrorCode() Code { return CodeNotIdle }

// BusyError is the ErrChatBusy of a Games' StartGame and JoinGame: ChatID has a lobby or a
// game in play. Nothing was written.
type BusyError struct{ ChatID int64 }

// Error names the chat (not its game).
func (e *BusyError) Error() string {
	return fmt.Sprintf("game: chat %d already has a game", e.ChatID)
}

// Is makes errors.Is(err, ErrChatBusy) true.
func (e *BusyError) Is(target error) bool { return target == ErrChatBusy }

// ErrorCode is CodeChatBusy.
func (e *BusyError) ErrorCode() Code { return CodeChatBusy }

// CorruptError is the error of a Games' read that found a game record it cannot decode: the
// record is there, but the store did not write it so. GameID names the record for SetAside.
type CorruptError struct {
	GameID string
	Err    error // why it does not decode; wraps ErrInvalid
}

// Error names the game and what is wrong with its record.
func (e *CorruptError) Error() string {
	return fmt.Sprintf("game: game %s: unreadable record: %v", e.GameID, e.Err)
}

// Unwrap returns the decoding error, so errors.Is(err, ErrInvalid) holds.
func (e *CorruptError) Unwrap() error { return e.Err }

// ErrorCode is CodeCorrupt.
func (e *CorruptError) ErrorCode() Code { return CodeCorrupt }

// SetAsideError is the ErrSetAside of a step that found its game's record unreadable: the
// record does not decode, or replays to an illegal move. The record was moved to Key for the
// operator (Games.SetAside), its chats are free, and the player should start a new game.
type SetAsideError struct {
	GameID string
	Key    string // where the record now lives
	Err    error  // what is wrong with the record
}

// Error names the game, where its record went and why.
func (e *SetAsideError) Error() string {
	return fmt.Sprintf("game: game %s could not be read and was set aside under %s: %v", e.GameID, e.Key, e.Err)
}

// Is makes errors.Is(err, ErrSetAside) true.
func (e *SetAsideError) Is(target error) bool { return target == ErrSetAside }

// Unwrap returns what is wrong with the record.
func (e *SetAsideError) Unwrap() error { return e.Err }

// ErrorCode is CodeSetAside.
func (e *SetAsideError) ErrorCode() Code { return CodeSetAside }
