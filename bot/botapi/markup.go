package botapi

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
)

// ErrKeyboard is wrapped by the error of a call whose inline keyboard has a button with no
// action or several (see Markup). The call is refused before anything is sent, as a bad
// request (the error wraps tgbot.ErrorBadRequest too), and is not tried again.
var ErrKeyboard = errors.New("botapi: inline keyboard button without exactly one action")

// Markup returns kb as the reply_markup of a call's parameters (a message's, an edit's, an
// inline query result's), or nil (no keyboard) when kb is nil, where a nil
// *InlineKeyboardMarkup in the interface would be sent as "null".
//
// go-telegram/bot's InlineKeyboardButton cannot leave out its copy_text, so the library's own
// type sends every button with "copy_text":{"text":""}: a second action and an empty text to
// copy, both of which the Bot API forbids. What Markup returns sends each button with its
// text, its icon_custom_emoji_id and style when set, and its one action: nothing else. It
// copies kb's buttons. When a button has no action or several, the keyboard is one that no
// call sends: a Client's call fails with an error that wraps ErrKeyboard before it sends
// anything, and encoding it fails with that error.
func Markup(kb *models.InlineKeyboardMarkup) models.ReplyMarkup {
	if kb == nil {
		return nil
	}
	n := 0
	for _, row := range kb.InlineKeyboard {
		n += len(row)
	}
	buttons := make([]wireButton, n)
	out := &inlineKeyboard{InlineKeyboard: make([][]wireButton, len(kb.InlineKeyboard))}
	i := 0
	for r, row := range kb.InlineKeyboard {
		out.InlineKeyboard[r] = buttons[i : i+len(row) : i+len(row)]
		for c := range row {
			b := &row[c]
			if _, n := actionsOf(b); n != 1 {
				return badKeyboard{actionsErr(b, r, c)}
			}
			w := &buttons[i]
			*w = wireButton{Text: b.Text, IconCustomEmojiID: b.IconCustomEmojiID, Style: b.Style, URL: b.URL,
				CallbackData: b.CallbackData, WebApp: b.WebApp, LoginURL: b.LoginURL,
				SwitchInlineQuery: b.SwitchInlineQuery, SwitchInlineQueryCurrentChat: b.SwitchInlineQueryCurrentChat,
				SwitchInlineQueryChosenChat: b.SwitchInlineQueryChosenChat, CallbackGame: b.CallbackGame, Pay: b.Pay}
			if b.CopyText.Text != "" {
				copyText := b.CopyText
				w.CopyText = &copyText
			}
			i++
		}
	}
	return out
}

// inlineKeyboard is an inline keyboard as the Bot API takes it (see Markup), encoded by
// encoding/json as it stands.
type inlineKeyboard struct {
	InlineKeyboard [][]wireButton `json:"inline_keyboard"`
}

// wireButton is a button as Markup sends it: the library's fields, every one left out when
// unset.
type wireButton struct {
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
	CopyText                     *models.CopyTextButton              `json:"copy_text,omitempty"`
	CallbackGame                 *models.CallbackGame                `json:"callback_game,omitempty"`
	Pay                          bool                                `json:"pay,omitempty"`
}

// badKeyboard is what Markup returns for a keyboard with a button that has no action or
// several: a call with it fails before it sends anything (keyboardErr), and encoding it fails.
type badKeyboard struct{ err error }

// MarshalJSON fails with the keyboard's error.
func (k badKeyboard) MarshalJSON() ([]byte, error) { return nil, k.err }

// actionNames are the Bot API's names of a button's actions, in the order of actionsOf.
var actionNames = [...]string{"url", "callback_data", "web_app", "login_url", "switch_inline_query",
	"switch_inline_query_current_chat", "switch_inline_query_chosen_chat", "copy_text", "callback_game", "pay"}

// actionsOf tells which actions button b has, in the order of actionNames, and how many. An
// empty string counts as none: the library's type cannot tell it from an absent one.
func actionsOf(b *models.InlineKeyboardButton) (set [len(actionNames)]bool, n int) {
	set = [...]bool{b.URL != "", b.CallbackData != "", b.WebApp != nil, b.LoginURL != nil,
		b.SwitchInlineQuery != "", b.SwitchInlineQueryCurrentChat != "", b.SwitchInlineQueryChosenChat != nil,
		b.CopyText.Text != "", b.CallbackGame != nil, b.Pay}
	for _, s := range set {
		if s {
			n++
		}
	}
	return set, n
}

// actionsErr is the error of button c of row r, b, whose actions are not exactly one.
func actionsErr(b *models.InlineKeyboardButton, r, c int) error {
	set, n := actionsOf(b)
	var names []string
	for i, s := range set {
		if s {
			names = append(names, actionNames[i])
		}
	}
	return fmt.Errorf("%w: button %d of row %d (%q) has %d [%s], a %w", ErrKeyboard, c, r, b.Text, n,
		strings.Join(names, ", "), tgbot.ErrorBadRequest)
}

// keyboardErr fails the call of method, before it sends anything, when rm is a keyboard that
// Markup found invalid; it is nil for any other reply_markup.
func (c *Client) keyboardErr(ctx context.Context, method string, rm models.ReplyMarkup) error {
	if k, ok := rm.(badKeyboard); ok {
		return c.fail(ctx, method, 0, k.err)
	}
	return nil
}

// resultsKeyboardErr is keyboardErr of answerInlineQuery for the first of the results whose
// keyboard Markup found invalid (every result type of the library has its ReplyMarkup field).
func (c *Client) resultsKeyboardErr(ctx context.Context, results []models.InlineQueryResult) error {
	for _, res := range results {
		v := reflect.ValueOf(res)
		if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
			continue
		}
		if f := v.Elem().FieldByName("ReplyMarkup"); f.IsValid() && f.CanInterface() {
			if err := c.keyboardErr(ctx, "answerInlineQuery", f.Interface()); err != nil {
				return err
			}
		}
	}
	return nil
}
