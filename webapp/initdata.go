package webapp

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// DefaultMaxAge is the oldest initData accepted (by its auth_date) when Options.MaxAge or the
// maxAge of ValidateInitData is zero.
const DefaultMaxAge = 24 * time.Hour

// MaxClockSkew is how far in the future an auth_date may lie (the clocks of Telegram and of
// this machine disagree a little).
const MaxClockSkew = time.Minute

// MaxInitDataLen bounds initData: real ones are well under 2 KB; a longer one is refused
// before it is parsed.
const MaxInitDataLen = 8 << 10

// maxFields bounds the fields of initData (Telegram sends about ten).
const maxFields = 32

// The refusals of ValidateInitData; errors.Is finds them in its *InitDataError.
var (
	// ErrInitDataBad: initData is malformed or not signed with the bot's token (a forged or
	// altered one).
	ErrInitDataBad = errors.New("webapp: initData is not valid")
	// ErrInitDataExpired: initData is signed, but its auth_date is older than the maximum age
	// or more than MaxClockSkew in the future: the page must be opened again.
	ErrInitDataExpired = errors.New("webapp: initData has expired")
)

// InitDataError is the error of ValidateInitData: Err is ErrInitDataBad or ErrInitDataExpired,
// Reason says what was wrong in words for the operator's log. Reason never quotes initData,
// so it holds neither the hash nor a user's data.
type InitDataError struct {
	Err    error
	Reason string
}

// Error returns the sentinel's text and the reason.
func (e *InitDataError) Error() string { return e.Err.Error() + ": " + e.Reason }

// Unwrap returns Err, so errors.Is(err, ErrInitDataBad) holds for a bad one.
func (e *InitDataError) Unwrap() error { return e.Err }

func bad(reason string) error     { return &InitDataError{Err: ErrInitDataBad, Reason: reason} }
func expired(reason string) error { return &InitDataError{Err: ErrInitDataExpired, Reason: reason} }

// User is a Telegram user as initData's user (and receiver) field describes them.
type User struct {
	ID              int64  `json:"id"`
	IsBot           bool   `json:"is_bot,omitempty"`
	FirstName       string `json:"first_name"`
	LastName        string `json:"last_name,omitempty"`
	Username        string `json:"username,omitempty"`
	LanguageCode    string `json:"language_code,omitempty"`
	IsPremium       bool   `json:"is_premium,omitempty"`
	AddedToMenu     bool   `json:"added_to_attachment_menu,omitempty"`
	AllowsWriteToPM bool   `json:"allows_write_to_pm,omitempty"`
	PhotoURL        string `json:"photo_url,omitempty"`
}

// Chat is the chat of initData's chat field (a Mini App opened from an attachment menu).
type Chat struct {
	ID       int64  `json:"id"`
	Type     string `json:"type"`
	Title    string `json:"title"`
	Username string `json:"username,omitempty"`
	PhotoURL string `json:"photo_url,omitempty"`
}

// InitData is what a valid initData tells: who opened the Mini App, when, and from where. The
// hash and the signature are not kept.
type InitData struct {
	QueryID  string // query_id: set when opened by a keyboard's web_app button
	User     User   // user: always set (ValidateInitData refuses initData without one)
	Receiver *User  // receiver: the chat partner, from an attachment menu in a private chat
	Chat     *Chat  // chat: from an attachment menu in a group
	// ChatType is the type of the chat the app was opened from ("sender", "private",
	// "group", "supergroup", "channel"), ChatInstance a stable ID of that chat, both set
	// when it was opened by a direct link.
	ChatType     string
	ChatInstance string
	// StartParam is the startapp parameter of a direct link (t.me/bot/app?startapp=X).
	StartParam   string
	CanSendAfter int       // can_send_after, in seconds
	AuthDate     time.Time // auth_date: when Telegram signed it (second precision)
}

// ValidateInitData checks initData, the query string Telegram gives a Mini App
// (Telegram.WebApp.initData), against the bot's token, as Telegram's documentation says: the
// secret key is HMAC-SHA256 of the token keyed with "WebAppData"; the data-check-string is
// every field but hash, URL-decoded once, as key=value lines sorted by key and joined by "\n";
// its HMAC-SHA256 under the secret key, in hex, must equal hash. Since Telegram added the
// signature field, clients disagree on whether it belongs in the data-check-string: a hash
// computed either way is accepted (both need the token).
//
// It refuses (ErrInitDataBad) initData that is empty, longer than MaxInitDataLen, malformed (a
// field without "=", a bad %-escape, an empty key, a key or value with a line break, a key
// given twice, too many fields), without hash, auth_date or user, with a hash that does not
// match, or with a user that is not a JSON object with a positive id; and (ErrInitDataExpired)
// one signed more than maxAge (0: DefaultMaxAge) before now or more than MaxClockSkew after
// it. The token never appears in an error.
func ValidateInitData(initData, token string, now time.Time, maxAge time.Duration) (InitData, error) {
	return validateInitData(initData, secretKey(token), now, maxAge)
}

// secretKey is the key of initData's HMAC for the bot with this token.
func secretKey(token string) []byte {
	m := hmac.New(sha256.New, []byte("WebAppData"))
	m.Write([]byte(token))
	return m.Sum(nil)
}

// field is one key=value pair of initData, decoded.
type field struct{ key, value string }

// parseFields splits initData into its fields, decoding each key and value once, and refuses
// what ValidateInitData calls malformed.
func parseFields(raw string) ([]field, error) {
	if raw == "" {
		return nil, bad("empty")
	}
	if len(raw) > MaxInitDataLen {
		return nil, bad("longer than " + strconv.Itoa(MaxInitDataLen) + " bytes")
	}
	parts := strings.Split(raw, "&")
	if len(parts) > maxFields {
		return nil, bad("more than " + strconv.Itoa(maxFields) + " fields")
	}
	fields := make([]field, 0, len(parts))
	for _, p := range parts {
		k, v, ok := strings.Cut(p, "=")
		if !ok {
			return nil, bad("a field without '='")
		}
		key, err1 := url.QueryUnescape(k)
		value, err2 := url.QueryUnescape(v)
		switch {
		case err1 != nil || err2 != nil:
			return nil, bad("a malformed %-escape")
		case key == "":
			return nil, bad("an empty key")
		case strings.ContainsAny(key, "\n\r") || strings.ContainsAny(value, "\n\r"):
			// A line break would let one field pass for two in the data-check-string.
			return nil, bad("a line break in a field")
		}
		fields = append(fields, field{key, value})
	}
	slices.SortFunc(fields, func(a, b field) int { return strings.Compare(a.key, b.key) })
	for i := 1; i < len(fields); i++ {
		if fields[i].key == fields[i-1].key {
			return nil, bad("key " + strconv.Quote(safeKey(fields[i].key)) + " given twice")
		}
	}
	return fields, nil
}

// safeKey is a key as an error may quote it: a known field's name, or "?" for another (which
// could be anything a client sent).
func safeKey(k string) string {
	switch k {
	case "query_id", "user", "receiver", "chat", "chat_type", "chat_instance", "start_param",
		"can_send_after", "auth_date", "hash", "signature":
		return k
	}
	return "?"
}

// checkString is the data-check-string of sorted fields, leaving out hash and, when skip is
// set, signature.
func checkString(fields []field, skip string) []byte {
	var b []byte
	for _, f := range fields {
		if f.key == "hash" || f.key == skip {
			continue
		}
		if len(b) > 0 {
			b = append(b, '\n')
		}
		b = append(b, f.key...)
		b = append(b, '=')
		b = append(b, f.value...)
	}
	return b
}

// lookup returns the value of key among sorted fields.
func lookup(fields []field, key string) (string, bool) {
	i, ok := slices.BinarySearchFunc(fields, key, func(f field, k string) int { return strings.Compare(f.key, k) })
	if !ok {
		return "", false
	}
	return fields[i].value, true
}

// validateInitData is ValidateInitData with the secret key already made from the token.
func validateInitData(raw string, secret []byte, now time.Time, maxAge time.Duration) (InitData, error) {
	if maxAge <= 0 {
		maxAge = DefaultMaxAge
	}
	fields, err := parseFields(raw)
	if err != nil {
		return InitData{}, err
	}
	hexHash, ok := lookup(fields, "hash")
	if !ok {
		return InitData{}, bad("no hash")
	}
	want, err := hex.DecodeString(hexHash)
	if err != nil || len(want) != sha256.Size {
		return InitData{}, bad("a hash that is not 64 hex digits")
	}
	// Both variants are computed whether or not they are needed, so that the time taken
	// does not tell which matched.
	_, signed := lookup(fields, "signature")
	withSig := mac(secret, checkString(fields, ""))
	withoutSig := mac(secret, checkString(fields, "signature"))
	okWith := hmac.Equal(withSig, want)
	okWithout := signed && hmac.Equal(withoutSig, want)
	if !okWith && !okWithout {
		return InitData{}, bad("the hash does not match")
	}
	// Only signed data gets this far.
	var d InitData
	date, ok := lookup(fields, "auth_date")
	if !ok {
		return InitData{}, bad("no auth_date")
	}
	secs, ok := digits(date, 12)
	if !ok {
		return InitData{}, bad("auth_date is not a number of seconds")
	}
	d.AuthDate = time.Unix(secs, 0)
	switch age := now.Sub(d.AuthDate); {
	case age > maxAge:
		return InitData{}, expired("signed " + age.Round(time.Second).String() + " ago, more than " + maxAge.String())
	case -age > MaxClockSkew:
		return InitData{}, expired("signed " + (-age).Round(time.Second).String() + " in the future")
	}
	u, ok := lookup(fields, "user")
	if !ok {
		return InitData{}, bad("no user")
	}
	if err := decodeJSON(u, &d.User); err != nil {
		return InitData{}, bad("user is not a JSON object")
	}
	if d.User.ID <= 0 {
		return InitData{}, bad("user has no id")
	}
	if r, ok := lookup(fields, "receiver"); ok {
		d.Receiver = new(User)
		if err := decodeJSON(r, d.Receiver); err != nil {
			return InitData{}, bad("receiver is not a JSON object")
		}
	}
	if c, ok := lookup(fields, "chat"); ok {
		d.Chat = new(Chat)
		if err := decodeJSON(c, d.Chat); err != nil {
			return InitData{}, bad("chat is not a JSON object")
		}
	}
	d.QueryID, _ = lookup(fields, "query_id")
	d.ChatType, _ = lookup(fields, "chat_type")
	d.ChatInstance, _ = lookup(fields, "chat_instance")
	d.StartParam, _ = lookup(fields, "start_param")
	if s, ok := lookup(fields, "can_send_after"); ok {
		n, ok := digits(s, 9)
		if !ok {
			return InitData{}, bad("can_send_after is not a number")
		}
		d.CanSendAfter = int(n)
	}
	return d, nil
}

func mac(key, msg []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write(msg)
	return m.Sum(nil)
}

// digits reads s as a decimal number of 1 to max digits, nothing else (no sign, no spaces).
func digits(s string, max int) (int64, bool) {
	if len(s) == 0 || len(s) > max {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// decodeJSON decodes one JSON object, and nothing after it, into v.
func decodeJSON(s string, v any) error {
	if !strings.HasPrefix(strings.TrimSpace(s), "{") {
		return errors.New("not an object")
	}
	dec := json.NewDecoder(strings.NewReader(s))
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("data after the object")
	}
	return nil
}
