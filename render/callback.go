package render

import (
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/reversibot/reversi/engine"
)

// CallbackVersion is the version of the callback-data format that Encode writes. It is the
// first byte of every encoded callback; ParseCallback rejects any other.
const CallbackVersion = '1'

// MaxCallbackLen is Telegram's limit on callback_data in bytes. Encode never exceeds it.
const MaxCallbackLen = 64

// MaxGameID is the longest game id a Callback may carry.
const MaxGameID = 12

// MaxCallbackNumber bounds Ply, Page and Arg of a Callback.
const MaxCallbackNumber = math.MaxInt32

// MaxCallbackPos bounds Pos of a Callback: the largest position tag (engine.MaxTag).
const MaxCallbackPos = engine.MaxTag

// CallbackMACLen is the length in bytes of the MAC of a signed Callback (96 bits): see
// CallbackSigner.
const CallbackMACLen = 12

// macSep starts the MAC of a signed callback in its encoding; no other field holds it.
const macSep = '.'

// Errors of ParseCallback and Callback.Validate. Every error they return wraps ErrCallback;
// a callback of an unknown format version also wraps ErrCallbackVersion.
var (
	ErrCallback        = errors.New("render: invalid callback data")
	ErrCallbackVersion = errors.New("render: unknown callback data version")
)

// Action is what a button asks the bot to do.
type Action uint8

// The actions a button can carry. The comment after each says how Callback's fields are used
// by the buttons this package makes; callers may use the fields of their own buttons as they
// see fit, within the limits that Validate checks.
const (
	ActionNoop    Action = iota // a tap that changes nothing: an occupied square, a label (Square: the square)
	ActionMove                  // play Square in Game, drawn at Ply on the position Pos from the game's version Arg (0: not named)
	ActionPage                  // show page Page of the move picker of Game, drawn at Ply on the position Pos
	ActionResign                // resign Game: Arg is the step (ResignAsk, ResignYes, ResignNo), Page the asker's side+1, Pos the position asked on
	ActionHint                  // ask for a hint in Game
	ActionUndo                  // take back a move in Game, drawn on the position Pos
	ActionRematch               // a new game against the same opponent: Arg is the step (RematchOffer, …)
	ActionJoin                  // join the invitation Game (the first button of invitations)
	ActionClaim                 // claim the win of Game when the opponent is idle
	ActionSize                  // AI menu: board size Arg
	ActionLevel                 // AI menu: level Arg
	ActionColor                 // AI menu: colour Arg
	ActionCancel                // cancel a menu, a lobby or a search
	ActionLang                  // choose language Arg
	ActionMenu                  // open menu step Arg
	ActionRefresh               // post the board of Game again
	ActionReview                // review the finished Game: its replay and the engine's analysis
	numActions
)

// The steps of ActionResign, in Arg: a tap on Resign asks whether the player means it, and
// the answer comes back as Yes or No with Page the asking player's side plus one (1 black,
// 2 white), so that only that player's answer counts. Resign buttons drawn before the
// question existed carry Arg 0: they ask.
const (
	ResignAsk = 0
	ResignYes = 1
	ResignNo  = 2
)

// The steps of ActionRematch, in Arg: offer a rematch (against the AI: start it), accept the
// other player's offer, or decline it (the player who offered withdraws it). Rematch buttons
// drawn before offers existed carry Arg 0: they offer.
const (
	RematchOffer   = 0
	RematchAccept  = 1
	RematchDecline = 2
)

// actionCodes holds the byte that stands for each action in encoded callback data.
const actionCodes = "nmprhuajcslkxgebv"

var actionNames = [numActions]string{
	"noop", "move", "page", "resign", "hint", "undo", "rematch", "join", "claim",
	"size", "level", "color", "cancel", "lang", "menu", "refresh", "review",
}

// String returns the action's name ("move", "resign", …).
func (a Action) String() string {
	if a < numActions {
		return actionNames[a]
	}
	return "Action(" + strconv.Itoa(int(a)) + ")"
}

// Callback is the decoded content of a button's callback_data. Anyone can send any callback
// data, so a parsed Callback is well-formed but not trusted: the bot must check that the game
// exists, that the player may act in it and that Pos (or Ply) is current.
type Callback struct {
	Action Action
	// Game is the storage id of the game, lobby or menu: at most MaxGameID characters from
	// [A-Za-z0-9_-]; empty when the action needs none.
	Game string
	// Ply is the game's ply when the board was drawn (engine.Game.Ply: the discs placed, passes
	// not counted), so that a tap on an old board can be told from a current one.
	Ply int
	// Pos is the tag of the position the board showed (engine.Position.Tag), for the actions
	// that act on that position (a move, a page of the move picker, undo, the answer to
	// "Resign?"): unlike Ply it tells apart two boards of the same ply, as after an undo and
	// another line. 0 names no position: the data of other actions, and of buttons drawn
	// before Pos existed (the format's version did not change: such data has four fields).
	Pos uint64
	// Square is the board square of a move or of a tapped cell (0…255, engine.Square numbering).
	Square engine.Square
	// Page is the page of a paged keyboard, from 0.
	Page int
	// Arg carries a choice: a size, a level, a colour, a language, a confirmation step.
	Arg int
	// MAC is empty, or the CallbackMACLen bytes with which a CallbackSigner signed the other
	// fields. ParseCallback only checks its form: CallbackSigner.Verify checks it.
	MAC string
}

// Validate reports whether c can be encoded: a known action, a game id of at most MaxGameID
// characters from [A-Za-z0-9_-], Ply, Page and Arg in 0…MaxCallbackNumber, Square in 0…255,
// Pos in 0…MaxCallbackPos and a MAC that is empty or CallbackMACLen bytes long. The error
// wraps ErrCallback.
func (c Callback) Validate() error {
	if c.Action >= numActions {
		return fmt.Errorf("%w: unknown action %d", ErrCallback, c.Action)
	}
	if len(c.MAC) != 0 && len(c.MAC) != CallbackMACLen {
		return fmt.Errorf("%w: MAC of %d bytes", ErrCallback, len(c.MAC))
	}
	if err := checkGameID(c.Game); err != nil {
		return err
	}
	if !c.Square.Valid() {
		return fmt.Errorf("%w: square %d", ErrCallback, int(c.Square))
	}
	for _, n := range [...]int{c.Ply, c.Page, c.Arg} {
		if n < 0 || n > MaxCallbackNumber {
			return fmt.Errorf("%w: number %d out of range", ErrCallback, n)
		}
	}
	if c.Pos > MaxCallbackPos {
		return fmt.Errorf("%w: position tag %d out of range", ErrCallback, c.Pos)
	}
	return nil
}

func checkGameID(id string) error {
	if len(id) > MaxGameID {
		return fmt.Errorf("%w: game id longer than %d", ErrCallback, MaxGameID)
	}
	for i := 0; i < len(id); i++ {
		if !idByte(id[i]) {
			return fmt.Errorf("%w: byte %q in game id", ErrCallback, id[i])
		}
	}
	return nil
}

func idByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_' || b == '-'
}

// Encode returns the callback data of c: the version byte, the action byte, then the game id,
// Ply, Square, Page, Arg and Pos separated by ':', numbers in lower-case base 36, zeros and
// the empty game id written as nothing, trailing empty fields left out ("1mAb3:h:z" plays d3
// at ply 17, "1mAb3:h:z:::2bq7cd1f" on the position of tag 2bq7cd1f); then, for a signed
// callback, '.' and the MAC in unpadded base64url (16 bytes). It is at most 47 bytes unsigned
// and 64 signed, so always within MaxCallbackLen, and ParseCallback(c.Encode()) returns c. A Callback that fails Validate encodes as a plain noop
// ("1n") rather than as something that would not parse.
func (c Callback) Encode() string {
	if c.Validate() != nil {
		c = Callback{}
	}
	var buf [MaxCallbackLen]byte
	return string(c.appendTo(buf[:0]))
}

// appendTo appends the encoding of c, which must be valid, to b.
func (c Callback) appendTo(b []byte) []byte {
	b = append(b, CallbackVersion, actionCodes[c.Action])
	b = append(b, c.Game...)
	fields := [numFields]uint64{uint64(c.Ply), uint64(c.Square), uint64(c.Page), uint64(c.Arg), c.Pos}
	last := len(fields) - 1
	for last >= 0 && fields[last] == 0 {
		last--
	}
	for _, n := range fields[:last+1] {
		b = append(b, ':')
		if n != 0 {
			b = strconv.AppendUint(b, n, 36)
		}
	}
	if c.MAC != "" {
		b = append(b, macSep)
		b = base64.RawURLEncoding.AppendEncode(b, []byte(c.MAC))
	}
	return b
}

// ParseCallback decodes callback data written by Callback.Encode. It accepts exactly the
// strings Encode can produce, so Encode(ParseCallback(data)) == data for every accepted data;
// anything else is an error wrapping ErrCallback (and ErrCallbackVersion when the version
// byte is not CallbackVersion). It never panics.
func ParseCallback(data string) (Callback, error) {
	var c Callback
	if data == "" {
		return c, fmt.Errorf("%w: empty", ErrCallback)
	}
	if len(data) > MaxCallbackLen {
		return c, fmt.Errorf("%w: %d bytes, more than %d", ErrCallback, len(data), MaxCallbackLen)
	}
	if data[0] != CallbackVersion {
		return c, fmt.Errorf("%w: %w %q", ErrCallback, ErrCallbackVersion, data[0])
	}
	if len(data) < 2 {
		return c, fmt.Errorf("%w: no action", ErrCallback)
	}
	a := strings.IndexByte(actionCodes, data[1])
	if a < 0 {
		return c, fmt.Errorf("%w: unknown action %q", ErrCallback, data[1])
	}
	c.Action = Action(a)
	rest := data[2:]
	if i := strings.IndexByte(rest, macSep); i >= 0 {
		mac, err := parseMAC(rest[i+1:])
		if err != nil {
			return Callback{}, err
		}
		rest, c.MAC = rest[:i], mac
	}
	game, rest, hasFields := strings.Cut(rest, ":")
	if err := checkGameID(game); err != nil {
		return Callback{}, err
	}
	c.Game = game
	var fields [numFields]uint64
	n := 0
	for hasFields {
		if n == len(fields) {
			return Callback{}, fmt.Errorf("%w: too many fields", ErrCallback)
		}
		var f string
		f, rest, hasFields = strings.Cut(rest, ":")
		max := uint64(MaxCallbackNumber)
		if n == posField {
			max = MaxCallbackPos
		}
		v, err := parseNumber(f, max)
		if err != nil {
			return Callback{}, err
		}
		fields[n] = v
		n++
	}
	if n > 0 && fields[n-1] == 0 {
		return Callback{}, fmt.Errorf("%w: trailing empty field", ErrCallback)
	}
	if fields[1] > 255 {
		return Callback{}, fmt.Errorf("%w: square %d", ErrCallback, fields[1]) // before Square's int16 wraps it
	}
	c.Ply, c.Square, c.Page, c.Arg = int(fields[0]), engine.Square(fields[1]), int(fields[2]), int(fields[3])
	c.Pos = fields[posField]
	if err := c.Validate(); err != nil {
		return Callback{}, err
	}
	return c, nil
}

// parseMAC reads the MAC of a signed callback as Encode writes it.
func parseMAC(s string) (string, error) {
	if len(s) != base64.RawURLEncoding.EncodedLen(CallbackMACLen) {
		return "", fmt.Errorf("%w: MAC of %d characters", ErrCallback, len(s))
	}
	// 16 characters carry exactly 96 bits, so a text that decodes to 12 bytes is the one
	// Encode writes (the decoder skips newlines: those decode to fewer bytes).
	mac, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(mac) != CallbackMACLen {
		return "", fmt.Errorf("%w: MAC %q", ErrCallback, s)
	}
	return string(mac), nil
}

// The numeric fields after the game id, in order: Ply, Square, Page, Arg and Pos.
const (
	numFields = 5
	posField  = 4
)

// parseNumber reads a field as Encode writes it: empty for zero, otherwise lower-case base 36
// without leading zeros, at most max.
func parseNumber(f string, max uint64) (uint64, error) {
	if f == "" {
		return 0, nil
	}
	if f[0] == '0' {
		return 0, fmt.Errorf("%w: leading zero in %q", ErrCallback, f)
	}
	for i := 0; i < len(f); i++ {
		if !(f[i] >= '0' && f[i] <= '9' || f[i] >= 'a' && f[i] <= 'z') {
			return 0, fmt.Errorf("%w: bad number %q", ErrCallback, f)
		}
	}
	v, err := strconv.ParseUint(f, 36, 64)
	if err != nil || v > max {
		return 0, fmt.Errorf("%w: number %q out of range", ErrCallback, f)
	}
	return v, nil
}
