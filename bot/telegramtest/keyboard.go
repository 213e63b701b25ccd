package telegramtest

import (
	"strings"

	"github.com/go-telegram/bot/models"
	"github.com/reversibot/reversi/render"
)

// This file holds the fast paths of the keyboards every board carries: a decoder for the
// common shape of an inline keyboard, a comparison and an encoder that need no reflection.
// The decoder is an optimisation only: for any input it either gives exactly what the
// encoding/json path gives (the differential fuzz test checks that) or declines, and
// parseMarkup then takes that path, which also produces every error.

// fastKeyboard decodes and checks raw, a reply_markup of the form
// {"inline_keyboard":[[{...},...],...]} whose buttons use only the plain fields (text, url,
// callback_data, switch_inline_query, switch_inline_query_current_chat, copy_text, pay)
// with string (for pay, boolean) values. It returns ok false for anything else (another key
// or shape, null, an escape in a string, invalid UTF-8, a repeated key, invalid JSON) and
// for a keyboard Telegram would refuse, leaving those to encoding/json. The strings of the
// keyboard share raw's memory.
//
// canon reports whether raw is already the keyboard's JSON as keyboardJSON writes it (no
// spaces, fields in order, no empty field that it leaves out, nothing it escapes), which then
// need not be encoded again.
func fastKeyboard(raw string) (mk *models.InlineKeyboardMarkup, canon, ok bool) {
	p := scanner{s: raw}
	p.ws()
	lead := p.i
	mk, canon, ok = p.keyboard()
	end := p.i
	p.ws()
	return mk, canon && lead == 0 && end == len(p.s), ok && p.i == len(p.s)
}

// keyboard reads a reply_markup object, as fastKeyboard describes.
func (p *scanner) keyboard() (mk *models.InlineKeyboardMarkup, canon, ok bool) {
	p.loose, p.escaped = false, false
	canon = true
	if empty, ok := p.open('{'); empty || !ok {
		return nil, false, false
	}
	if k, ok := p.key(); !ok || k != "inline_keyboard" {
		return nil, false, false
	}
	// Every button is an object: the braces left bound their number, so one array holds
	// them all and the rows are slices of it.
	buttons := make([]models.InlineKeyboardButton, 0, min(strings.Count(p.s[p.i:], "{"), MaxButtons))
	mk = &models.InlineKeyboardMarkup{InlineKeyboard: make([][]models.InlineKeyboardButton, 0, 16)}
	empty, ok := p.open('[')
	for more := !empty; ok && more; more, ok = p.next(']') {
		if len(mk.InlineKeyboard) > MaxButtons {
			return nil, false, false // a giant keyboard of empty rows: the slow path
		}
		start := len(buttons)
		var rowCanon bool
		if buttons, rowCanon, ok = p.row(buttons); !ok {
			return nil, false, false
		}
		canon = canon && rowCanon && len(buttons) > start
		if len(buttons) > start {
			mk.InlineKeyboard = append(mk.InlineKeyboard, buttons[start:len(buttons):len(buttons)])
		}
	}
	if !ok {
		return nil, false, false
	}
	if more, ok := p.next('}'); more || !ok {
		return nil, false, false
	}
	return mk, canon && !empty && !p.loose && !p.escaped, true
}

// row reads one row of buttons, appending them to buttons. A row of more than
// MaxButtonsPerRow buttons, more than MaxButtons in all, or a button Telegram would refuse
// is left to the slow path, which tells which error comes first.
func (p *scanner) row(buttons []models.InlineKeyboardButton) (_ []models.InlineKeyboardButton, canon, ok bool) {
	empty, ok := p.open('[')
	start := len(buttons)
	canon = true
	for more := !empty; ok && more; more, ok = p.next(']') {
		if len(buttons)-start == MaxButtonsPerRow || len(buttons) == MaxButtons {
			return nil, false, false
		}
		buttons = append(buttons, models.InlineKeyboardButton{})
		bok, bcanon := p.button(&buttons[len(buttons)-1])
		if !bok {
			return nil, false, false
		}
		canon = canon && bcanon
	}
	return buttons, canon, ok
}

// button reads one button into b and checks it; canon reports whether its fields came in
// keyboardJSON's order and form.
func (p *scanner) button(b *models.InlineKeyboardButton) (ok, canon bool) {
	empty, ok := p.open('{')
	var h has
	last, canon := -1, true
	for more := !empty; ok && more; more, ok = p.next('}') {
		rank, fok := p.field(b, &h)
		if !fok {
			return false, false
		}
		canon = canon && rank > last
		last = rank
	}
	if !ok || checkButton(b, h, 0) != nil {
		return false, false
	}
	// keyboardJSON leaves out empty strings, an empty copy_text and a false pay (and
	// escapes what HTML would read and the line and paragraph separators: scanner.escaped).
	canon = canon && (h&hasQuery == 0 || b.SwitchInlineQuery != "") &&
		(h&hasQueryHere == 0 || b.SwitchInlineQueryCurrentChat != "") &&
		(h&hasCopy == 0 || b.CopyText.Text != "") && (h&hasPay == 0 || b.Pay)
	return true, canon
}

// fieldRank is the place of each field in keyboardJSON's output.
var fieldRank = map[string]int{
	"text": 0, "url": 1, "callback_data": 2, "switch_inline_query": 3,
	"switch_inline_query_current_chat": 4, "copy_text": 5, "pay": 6,
}

// field reads one field of a button into b; h tells which it had already. It returns the
// field's rank in keyboardJSON's order.
func (p *scanner) field(b *models.InlineKeyboardButton, h *has) (int, bool) {
	key, ok := p.key()
	if !ok {
		return 0, false
	}
	return fieldRank[key], p.value(key, b, h)
}

// value reads the value of field key of a button into b.
func (p *scanner) value(key string, b *models.InlineKeyboardButton, h *has) bool {
	var ok bool
	var dst *string
	var bit has
	switch key {
	case "text":
		dst, bit = &b.Text, hasText
	case "url":
		dst, bit = &b.URL, hasURL
	case "callback_data":
		dst, bit = &b.CallbackData, hasData
	case "switch_inline_query":
		dst, bit = &b.SwitchInlineQuery, hasQuery
	case "switch_inline_query_current_chat":
		dst, bit = &b.SwitchInlineQueryCurrentChat, hasQueryHere
	case "copy_text":
		if *h&hasCopy != 0 {
			return false
		}
		*h |= hasCopy
		return p.copyText(b)
	case "pay":
		if *h&hasPay != 0 {
			return false
		}
		*h |= hasPay
		switch {
		case strings.HasPrefix(p.s[p.i:], "true"):
			b.Pay, p.i = true, p.i+4
		case strings.HasPrefix(p.s[p.i:], "false"):
			p.i += 5
		default:
			return false
		}
		return true
	default:
		return false // any other field, or a spelling encoding/json would fold: the slow path
	}
	if *h&bit != 0 {
		return false // repeated
	}
	*h |= bit
	*dst, ok = p.str()
	return ok
}

// copyText reads the object {"text":"..."} (or {}) of a copy_text field.
func (p *scanner) copyText(b *models.InlineKeyboardButton) bool {
	empty, ok := p.open('{')
	if empty || !ok {
		return ok
	}
	if k, ok := p.key(); !ok || k != "text" {
		return false
	}
	if b.CopyText.Text, ok = p.str(); !ok {
		return false
	}
	more, ok := p.next('}')
	return ok && !more // a second key, even "text" again: the slow path
}

// sameMarkup reports whether two keyboards look and act the same: whether they encode to
// the same JSON. A keyboard without rows is no keyboard.
func sameMarkup(a, b *models.InlineKeyboardMarkup) bool {
	if a != nil && len(a.InlineKeyboard) == 0 {
		a = nil
	}
	if b != nil && len(b.InlineKeyboard) == 0 {
		b = nil
	}
	if a == nil || b == nil {
		return a == b
	}
	if len(a.InlineKeyboard) != len(b.InlineKeyboard) {
		return false
	}
	for i, ra := range a.InlineKeyboard {
		rb := b.InlineKeyboard[i]
		if len(ra) != len(rb) {
			return false
		}
		for j := range ra {
			if !sameButton(&ra[j], &rb[j]) {
				return false
			}
		}
	}
	return true
}

// sameButton compares two buttons field by field, the pointed-to values included.
func sameButton(a, b *models.InlineKeyboardButton) bool {
	x, y := *a, *b
	if !samePtr(x.WebApp, y.WebApp) || !samePtr(x.LoginURL, y.LoginURL) ||
		!samePtr(x.SwitchInlineQueryChosenChat, y.SwitchInlineQueryChosenChat) || !samePtr(x.CallbackGame, y.CallbackGame) {
		return false
	}
	x.WebApp, x.LoginURL, x.SwitchInlineQueryChosenChat, x.CallbackGame = nil, nil, nil, nil
	y.WebApp, y.LoginURL, y.SwitchInlineQueryChosenChat, y.CallbackGame = nil, nil, nil, nil
	return x == y
}

// samePtr reports whether a and b are both nil or point to equal values.
func samePtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// keyboardJSON encodes mk as Telegram does (see render.AppendKeyboardJSON). A board's JSON
// is then a quarter shorter than encoding/json's, and the answer to an edit usually fits one
// write.
func keyboardJSON(mk *models.InlineKeyboardMarkup) []byte {
	return render.AppendKeyboardJSON(nil, mk)
}
