package telegramtest

import (
	"github.com/go-telegram/bot/models"
)

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

// answerButton is a button as Telegram writes it in answers and updates: as encoding/json
// writes models.InlineKeyboardButton, but without the copy_text of a button that has none
// (the library's type cannot leave it out). Its fields are the library's, so that a button
// converts to it.
type answerButton struct {
	Text                         string                              `json:"text"`
	IconCustomEmojiID            string                              `json:"icon_custom_emoji_id,omitempty"`
	Style                        string                              `json:"style,omitempty"`
	URL                          string                              `json:"url,omitempty"`
	CallbackData                 string                              `json:"callback_data,omitempty"`
	WebApp                       *models.WebAppInfo                  `json:"web_app,omitempty"`
	LoginURL                     *models.LoginURL                    `json:"login_url,omitempty"`
	SwitchInlineQuery            string                              `json:"switch_inline_query,omitempty"`
	SwitchInlineQueryCurrentChat string                              `json:"switch_inline_query_current_chat,omitempty"`
	SwitchInlineQueryChosenChat  *models.SwitchInlineQueryChosenChat `json:"switch_inline_query_chosen_chat,omitempty"`
	CopyText                     models.CopyTextButton               `json:"copy_text,omitzero"`
	CallbackGame                 *models.CallbackGame                `json:"callback_game,omitempty"`
	Pay                          bool                                `json:"pay,omitempty"`
}

// answerKeyboard is an inline keyboard as Telegram writes it in answers and updates.
type answerKeyboard struct {
	InlineKeyboard [][]answerButton `json:"inline_keyboard"`
}

// answerMarkup is mk as Telegram writes it in answers and updates; nil when mk has no rows.
func answerMarkup(mk *models.InlineKeyboardMarkup) *answerKeyboard {
	if mk == nil || len(mk.InlineKeyboard) == 0 {
		return nil
	}
	n := 0
	for _, row := range mk.InlineKeyboard {
		n += len(row)
	}
	buttons := make([]answerButton, 0, n)
	out := &answerKeyboard{InlineKeyboard: make([][]answerButton, 0, len(mk.InlineKeyboard))}
	for _, row := range mk.InlineKeyboard {
		start := len(buttons)
		for _, b := range row {
			buttons = append(buttons, answerButton(b))
		}
		out.InlineKeyboard = append(out.InlineKeyboard, buttons[start:len(buttons):len(buttons)])
	}
	return out
}
