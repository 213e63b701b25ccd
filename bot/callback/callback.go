// Package callback is the wire format of the bot's buttons: the callback data a button carries
// (Data: an action, a game, the position it was drawn for), its compact encoding within
// Telegram's 64 bytes, its strict parser, and the MAC (Signer) that lets the bot tell the data it
// wrote from data anyone can send.
package callback

import (
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/reversibot/reversi/engine"
)

// Version is the version of the callback-data format that Encode writes. It is the
// first byte of every encoded callback; Parse rejects any other.
const Version = '1'

// MaxLen is Telegram's limit on callback_data in bytes. Encode never exceeds it.
const MaxLen = 64

// MaxGameID is the longest game id a Data may carry.
const MaxGameID = 12

// MaxNumber bounds Ply, Page and Arg of a Data.
const MaxNumber = math.MaxInt32

// MaxPos bounds Pos of a Data: the largest position tag (engine.MaxTag).
const MaxPos = engine.MaxTag

// MACLen is the length in bytes of the MAC of a signed Data (96 bits): see
// Signer.
const MACLen = 12

// macSep starts the MAC of a signed callback in its encoding; no other field holds it.
const macSep = '.'

// Errors of Parse and Data.Validate. Every error they return wraps ErrData;
// a callback of an unknown format version also wraps ErrVersion.
var (
	ErrData    = errors.New("callback: invalid callback data")
	ErrVersion = errors.New("callback: unknown callback data version")
)

// Action is what a button asks the bot to do.
type Action uint8

// The actions a button can carry. The comment after each says how Data's fields are used
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

// Data is the decoded content of a button's callback_data. Anyone can send any callback
// data, so a parsed Data is well-formed but not trusted: the bot must check that the game
// exists, that the player may act in it and that Pos (or Ply) is current.
type Data struct {
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
	// MAC is empty, or the MACLen bytes with which a Signer signed the other
	// fields. Parse only checks its form: Signer.Verify checks it.
	MAC string
}

// Validate reports whether c can be encoded: a known action, a game id of at most MaxGameID
// characters from [A-Za-z0-9_-], Ply, Page and Arg in 0…MaxNumber, Square in 0…255,
// Pos in 0…MaxPos and a MAC that is empty or MACLen bytes long. The error
// wraps ErrData.
func (c Data) Validate() error {
	if c.Action >= numActions {
		return fmt.Errorf("%w: unknown action %d", ErrData, c.Action)
	}
	if len(c.MAC) != 0 && len(c.MAC) != MACLen {
		return fmt.Errorf("%w: MAC of %d bytes", ErrData, len(c.MAC))
	}
	if err := CheckGameID(c.Game); err != nil {
		return err
	}
	if !c.Square.Valid() {
		return fmt.Errorf("%w: square %d", ErrData, int(c.Square))
	}
	for _, n := range [...]int{c.Ply, c.Page, c.Arg} {
		if n < 0 || n > MaxNumber {
			return fmt.Errorf("%w: number %d out of range", ErrData, n)
		}
	}
	if c.Pos > MaxPos {
		return fmt.Errorf("%w: position tag %d out of range", ErrData, c.Pos)
	}
	return nil
}

// CheckGameID checks that id can be carried as Data.Game: at most MaxGameID bytes of letters,
// digits, '_' and '-'. Its error wraps ErrData.
func CheckGameID(id string) error {
	if len(id) > MaxGameID {
		return fmt.Errorf("%w: game id longer than %d", ErrData, MaxGameID)
	}
	for i := 0; i < len(id); i++ {
		if !idByte(id[i]) {
			return fmt.Errorf("%w: byte %q in game id", ErrData, id[i])
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
// and 64 signed, so always within MaxLen, and Parse(c.Encode()) returns c. A Data that fails Validate encodes as a plain noop
// ("1n") rather than as something that would not parse.
func (c Data) Encode() string {
	if c.Validate() != nil {
		c = Data{}
	}
	var buf [MaxLen]byte
	return string(c.appendTo(buf[:0]))
}

// appendTo appends the encoding of c, which must be valid, to b.
func (c Data) appendTo(b []byte) []byte {
	b = append(b, Version, actionCodes[c.Action])
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

// Parse decodes callback data written by Data.Encode. It accepts exactly the
// strings Encode can produce, so Encode(Parse(data)) == data for every accepted data;
// anything else is an error wrapping ErrData (and ErrVersion when the version
// byte is not Version). It never panics.
func Parse(data string) (Data, error) {
	var c Data
	if data == "" {
		return c, fmt.Errorf("%w: empty", ErrData)
	}
	if len(data) > MaxLen {
		return c, fmt.Errorf("%w: %d bytes, more than %d", ErrData, len(data), MaxLen)
	}
	if data[0] != Version {
		return c, fmt.Errorf("%w: %w %q", ErrData, ErrVersion, data[0])
	}
	if len(data) < 2 {
		return c, fmt.Errorf("%w: no action", ErrData)
	}
	a := strings.IndexByte(actionCodes, data[1])
	if a < 0 {
		return c, fmt.Errorf("%w: unknown action %q", ErrData, data[1])
	}
	c.Action = Action(a)
	rest := data[2:]
	if i := strings.IndexByte(rest, macSep); i >= 0 {
		mac, err := parseMAC(rest[i+1:])
		if err != nil {
			return Data{}, err
		}
		rest, c.MAC = rest[:i], mac
	}
	game, rest, hasFields := strings.Cut(rest, ":")
	if err := CheckGameID(game); err != nil {
		return Data{}, err
	}
	c.Game = game
	var fields [numFields]uint64
	n := 0
	for hasFields {
		if n == len(fields) {
			return Data{}, fmt.Errorf("%w: too many fields", ErrData)
		}
		var f string
		f, rest, hasFields = strings.Cut(rest, ":")
		max := uint64(MaxNumber)
		if n == posField {
			max = MaxPos
		}
		v, err := parseNumber(f, max)
		if err != nil {
			return Data{}, err
		}
		fields[n] = v
		n++
	}
	if n > 0 && fields[n-1] == 0 {
		return Data{}, fmt.Errorf("%w: trailing empty field", ErrData)
	}
	if fields[1] > 255 {
		return Data{}, fmt.Errorf("%w: square %d", ErrData, fields[1]) // before Square's int16 wraps it
	}
	c.Ply, c.Square, c.Page, c.Arg = int(fields[0]), engine.Square(fields[1]), int(fields[2]), int(fields[3])
	c.Pos = fields[posField]
	if err := c.Validate(); err != nil {
		return Data{}, err
	}
	return c, nil
}

// parseMAC reads the MAC of a signed callback as Encode writes it.
func parseMAC(s string) (string, error) {
	if len(s) != base64.RawURLEncoding.EncodedLen(MACLen) {
		return "", fmt.Errorf("%w: MAC of %d characters", ErrData, len(s))
	}
	// 16 characters carry exactly 96 bits, so a text that decodes to 12 bytes is the one
	// Encode writes (the decoder skips newlines: those decode to fewer bytes).
	mac, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(mac) != MACLen {
		return "", fmt.Errorf("%w: MAC %q", ErrData, s)
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
		return 0, fmt.Errorf("%w: leading zero in %q", ErrData, f)
	}
	for i := 0; i < len(f); i++ {
		if !(f[i] >= '0' && f[i] <= '9' || f[i] >= 'a' && f[i] <= 'z') {
			return 0, fmt.Errorf("%w: bad number %q", ErrData, f)
		}
	}
	v, err := strconv.ParseUint(f, 36, 64)
	if err != nil || v > max {
		return 0, fmt.Errorf("%w: number %q out of range", ErrData, f)
	}
	return v, nil
}
