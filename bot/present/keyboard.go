package present

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/go-telegram/bot/models"
	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/render"
)

// Telegram's limits on an inline keyboard.
const (
	MaxRowButtons = 8   // buttons in one row
	MaxButtons    = 100 // buttons in one keyboard
)

// The marks of the empty squares of a board drawn as buttons; a disc shows render.BlackDisc or
// render.WhiteDisc, the hint render.HintMark. Only the disc symbols contain a disc (⚫ U+26AB,
// ⚪ U+26AA), and every disc shows one of them, also the last one placed: a reader of the board
// (a player, a test, the load tool) tells a disc's colour by them alone. So the last move is not
// marked on the keyboard; the status text names it and says where it lies (render.Status), and
// the picture marks it with a red dot.
const (
	LegalMark = "•"      // an empty square where the player to move may play (U+2022)
	EmptyMark = "\u2800" // any other empty square (a blank that Telegram does not trim)
)

// Errors of the keyboard builders; test them with errors.Is.
var (
	ErrKeyboard        = errors.New("render: keyboard breaks Telegram's limits")
	ErrKeyboardTooBig  = errors.New("render: board too big for a keyboard")
	ErrTooManyControls = errors.New("render: control rows leave no room for the board")
)

// KeyboardOptions says what a keyboard's buttons carry besides the board.
type KeyboardOptions struct {
	// Game is the storage id put in every button's callback data (see Callback.Game); one
	// that Callback.Validate rejects makes the builders fail with ErrCallback.
	Game string
	// Controls are rows of buttons placed after the board or the move list: resign, hint,
	// undo, rematch… Each row must hold 1…8 valid buttons.
	Controls [][]models.InlineKeyboardButton
	// Prev and Next label the move picker's navigation buttons; empty means "◀" and "▶".
	Prev, Next string
	// HideMoves leaves out the legal-move and hint marks, for a viewer who may not move now
	// (the opponent or the AI is to move); the squares still carry their moves, so that a
	// tap is told why it cannot be played.
	HideMoves bool
	// Over draws the board of a game that has ended though its position has moves left (a
	// resignation, a claim): no marks, and every square an ActionNoop.
	Over bool
	// Version is the version of the stored game the board is drawn from (a store's count of
	// the game's writes, which only grows): every move button carries it in Callback.Arg, so
	// that a tap on a board the store is now behind (writes lost in a Redis failover) can be
	// told from one on an older board. 0, or one above MaxCallbackNumber, carries none.
	Version int64
}

// versionArg is the Callback.Arg of the move buttons of a board drawn with opt: its Version,
// or 0 when it has none that fits.
func (opt KeyboardOptions) versionArg() int {
	if opt.Version <= 0 || opt.Version > callback.MaxNumber {
		return 0
	}
	return int(opt.Version)
}

// FitsKeyboard reports whether a board of the given size can be drawn as buttons by Keyboard.
func FitsKeyboard(size int) bool { return engine.ValidSize(size) && size <= render.MaxKeyboardSize }

// Keyboard draws the board of v as an inline keyboard followed by opt.Controls. Its first
// Size rows hold Size buttons each, row 1 at the top and column a on the left: a black disc
// shows BlackDisc, a white one WhiteDisc, the empty square of v's hint (View.Hint) HintMark,
// any other empty square where the player to move may play LegalMark and any other empty square
// EmptyMark.
// An empty square's button carries an ActionMove callback (the bot checks legality and can tell
// the player why a move is illegal) while the game goes on; an occupied square's, and every
// square's once the game is over, an ActionNoop; both name the square, opt.Game and v.Ply, and
// a move also the tag of v's position (Callback.Pos), so that it is played on that position
// only, and opt.Version (Callback.Arg).
// It fails with ErrKeyboardTooBig for boards bigger than MaxKeyboardSize, ErrSize for a View
// without a valid board, and ErrTooManyControls or ErrKeyboard when the controls do not fit
// Telegram's limits.
func Keyboard(v render.View, opt KeyboardOptions) (models.InlineKeyboardMarkup, error) {
	p := v.Position
	n := p.Size()
	if !engine.ValidSize(n) {
		return models.InlineKeyboardMarkup{}, fmt.Errorf("%w: %d", render.ErrSize, n)
	}
	if !FitsKeyboard(n) {
		return models.InlineKeyboardMarkup{}, fmt.Errorf("%w: %d×%d", ErrKeyboardTooBig, n, n)
	}
	if err := callback.CheckGameID(opt.Game); err != nil {
		return models.InlineKeyboardMarkup{}, err
	}
	if err := checkControls(opt.Controls, n*n); err != nil {
		return models.InlineKeyboardMarkup{}, err
	}
	over := p.GameOver() || opt.Over
	legal, tag := p.Moves(), p.Tag()
	hint, hinted := v.Hint()
	if opt.HideMoves || over {
		legal, hinted = engine.Set{}, false
	}
	rows := make([][]models.InlineKeyboardButton, 0, n+len(opt.Controls))
	buttons := make([]models.InlineKeyboardButton, n*n)
	for r := 0; r < n; r++ {
		row := buttons[r*n : (r+1)*n : (r+1)*n]
		for c := 0; c < n; c++ {
			sq := engine.SquareAt(c, r)
			cb := callback.Data{Action: callback.ActionNoop, Game: opt.Game, Ply: v.Ply, Square: sq}
			var text string
			if col, ok := p.At(sq); ok {
				text = render.BlackDisc
				if col == engine.White {
					text = render.WhiteDisc
				}
			} else {
				switch {
				case hinted && sq == hint:
					text = render.HintMark
				case legal.Has(sq):
					text = LegalMark
				default:
					text = EmptyMark
				}
				if !over {
					cb.Action, cb.Pos, cb.Arg = callback.ActionMove, tag, opt.versionArg()
				}
			}
			row[c] = models.InlineKeyboardButton{Text: text, CallbackData: cb.Encode()}
		}
		rows = append(rows, row)
	}
	rows = append(rows, copyRows(opt.Controls)...)
	return models.InlineKeyboardMarkup{InlineKeyboard: rows}, nil
}

// MovePicker returns the keyboard of a board drawn as a picture: one button per legal move of
// the player to move, in the order of Position.LegalMoves (square order, row 1 first), carrying
// an ActionMove callback (opt.Game, v.Ply, the tag of v's position and opt.Version) and showing the move's label (MoveLabel, the number
// the picture writes in its cell), a space, a middle dot (U+00B7), a space and the square's
// name: "7 · k12" (a move past MaxMoveLabels shows the name alone; so does every move when
// opt.HideMoves, since the picture of a viewer who may not move labels none). The labels count on from
// page to page: the first move of page 2 follows the last of page 1. The buttons come in rows
// of at most 5 (as even as may be: 6 moves make two rows of 3), followed by a navigation row
// when the moves need more than one page, then opt.Controls. A page holds at most 64 moves, a
// multiple of 8 when it holds 8 or more, and never so many that the keyboard passes 100
// buttons; the navigation row is prev, "page/pages" (a noop) and next,
// where prev and next carry ActionPage callbacks (naming v's position as the moves do) and are
// blank noops at the ends. A page out
// of range shows the nearest page. It works for every size (the player to move may have no
// moves: then only the controls remain) and fails with ErrSize for a View without a valid
// board and with ErrTooManyControls or ErrKeyboard when the controls do not fit Telegram's
// limits.
func MovePicker(v render.View, page int, opt KeyboardOptions) (models.InlineKeyboardMarkup, error) {
	if n := v.Position.Size(); !engine.ValidSize(n) {
		return models.InlineKeyboardMarkup{}, fmt.Errorf("%w: %d", render.ErrSize, n)
	}
	if err := callback.CheckGameID(opt.Game); err != nil {
		return models.InlineKeyboardMarkup{}, err
	}
	// The fewest buttons a picker needs besides the controls: one move and its navigation.
	if err := checkControls(opt.Controls, 0); err != nil {
		return models.InlineKeyboardMarkup{}, err
	}
	moves := v.Position.LegalMoves()
	perPage, pages, err := pickerPages(len(moves), countButtons(opt.Controls))
	if err != nil {
		return models.InlineKeyboardMarkup{}, err
	}
	page = max(0, min(page, pages-1))
	lo, hi := page*perPage, min(len(moves), (page+1)*perPage)
	shown := moves[lo:hi]
	tag := v.Position.Tag()
	buttons := make([]models.InlineKeyboardButton, len(shown))
	for i, sq := range shown {
		cb := callback.Data{Action: callback.ActionMove, Game: opt.Game, Ply: v.Ply, Square: sq, Pos: tag, Arg: opt.versionArg()}
		text := pickerText(lo+i, sq)
		if opt.HideMoves {
			text = sq.String() // the picture of this viewer labels nothing
		}
		buttons[i] = models.InlineKeyboardButton{Text: text, CallbackData: cb.Encode()}
	}
	rows := pickerRows(buttons, 1+len(opt.Controls))
	if pages > 1 {
		prev, next := opt.Prev, opt.Next
		if prev == "" {
			prev = "◀"
		}
		if next == "" {
			next = "▶"
		}
		nav := func(text string, to int) models.InlineKeyboardButton {
			cb := callback.Data{Action: callback.ActionPage, Game: opt.Game, Ply: v.Ply, Page: to, Pos: tag}
			if to < 0 || to >= pages {
				text, cb = EmptyMark, callback.Data{Action: callback.ActionNoop, Game: opt.Game, Ply: v.Ply, Page: page}
			}
			return models.InlineKeyboardButton{Text: text, CallbackData: cb.Encode()}
		}
		label := callback.Data{Action: callback.ActionNoop, Game: opt.Game, Ply: v.Ply, Page: page}
		rows = append(rows, []models.InlineKeyboardButton{
			nav(prev, page-1),
			{Text: strconv.Itoa(page+1) + "/" + strconv.Itoa(pages), CallbackData: label.Encode()},
			nav(next, page+1),
		})
	}
	rows = append(rows, copyRows(opt.Controls)...)
	return models.InlineKeyboardMarkup{InlineKeyboard: rows}, nil
}

// pickerNav is the number of buttons of the move picker's navigation row.
const pickerNav = 3

// pickerRowButtons is the most move buttons in a row of the move picker: fewer than Telegram
// allows (MaxRowButtons), so that a text like "17 · k12" fits a button on a phone.
const pickerRowButtons = 5

// pickerRows splits the move buttons into rows of at most pickerRowButtons, as even as may be
// (the first rows hold one more than the last when they cannot all hold as many), with room
// for extra more rows.
func pickerRows(buttons []models.InlineKeyboardButton, extra int) [][]models.InlineKeyboardButton {
	n := (len(buttons) + pickerRowButtons - 1) / pickerRowButtons
	rows := make([][]models.InlineKeyboardButton, 0, n+extra)
	for r := n; r > 0; r-- {
		k := (len(buttons) + r - 1) / r // the rows left share what is left
		rows = append(rows, buttons[:k:k])
		buttons = buttons[k:]
	}
	return rows
}

// pickerText is the text of the move picker's button for the legal move sq at index i of
// Position.LegalMoves: its label, a middle dot and its name ("7 · k12"), or the name alone
// when the move has no label.
func pickerText(i int, sq engine.Square) string {
	if label := render.MoveLabel(i); label != "" {
		return label + " · " + sq.String()
	}
	return sq.String()
}

// maxPageMoves caps the moves on one page of the move picker, so that a page stays a
// manageable block of buttons.
const maxPageMoves = 64

// pageQuantum rounds the pages of the move picker: a page that can hold pageQuantum moves or
// more holds a multiple of it.
const pageQuantum = 8

// pickerPages returns how many moves go on a page and how many pages n moves need when the
// controls take ctl buttons.
func pickerPages(n, ctl int) (perPage, pages int, err error) {
	room := MaxButtons - ctl
	if n <= min(room, maxPageMoves) {
		return max(n, 1), 1, nil
	}
	perPage = min(room-pickerNav, maxPageMoves)
	if perPage >= pageQuantum {
		perPage -= perPage % pageQuantum
	}
	if perPage < 1 {
		return 0, 0, fmt.Errorf("%w: %d control buttons", ErrTooManyControls, ctl)
	}
	return perPage, (n + perPage - 1) / perPage, nil
}

// checkControls checks the caller's control rows against Telegram's limits, given the buttons
// the board itself needs; at least one more button (a move, or the navigation) must fit.
func checkControls(rows [][]models.InlineKeyboardButton, board int) error {
	if err := ValidateKeyboard(models.InlineKeyboardMarkup{InlineKeyboard: rows}); err != nil {
		return fmt.Errorf("controls: %w", err)
	}
	need := board
	if board == 0 {
		need = pickerNav + 1
	}
	if n := countButtons(rows); n+need > MaxButtons {
		return fmt.Errorf("%w: %d control buttons and %d for the board", ErrTooManyControls, n, need)
	}
	return nil
}

func countButtons(rows [][]models.InlineKeyboardButton) int {
	n := 0
	for _, r := range rows {
		n += len(r)
	}
	return n
}

// copyRows copies the caller's rows so that the returned keyboard shares nothing with them.
func copyRows(rows [][]models.InlineKeyboardButton) [][]models.InlineKeyboardButton {
	out := make([][]models.InlineKeyboardButton, len(rows))
	for i, r := range rows {
		out[i] = append([]models.InlineKeyboardButton(nil), r...)
	}
	return out
}

// ValidateKeyboard reports whether m respects Telegram's limits: every row holds 1…8 buttons,
// at most 100 buttons in all, every button has a non-blank text of valid UTF-8 and exactly
// one action (callback data, a URL, an inline query switch, a text to copy…), its
// callback_data at most 64 bytes and its text to copy 1…256 characters. The error wraps
// ErrKeyboard and names the first offending button.
func ValidateKeyboard(m models.InlineKeyboardMarkup) error {
	total := 0
	for i, row := range m.InlineKeyboard {
		if len(row) == 0 || len(row) > MaxRowButtons {
			return fmt.Errorf("%w: row %d has %d buttons", ErrKeyboard, i, len(row))
		}
		total += len(row)
		for j, b := range row {
			if err := validateButton(b); err != nil {
				return fmt.Errorf("%w: button %d of row %d: %s", ErrKeyboard, j, i, err)
			}
		}
	}
	if total > MaxButtons {
		return fmt.Errorf("%w: %d buttons, more than %d", ErrKeyboard, total, MaxButtons)
	}
	return nil
}

func validateButton(b models.InlineKeyboardButton) error {
	if !utf8.ValidString(b.Text) || blank(b.Text) {
		return fmt.Errorf("text %q is blank or not UTF-8", b.Text)
	}
	if len(b.CallbackData) > callback.MaxLen {
		return fmt.Errorf("callback data of %d bytes", len(b.CallbackData))
	}
	if n := utf16Units(b.CopyText.Text); n > MaxCopyTextLen {
		return fmt.Errorf("a text to copy of %d characters", n)
	}
	actions := 0
	for _, set := range [...]bool{b.CallbackData != "", b.URL != "", b.WebApp != nil, b.LoginURL != nil,
		b.SwitchInlineQuery != "", b.SwitchInlineQueryCurrentChat != "", b.SwitchInlineQueryChosenChat != nil,
		b.CopyText.Text != "", b.CallbackGame != nil, b.Pay} {
		if set {
			actions++
		}
	}
	switch {
	case actions == 0:
		return errors.New("no action (callback data, a URL, ...)")
	case actions > 1:
		return fmt.Errorf("%d actions, where Telegram takes exactly one", actions)
	}
	return nil
}

// MaxCopyTextLen is the longest text a button may copy, in Telegram's characters (UTF-16 units).
const MaxCopyTextLen = 256

// utf16Units is the length of s as Telegram counts it: UTF-16 code units.
func utf16Units(s string) int {
	n := 0
	for _, r := range s {
		n += max(utf16.RuneLen(r), 1) // invalid bytes decode to U+FFFD: one unit
	}
	return n
}

// blank reports whether s is empty or only ASCII white space, which Telegram trims away.
func blank(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
		default:
			return false
		}
	}
	return true
}

// Markup returns the keyboard that goes with the board of v: the board itself (Keyboard) when
// it fits in buttons, otherwise the move picker (MovePicker) at the given page, in which case
// picture is true and the board must be sent as an image (EncodePNG).
func Markup(v render.View, page int, opt KeyboardOptions) (kb models.InlineKeyboardMarkup, picture bool, err error) {
	if FitsKeyboard(v.Position.Size()) {
		kb, err = Keyboard(v, opt)
		return kb, false, err
	}
	kb, err = MovePicker(v, page, opt)
	return kb, true, err
}
