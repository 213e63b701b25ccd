package host

import (
	"errors"
	"fmt"
	"time"
)

// Errors returned by the Service; test them with errors.Is. Each has a short code (see Code)
// that the Telegram layer turns into a message in the player's language. None of them but
// ErrSetAside changes anything: the game is as it was before the call.
var (
	// ErrNoGame: no such game (never existed, expired), or no game in this chat.
	ErrNoGame = errors.New("host: no game")
	// ErrNotYourGame: the user is not one of the two players (a spectator).
	ErrNotYourGame = errors.New("host: not your game")
	// ErrNotYourTurn: the user plays in the game, but the other side is to move.
	ErrNotYourTurn = errors.New("host: not your turn")
	// ErrStale: the board the user pressed is older than the game (another move came first).
	ErrStale = errors.New("host: the board is out of date")
	// ErrOffBoard: the square is not on this board.
	ErrOffBoard = errors.New("host: square off the board")
	// ErrOccupied: the square already holds a disc.
	ErrOccupied = errors.New("host: square occupied")
	// ErrIllegal: the square is empty but the move flips nothing.
	ErrIllegal = errors.New("host: illegal move")
	// ErrGameOver: the game has finished.
	ErrGameOver = errors.New("host: game over")
	// ErrNotStarted: the game is a lobby still waiting for its second player.
	ErrNotStarted = errors.New("host: game not started")
	// ErrNotOver: the step needs a finished game (a rematch) and this one is still going.
	ErrNotOver = errors.New("host: game not over")
	// ErrConflict: the game changed twice while the step ran; nothing was applied, and
	// tapping again is enough.
	ErrConflict = errors.New("host: conflict, try again")
	// ErrAlreadyPlaying: the chat (or the user's private chat) already has a game in play or a
	// lobby open; finish or resign it first.
	ErrAlreadyPlaying = errors.New("host: a game is already in progress")
	// ErrOpponentBusy: the other player's chat has another game in play (the creator of an
	// invitation, the opponent of a rematch); the lobby or finished game stays as it was.
	ErrOpponentBusy = errors.New("host: the other player is in another game")
	// ErrOwnLobby: the creator of a lobby tried to join it.
	ErrOwnLobby = errors.New("host: cannot join your own game")
	// ErrLobbyTaken: the lobby already has its second player.
	ErrLobbyTaken = errors.New("host: the game already has two players")
	// ErrNotAIGame: the step (undo, hint) exists only in games against the AI.
	ErrNotAIGame = errors.New("host: only in games against the AI")
	// ErrNoHint: hints are offered only on the lower AI levels (1 to MaxHintLevel).
	ErrNoHint = errors.New("host: no hints at this level")
	// ErrNothingToUndo: the player has no move to take back.
	ErrNothingToUndo = errors.New("host: nothing to undo")
	// ErrNotIdle: the opponent has not been idle long enough to claim the game (see IdleError),
	// or it is the claimant's own turn.
	ErrNotIdle = errors.New("host: the opponent is not idle")
	// ErrPeopleOnly: the step (claiming an idle game) exists only in games between people.
	ErrPeopleOnly = errors.New("host: only in games between people")
	// ErrBadSize: the board size is not one of Sizes.
	ErrBadSize = errors.New("host: unsupported board size")
	// ErrBadLevel: the AI level is not 1 to MaxLevel.
	ErrBadLevel = errors.New("host: unsupported AI level")
	// ErrBadRequest: the request is malformed (a missing chat, an unknown flow...).
	ErrBadRequest = errors.New("host: bad request")
	// ErrBusy: the AI pool is closed or the caller's context ended before the AI answered;
	// the game stays with the AI to move, and AIReply may be called again.
	ErrBusy = errors.New("host: the AI is busy")
	// ErrCorrupt: the stored game cannot be replayed. It should never happen.
	ErrCorrupt = errors.New("host: stored game is corrupt")
	// ErrSetAside: the game's record could not be read (it does not decode, or replays to an
	// illegal move), so it was taken out of play and kept for the operator (see SetAsideError);
	// its chats are free for a new game. Unlike the others, this error changed something.
	ErrSetAside = errors.New("host: the game could not be read and was set aside")
)

// IdleError is the ErrNotIdle of ClaimIdle when the opponent is to move but has not been idle
// long enough: Left is how long the claimant still has to wait.
type IdleError struct{ Left time.Duration }

// Error describes the wait.
func (e *IdleError) Error() string {
	return fmt.Sprintf("host: the opponent is not idle (claim possible in %v)", e.Left.Round(time.Second))
}

// Is makes errors.Is(err, ErrNotIdle) true.
func (e *IdleError) Is(target error) bool { return target == ErrNotIdle }

// codes pairs every sentinel with its code.
var codes = []struct {
	err  error
	code string
}{
	{ErrNoGame, "no_game"},
	{ErrNotYourGame, "not_your_game"},
	{ErrNotYourTurn, "not_your_turn"},
	{ErrStale, "stale"},
	{ErrOffBoard, "off_board"},
	{ErrOccupied, "occupied"},
	{ErrIllegal, "illegal"},
	{ErrGameOver, "game_over"},
	{ErrNotStarted, "not_started"},
	{ErrNotOver, "not_over"},
	{ErrConflict, "conflict"},
	{ErrAlreadyPlaying, "already_playing"},
	{ErrOpponentBusy, "opponent_busy"},
	{ErrOwnLobby, "own_lobby"},
	{ErrLobbyTaken, "lobby_taken"},
	{ErrNotAIGame, "not_ai_game"},
	{ErrNoHint, "no_hint"},
	{ErrNothingToUndo, "nothing_to_undo"},
	{ErrNotIdle, "not_idle"},
	{ErrPeopleOnly, "people_only"},
	{ErrBadSize, "bad_size"},
	{ErrBadLevel, "bad_level"},
	{ErrBadRequest, "bad_request"},
	{ErrBusy, "busy"},
	{ErrSetAside, "set_aside"}, // before ErrCorrupt, which a replay's SetAsideError wraps
	{ErrCorrupt, "internal"},
}

// Code returns the short code of err ("not_your_turn", "stale", ...) for the Telegram layer to
// look up a message by; "internal" for nil-safe unknown errors (storage down, bugs), "" for nil.
// Codes lists every code it can return.
func Code(err error) string {
	if err == nil {
		return ""
	}
	for _, c := range codes {
		if errors.Is(err, c.err) {
			return c.code
		}
	}
	return "internal"
}

// Codes returns every code Code can return, so a test can check that each has a text.
func Codes() []string {
	out := make([]string, 0, len(codes))
	for _, c := range codes {
		out = append(out, c.code)
	}
	return out
}
