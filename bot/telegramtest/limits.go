package telegramtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"image"
	"image/gif"    // photos and animations may be GIFs
	_ "image/jpeg" // or JPEGs
	_ "image/png"  // or PNGs
	"net/url"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/go-telegram/bot/models"
)

// Telegram's limits.
const (
	MaxTextLen        = 4096     // message text, UTF-16 units after entity parsing
	MaxCaptionLen     = 1024     // photo caption
	MaxAlertLen       = 200      // answerCallbackQuery text
	MaxCallbackData   = 64       // callback_data bytes
	MaxCopyText       = 256      // copy_text's text, UTF-16 units
	MaxButtonsPerRow  = 8        // inline keyboard
	MaxButtons        = 100      // inline keyboard, in all
	MaxInlineResults  = 50       // answerInlineQuery
	MaxPhotoBytes     = 10 << 20 // sendPhoto upload
	MaxUploadBytes    = 50 << 20 // any other upload (sendAnimation)
	maxPhotoDimension = 10000    // width + height
)

// utf16Len is the length Telegram counts: UTF-16 code units.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += max(utf16.RuneLen(r), 1) // invalid bytes decode to U+FFFD: one unit
	}
	return n
}

// wireMarkup is a reply_markup as sent. Only an inline keyboard is decoded: the other
// kinds of markup (a reply keyboard, its removal, force_reply) are only noticed.
type wireMarkup struct {
	InlineKeyboard *[][]wireButton `json:"inline_keyboard"`
	Keyboard       json.RawMessage `json:"keyboard"`
	RemoveKeyboard json.RawMessage `json:"remove_keyboard"`
	ForceReply     json.RawMessage `json:"force_reply"`
}

// wireButton is an inline keyboard button as sent, keeping which of its plain fields were
// present (an empty string counts), to judge the button as Telegram does.
type wireButton struct {
	Text                         *string         `json:"text"`
	IconCustomEmojiID            string          `json:"icon_custom_emoji_id"`
	Style                        string          `json:"style"`
	URL                          *string         `json:"url"`
	CallbackData                 *string         `json:"callback_data"`
	SwitchInlineQuery            *string         `json:"switch_inline_query"`
	SwitchInlineQueryCurrentChat *string         `json:"switch_inline_query_current_chat"`
	SwitchInlineQueryChosenChat  json.RawMessage `json:"switch_inline_query_chosen_chat"`
	WebApp                       json.RawMessage `json:"web_app"`
	LoginURL                     json.RawMessage `json:"login_url"`
	CopyText                     json.RawMessage `json:"copy_text"`
	CallbackGame                 json.RawMessage `json:"callback_game"`
	Pay                          bool            `json:"pay"`
}

func present(raw json.RawMessage) bool { return len(raw) > 0 && string(raw) != "null" }

// parseMarkup decodes a reply_markup field with encoding/json and checks it as Telegram
// does. It returns the inline keyboard (nil for none or for another kind of markup) or
// Telegram's error.
func parseMarkup(raw string) (*models.InlineKeyboardMarkup, *apiError) {
	if blank(raw) || strings.TrimSpace(raw) == "null" {
		return nil, nil
	}
	rows := getRows()
	defer putRows(rows)
	w := wireMarkup{InlineKeyboard: rows}
	if err := json.Unmarshal([]byte(raw), &w); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field != "" {
			return nil, badRequest("can't parse inline keyboard button: field \"inline_keyboard\" must be an Array of Arrays")
		}
		return nil, badRequest("can't parse reply keyboard markup JSON object") // not JSON, or not an object
	}
	if w.InlineKeyboard != nil && len(*rows) == 0 { // [], or no inline_keyboard at all?
		var p struct {
			InlineKeyboard json.RawMessage `json:"inline_keyboard"`
		}
		_ = json.Unmarshal([]byte(raw), &p) // valid JSON, an object: cannot fail
		if !present(p.InlineKeyboard) {
			w.InlineKeyboard = nil
		}
	}
	if w.InlineKeyboard == nil { // absent or null
		if w.Keyboard != nil || w.RemoveKeyboard != nil || w.ForceReply != nil {
			return nil, nil
		}
		return nil, badRequest("can't find field \"inline_keyboard\"")
	}
	return buildKeyboard(*rows)
}

// wireRows are buffers for the rows of a reply_markup: encoding/json decodes a JSON array
// into the room a slice already has, so a board's rows and buttons are decoded into the
// memory of an earlier one.
var wireRows = sync.Pool{New: func() any { return new([][]wireButton) }}

// maxPooledButtons bounds the buttons a pooled buffer keeps room for (a giant keyboard's
// buffer is left to the garbage collector).
const maxPooledButtons = 2 * MaxButtons

// getRows returns an empty buffer of rows whose room holds only zero buttons (decoding into
// a button sets only the fields present, so the buttons of an earlier keyboard must go).
func getRows() *[][]wireButton {
	rows := wireRows.Get().(*[][]wireButton)
	all := (*rows)[:cap(*rows)]
	for i := range all {
		clear(all[i][:cap(all[i])])
	}
	*rows = all[:0]
	return rows
}

// putRows gives rows back to the pool unless it grew too large.
func putRows(rows *[][]wireButton) {
	n := 0
	for _, row := range (*rows)[:cap(*rows)] {
		n += cap(row)
	}
	if n <= maxPooledButtons && cap(*rows) <= maxPooledButtons {
		wireRows.Put(rows)
	}
}

// parseMarkupValue is parseMarkup for a markup already inside a JSON document.
func parseMarkupValue(raw json.RawMessage) (*models.InlineKeyboardMarkup, *apiError) {
	if !present(raw) {
		return nil, nil
	}
	return parseMarkup(string(raw))
}

// buildKeyboard checks the rows as Telegram does and makes the keyboard of them, leaving
// out empty rows.
func buildKeyboard(rows [][]wireButton) (*models.InlineKeyboardMarkup, *apiError) {
	n := 0
	for _, row := range rows {
		n += len(row)
	}
	// All buttons in one array, the rows slices of it (capped, so that appending to one row
	// never overwrites the next).
	buttons := make([]models.InlineKeyboardButton, min(n, MaxButtons))
	total := 0
	out := &models.InlineKeyboardMarkup{InlineKeyboard: make([][]models.InlineKeyboardButton, 0, len(rows))}
	for _, row := range rows {
		if len(row) > MaxButtonsPerRow {
			return nil, badRequest("REPLY_MARKUP_TOO_LONG")
		}
		start := total
		total += len(row)
		if total > MaxButtons {
			return nil, badRequest("REPLY_MARKUP_TOO_LONG")
		}
		if len(row) == 0 {
			continue
		}
		r := buttons[start:total:total]
		for i := range row {
			if err := buildButton(&row[i], &r[i]); err != nil {
				return nil, err
			}
		}
		out.InlineKeyboard = append(out.InlineKeyboard, r)
	}
	return out, nil
}

// buildButton checks b as Telegram does and fills btn, which must be zero, from it.
func buildButton(b *wireButton, btn *models.InlineKeyboardButton) *apiError {
	var h has
	for _, f := range [...]struct {
		src *string
		dst *string
		bit has
	}{
		{b.Text, &btn.Text, hasText},
		{b.URL, &btn.URL, hasURL},
		{b.CallbackData, &btn.CallbackData, hasData},
		{b.SwitchInlineQuery, &btn.SwitchInlineQuery, hasQuery},
		{b.SwitchInlineQueryCurrentChat, &btn.SwitchInlineQueryCurrentChat, hasQueryHere},
	} {
		if f.src != nil {
			*f.dst, h = *f.src, h|f.bit
		}
	}
	btn.IconCustomEmojiID, btn.Style, btn.Pay = b.IconCustomEmojiID, b.Style, b.Pay
	if present(b.CopyText) {
		h |= hasCopy
		_ = json.Unmarshal(b.CopyText, &btn.CopyText) // what decoded stays; checkButton judges it
	}
	rare := 0 // the other actions that are objects
	btn.SwitchInlineQueryChosenChat = rareObject[models.SwitchInlineQueryChosenChat](b.SwitchInlineQueryChosenChat, &rare)
	btn.WebApp = rareObject[models.WebAppInfo](b.WebApp, &rare)
	btn.LoginURL = rareObject[models.LoginURL](b.LoginURL, &rare)
	if present(b.CallbackGame) {
		rare++
		btn.CallbackGame = &models.CallbackGame{}
	}
	return checkButton(btn, h, rare)
}

// rareObject is the button action raw, one whose value is an object, decoded into a new T
// (a decoding error is ignored: what decoded stays) and counted in rare; it is nil, and
// rare unchanged, when raw is absent or null.
func rareObject[T any](raw json.RawMessage, rare *int) *T {
	if !present(raw) {
		return nil
	}
	*rare++
	var v T
	_ = json.Unmarshal(raw, &v)
	return &v
}

// has tells which of a button's plain fields were present (an empty string counts).
type has uint8

const (
	hasText has = 1 << iota
	hasURL
	hasData
	hasQuery
	hasQueryHere
	hasCopy
)

// checkButton checks a button as Telegram does, in Telegram's order, and as the Bot API's
// description says, with exactly one action: its plain fields are in btn, h tells which were
// present (copy_text among them), and rare counts its other actions (web_app, login_url,
// switch_inline_query_chosen_chat, callback_game).
func checkButton(btn *models.InlineKeyboardButton, h has, rare int) *apiError {
	if h&hasText == 0 {
		return badRequest("can't parse inline keyboard button: Field \"text\" must be of type String")
	}
	if blank(btn.Text) {
		return badRequest("can't parse inline keyboard button: Text must be non-empty")
	}
	actions := rare
	if h&hasData != 0 {
		actions++
		if n := len(btn.CallbackData); n < 1 || n > MaxCallbackData {
			return badRequest("BUTTON_DATA_INVALID")
		}
	}
	if h&hasURL != 0 {
		actions++
		u, err := url.Parse(btn.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "tg") || (u.Scheme != "tg" && u.Host == "") {
			return badRequest("inline keyboard button URL '%s' is invalid: Wrong HTTP URL", btn.URL)
		}
	}
	if h&hasQuery != 0 {
		actions++
	}
	if h&hasQueryHere != 0 {
		actions++
	}
	if h&hasCopy != 0 {
		actions++
		if n := utf16Len(btn.CopyText.Text); n < 1 || n > MaxCopyText {
			return badRequest("BUTTON_COPY_TEXT_INVALID")
		}
	}
	if btn.Pay {
		actions++
	}
	switch {
	case actions == 0:
		return badRequest("can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard")
	case actions > 1:
		return badRequest("can't parse inline keyboard button: exactly one of the fields other than text, icon_custom_emoji_id and style may be used, not %d", actions)
	}
	return nil
}

// formatText applies parse_mode and checks the length limit. It returns the
// visible text.
func formatText(text, parseMode string, limit int, tooLong string) (string, *apiError) {
	visible, err := parseEntities(text, parseMode)
	if err != nil {
		return "", err
	}
	if utf16Len(visible) > limit {
		return "", badRequest("%s", tooLong)
	}
	return visible, nil
}

func parseEntities(text, parseMode string) (string, *apiError) {
	if !utf8.ValidString(text) {
		return "", badRequest("strings must be encoded in UTF-8")
	}
	switch strings.ToLower(parseMode) {
	case "html":
		return parseHTML(text)
	case "markdownv2":
		return parseMarkdownV2(text)
	}
	return text, nil
}

var htmlTags = map[string]bool{
	"b": true, "strong": true, "i": true, "em": true, "u": true, "ins": true, "s": true,
	"strike": true, "del": true, "span": true, "tg-spoiler": true, "a": true, "code": true,
	"pre": true, "blockquote": true, "tg-emoji": true,
}

// parseHTML strips Telegram's HTML formatting and checks it the way Telegram
// does: only its tags, properly nested, and '<', '>', '&' escaped in text.
func parseHTML(s string) (string, *apiError) {
	var out strings.Builder
	var stack []string
	for i := 0; i < len(s); {
		switch c := s[i]; c {
		case '<':
			end := strings.IndexByte(s[i:], '>')
			if end < 0 {
				return "", badRequest("can't parse entities: Unclosed start tag at byte offset %d", i)
			}
			tag := s[i+1 : i+end]
			closing := strings.HasPrefix(tag, "/")
			tag = strings.TrimPrefix(tag, "/")
			name := tag
			if j := strings.IndexAny(tag, " \t\n"); j >= 0 {
				name = tag[:j]
			}
			name = strings.ToLower(name)
			if closing {
				if len(stack) == 0 || (name != "" && stack[len(stack)-1] != name) {
					return "", badRequest("can't parse entities: Unexpected end tag at byte offset %d", i)
				}
				stack = stack[:len(stack)-1]
			} else {
				if !htmlTags[name] {
					return "", badRequest("can't parse entities: Unsupported start tag \"%s\" at byte offset %d", name, i)
				}
				stack = append(stack, name)
			}
			i += end + 1
		case '&':
			end := strings.IndexByte(s[i:], ';')
			if end > 0 && end <= 10 {
				if r, ok := htmlEntity(s[i+1 : i+end]); ok {
					out.WriteRune(r)
					i += end + 1
					continue
				}
			}
			out.WriteByte('&')
			i++
		case '>':
			out.WriteByte('>')
			i++
		default:
			out.WriteByte(c)
			i++
		}
	}
	if len(stack) > 0 {
		return "", badRequest("can't parse entities: Can't find end tag corresponding to start tag \"%s\"", stack[len(stack)-1])
	}
	return out.String(), nil
}

func htmlEntity(name string) (rune, bool) {
	switch name {
	case "lt":
		return '<', true
	case "gt":
		return '>', true
	case "amp":
		return '&', true
	case "quot":
		return '"', true
	}
	if strings.HasPrefix(name, "#") {
		base, digits := 10, name[1:]
		if strings.HasPrefix(digits, "x") || strings.HasPrefix(digits, "X") {
			base, digits = 16, digits[1:]
		}
		n, err := strconv.ParseUint(digits, base, 32)
		if err == nil && utf8.ValidRune(rune(n)) {
			return rune(n), true
		}
	}
	return 0, false
}

// parseMarkdownV2 checks the escaping rule Telegram enforces most often:
// characters that never start formatting must be escaped. Formatting
// characters are removed from the visible text. It is an approximation.
func parseMarkdownV2(s string) (string, *apiError) {
	var out strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			if i+1 < len(s) {
				i++
				out.WriteByte(s[i])
			}
		case strings.IndexByte("#+-={}.!", c) >= 0:
			return "", badRequest("can't parse entities: Character '%c' is reserved and must be escaped with the preceding '\\'", c)
		case strings.IndexByte("*_~|`", c) >= 0:
			// formatting marker
		default:
			out.WriteByte(c)
		}
	}
	return out.String(), nil
}

// checkPhoto decodes an uploaded photo's header and checks Telegram's limits.
func checkPhoto(data []byte) (w, h int, err *apiError) {
	if len(data) > MaxPhotoBytes {
		return 0, 0, badRequest("file is too big")
	}
	cfg, _, e := image.DecodeConfig(bytes.NewReader(data))
	if e != nil {
		return 0, 0, badRequest("IMAGE_PROCESS_FAILED")
	}
	w, h = cfg.Width, cfg.Height
	if w <= 0 || h <= 0 || w+h > maxPhotoDimension || w > 20*h || h > 20*w {
		return 0, 0, badRequest("PHOTO_INVALID_DIMENSIONS")
	}
	return w, h, nil
}

// checkAnimation checks an uploaded animation as Telegram would: within the upload limit and
// a GIF that decodes (the fake takes no video), returning its size in pixels.
func checkAnimation(data []byte) (w, h int, err *apiError) {
	if len(data) > MaxUploadBytes {
		return 0, 0, badRequest("file is too big")
	}
	cfg, e := gif.DecodeConfig(bytes.NewReader(data))
	if e != nil || cfg.Width <= 0 || cfg.Height <= 0 {
		return 0, 0, badRequest("failed to get HTTP URL content")
	}
	return cfg.Width, cfg.Height, nil
}

// blank reports whether s is empty or all white space: strings.TrimSpace(s) == "", without
// its slow path for text that starts with a character outside ASCII (a disc, a dot).
func blank(s string) bool {
	for _, r := range s {
		if !unicode.IsSpace(r) {
			return false
		}
	}
	return true
}

// checkWebApp refuses what Telegram refuses of web_app buttons: one outside a private chat
// (private false: a group, a channel, an inline message; Telegram allows the Mini App there
// only by a t.me link) and one whose address is not https.
func checkWebApp(mk *models.InlineKeyboardMarkup, private bool) *apiError {
	if mk == nil {
		return nil
	}
	for _, row := range mk.InlineKeyboard {
		for _, b := range row {
			if b.WebApp == nil {
				continue
			}
			if !private {
				return badRequest("BUTTON_TYPE_INVALID")
			}
			if u, err := url.Parse(b.WebApp.URL); err != nil || u.Scheme != "https" || u.Host == "" {
				return badRequest("inline keyboard button Web App URL '%s' is invalid: Only HTTPS links are allowed", b.WebApp.URL)
			}
		}
	}
	return nil
}
