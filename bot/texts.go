package bot

import "github.com/reversibot/reversi/bot/i18n"

// The languages the bot speaks.
const (
	langEN = i18n.EN
	langRU = i18n.RU
)

// tr returns the text key of package i18n in lang, formatted with args.
func tr(lang, key string, args ...any) string { return i18n.T(lang, i18n.Key(key), args...) }

// normLang maps a Telegram language_code, or a stored choice, to a language the bot speaks.
func normLang(code string) string { return i18n.Pick(code) }
