// Package webapptest helps test the Mini App (package webapp) as Telegram's clients use it:
// initData signed with a bot's token (SignInitData, SignFields), the page's address as a
// client opens it (PageURL), and a headless Chromium that opens the page, taps squares, reads
// the board from the DOM, waits for it to change and takes screenshots (Browser, Page).
//
// A test binary shares one browser (Shared), which its TestMain closes (VerifyTestMain, or
// CloseShared). Browser tests skip when no Chromium is installed, unless the environment
// variable BROWSER_TESTS is 1 (CI sets it): then a missing browser fails them.
package webapptest

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/reversibot/reversi/webapp"
)

// Field is one key=value pair of initData, before it is encoded.
type Field struct{ Key, Value string }

// SignInitData returns initData for user as a Telegram client passes it to a Mini App
// (Telegram.WebApp.initData, and tgWebAppData in the page's fragment), signed with the bot's
// token: a URL-encoded query string (spaces as %20) whose user field is the user as JSON, with
// the fields a client sends in its order. Opened by a keyboard's web_app button (startParam
// ""), that is query_id, user, auth_date, signature, hash; opened by a direct link
// (t.me/bot/app?startapp=startParam), user, chat_instance, chat_type, start_param, auth_date,
// signature, hash. The hash covers every field but itself (signature too, as Telegram's
// documentation says; webapp also accepts a hash that leaves signature out: see SignFields).
// The signature is made up (webapp does not check Telegram's Ed25519 signature), and so are
// query_id and chat_instance, deterministically from the user and the date.
func SignInitData(token string, user webapp.User, startParam string, authDate time.Time) string {
	u, err := json.Marshal(user)
	if err != nil {
		panic("webapptest: a User that does not encode: " + err.Error())
	}
	seed := sha256.Sum256([]byte(strconv.FormatInt(user.ID, 10) + "|" + strconv.FormatInt(authDate.Unix(), 10) + "|" + startParam))
	var fields []Field
	if startParam == "" {
		fields = append(fields, Field{"query_id", "AAH" + base64.RawURLEncoding.EncodeToString(seed[:15])},
			Field{"user", string(u)})
	} else {
		instance := strconv.FormatUint(uint64(seed[0])<<40|uint64(seed[1])<<32|uint64(seed[2])<<24|uint64(seed[3])<<16|uint64(seed[4])<<8|uint64(seed[5]), 10)
		fields = append(fields, Field{"user", string(u)}, Field{"chat_instance", "-" + instance},
			Field{"chat_type", "supergroup"}, Field{"start_param", startParam})
	}
	sig := sha512.Sum512(seed[:])
	fields = append(fields, Field{"auth_date", strconv.FormatInt(authDate.Unix(), 10)},
		Field{"signature", base64.RawURLEncoding.EncodeToString(sig[:])})
	return SignFields(token, fields)
}

// SignFields encodes fields as initData, in their order, and appends their hash under the
// bot's token: the hex HMAC-SHA256, keyed with HMAC-SHA256 of the token under "WebAppData", of
// the data-check-string (the fields but hash and the keys named in unsigned, sorted by key, as
// key=value lines). A field named hash in fields is left as it is, and no hash is added then:
// a test may forge one. Keys and values are encoded as a client does (url.QueryEscape, with
// spaces as %20).
func SignFields(token string, fields []Field, unsigned ...string) string {
	signed := make([]Field, 0, len(fields))
	hashed := false
	for _, f := range fields {
		switch {
		case f.Key == "hash":
			hashed = true
		case !slices.Contains(unsigned, f.Key):
			signed = append(signed, f)
		}
	}
	slices.SortStableFunc(signed, func(a, b Field) int { return strings.Compare(a.Key, b.Key) })
	lines := make([]string, len(signed))
	for i, f := range signed {
		lines[i] = f.Key + "=" + f.Value
	}
	var b strings.Builder
	for i, f := range fields {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(Escape(f.Key) + "=" + Escape(f.Value))
	}
	if !hashed {
		b.WriteString("&hash=" + Hash(token, strings.Join(lines, "\n")))
	}
	return b.String()
}

// Hash returns the hash of a data-check-string under the bot's token, in hex.
func Hash(token, dataCheckString string) string {
	k := hmac.New(sha256.New, []byte("WebAppData"))
	k.Write([]byte(token))
	m := hmac.New(sha256.New, k.Sum(nil))
	m.Write([]byte(dataCheckString))
	return hex.EncodeToString(m.Sum(nil))
}

// Escape encodes s for initData as Telegram's clients do: url.QueryEscape, but a space is %20.
func Escape(s string) string { return strings.ReplaceAll(url.QueryEscape(s), "+", "%20") }

// Launch is how a Telegram client opens a Mini App (see PageURL).
type Launch struct {
	InitData string // tgWebAppData
	// StartParam, when set, is added to the query as tgWebAppStartParam, as clients do for a
	// direct link (the server reads it from initData's start_param, not from there).
	StartParam string
	Theme      map[string]string // tgWebAppThemeParams (as JSON); nil: none
	Version    string            // tgWebAppVersion; "" means "8.0"
	Platform   string            // tgWebAppPlatform; "" means "android"
}

// PageURL returns the address a Telegram client opens for the Mini App page at page (with its
// own query, as PUBLIC_URL/app/?g=ID): the launch parameters in the fragment
// (#tgWebAppData=…&tgWebAppVersion=…&tgWebAppPlatform=…&tgWebAppThemeParams=…), where the page
// reads initData when telegram-web-app.js did not load.
func PageURL(page string, l Launch) string {
	if l.StartParam != "" {
		sep := "?"
		if strings.Contains(page, "?") {
			sep = "&"
		}
		page += sep + "tgWebAppStartParam=" + url.QueryEscape(l.StartParam)
	}
	if l.Version == "" {
		l.Version = "8.0"
	}
	if l.Platform == "" {
		l.Platform = "android"
	}
	frag := "tgWebAppData=" + Escape(l.InitData) + "&tgWebAppVersion=" + Escape(l.Version) +
		"&tgWebAppPlatform=" + Escape(l.Platform)
	if l.Theme != nil {
		j, _ := json.Marshal(l.Theme)
		frag += "&tgWebAppThemeParams=" + Escape(string(j))
	}
	return page + "#" + frag
}

// Themes a client passes (tgWebAppThemeParams), for screenshots in both looks.
var (
	LightTheme = map[string]string{"bg_color": "#ffffff", "text_color": "#000000", "hint_color": "#999999",
		"link_color": "#2481cc", "button_color": "#2481cc", "button_text_color": "#ffffff",
		"secondary_bg_color": "#efeff3"}
	DarkTheme = map[string]string{"bg_color": "#17212b", "text_color": "#f5f5f5", "hint_color": "#708499",
		"link_color": "#6ab3f3", "button_color": "#5288c1", "button_text_color": "#ffffff",
		"secondary_bg_color": "#232e3c"}
)
