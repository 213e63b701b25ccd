package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/go-telegram/bot/models"
)

// emptyCopyText is how encoding/json writes an absent copy_text, never first in a button
// (text is) and never inside a JSON string (its quotes would be escaped there).
const emptyCopyText = `,"copy_text":{"text":""}`

// AppendKeyboardJSON appends mk as the Bot API writes and takes an inline keyboard: as
// encoding/json encodes it, except that a button without a copy_text has none
// (models.InlineKeyboardButton cannot leave it out). Keyboards whose buttons have a web_app,
// login_url, switch_inline_query_chosen_chat or callback_game take encoding/json; the others
// a faster path that writes the same bytes (FuzzAppendKeyboardJSON checks it).
func AppendKeyboardJSON(out []byte, mk *models.InlineKeyboardMarkup) []byte {
	n := 32
	for _, row := range mk.InlineKeyboard {
		for i := range row {
			b := &row[i]
			if b.WebApp != nil || b.LoginURL != nil || b.SwitchInlineQueryChosenChat != nil || b.CallbackGame != nil {
				enc, err := json.Marshal(mk)
				if err != nil { // the library's own types: never
					panic(fmt.Sprintf("render: encode keyboard: %v", err))
				}
				return append(out, bytes.ReplaceAll(enc, []byte(emptyCopyText), nil)...)
			}
			n += 48 + len(b.Text) + len(b.URL) + len(b.CallbackData) + len(b.CopyText.Text)
		}
	}
	out = slices.Grow(out, n)
	out = append(out, `{"inline_keyboard":`...)
	if mk.InlineKeyboard == nil {
		return append(out, "null}"...)
	}
	out = append(out, '[')
	for i, row := range mk.InlineKeyboard {
		if i > 0 {
			out = append(out, ',')
		}
		if row == nil {
			out = append(out, "null"...)
			continue
		}
		out = append(out, '[')
		for j := range row {
			if j > 0 {
				out = append(out, ',')
			}
			out = appendButtonJSON(out, &row[j])
		}
		out = append(out, ']')
	}
	return append(out, "]}"...)
}

// appendButtonJSON appends b as encoding/json writes a button without pointer fields:
// fields in struct order, the omitempty ones and an empty copy_text left out.
func appendButtonJSON(out []byte, b *models.InlineKeyboardButton) []byte {
	out = AppendJSONString(append(out, `{"text":`...), b.Text)
	opt := func(key, v string) {
		if v != "" {
			out = AppendJSONString(append(append(append(out, `,"`...), key...), `":`...), v)
		}
	}
	opt("icon_custom_emoji_id", b.IconCustomEmojiID)
	opt("style", b.Style)
	opt("url", b.URL)
	opt("callback_data", b.CallbackData)
	opt("switch_inline_query", b.SwitchInlineQuery)
	opt("switch_inline_query_current_chat", b.SwitchInlineQueryCurrentChat)
	if b.CopyText.Text != "" {
		out = AppendJSONString(append(out, `,"copy_text":{"text":`...), b.CopyText.Text)
		out = append(out, '}')
	}
	if b.Pay {
		out = append(out, `,"pay":true`...)
	}
	return append(out, '}')
}

// AppendJSONString appends s as encoding/json writes a string: HTML characters, U+2028 and
// U+2029 escaped, invalid UTF-8 as U+FFFD.
func AppendJSONString(out []byte, s string) []byte {
	const hex = "0123456789abcdef"
	out = append(out, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			out = append(out, s[start:i]...)
			switch c {
			case '"', '\\':
				out = append(out, '\\', c)
			case '\b':
				out = append(out, '\\', 'b')
			case '\f':
				out = append(out, '\\', 'f')
			case '\n':
				out = append(out, '\\', 'n')
			case '\r':
				out = append(out, '\\', 'r')
			case '\t':
				out = append(out, '\\', 't')
			default:
				out = append(out, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			out = append(out, s[start:i]...)
			switch r {
			case utf8.RuneError:
				// encoding/json (Go ≥ 1.27) writes the replacement character itself.
				out = utf8.AppendRune(out, utf8.RuneError)
			default:
				out = append(out, '\\', 'u', '2', '0', '2', hex[r&0xf])
			}
			i += size
			start = i
			continue
		}
		i += size
	}
	out = append(out, s[start:]...)
	return append(out, '"')
}
