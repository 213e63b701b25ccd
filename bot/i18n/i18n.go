// Package i18n holds every text the Reversi bot shows, in English and Russian: in chats and
// in its Mini App (package webapp serves the page the texts it shows, the keys app.*, with the
// page: see PickTable and Forms). It picks the language for a user from Telegram's
// language_code.
//
// Texts are plain text (send them without a parse mode); those with arguments are fmt
// formats, and the two languages take the same arguments in the same order of meaning
// (explicit indexes such as %[2]s let a translation reorder them). A text with a count is a
// plural text, one form per CLDR plural category, shown with Plural (see plural.go). A test
// checks that both languages have every key, that none is empty, and that their format verbs
// agree.
package i18n

import (
	"fmt"
	"maps"
	"strings"
	"time"
)

// The languages the bot speaks.
const (
	EN = "en"
	RU = "ru"
)

// Default is the language for users whose Telegram language the bot does not speak.
const Default = EN

// Langs returns the languages the bot speaks.
func Langs() []string { return []string{EN, RU} }

// Key names one text.
type Key string

// Supported reports whether lang is one of Langs.
func Supported(lang string) bool { return lang == EN || lang == RU }

// Pick returns the language for a Telegram language_code ("ru", "en-US", "be", ...): Russian
// for Russian and for the languages of countries where Russian is widely read (Belarusian,
// Kazakh, Kyrgyz, Tajik, Uzbek), English otherwise. Ukrainian gets English on purpose: many
// Ukrainian speakers would rather not be answered in Russian, and /lang switches.
func Pick(languageCode string) string {
	code, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(languageCode)), "-")
	code, _, _ = strings.Cut(code, "_")
	if l, ok := readers[code]; ok {
		return l
	}
	return Default
}

// readers maps the primary language subtags that Pick answers with another language than
// Default to that language.
var readers = map[string]string{"ru": RU, "be": RU, "kk": RU, "ky": RU, "tg": RU, "uz": RU}

// PickTable returns what Pick decides, for a client that picks a language by itself (the Mini
// App's page): the primary language subtags ("ru", "be", ...) that get another language than
// Default, with that language. Pick lowercases a code and cuts it at its first "-" or "_"
// before it looks it up; any other subtag gets Default. The map is a copy.
func PickTable() map[string]string {
	return maps.Clone(readers)
}

// Parse reads a language a user typed (/lang ru): "ru", "en", "рус", "english", ... It reports
// false for anything else.
func Parse(text string) (string, bool) {
	switch strings.ToLower(strings.TrimSpace(text)) {
	case "ru", "rus", "russian", "рус", "ру", "русский":
		return RU, true
	case "en", "eng", "english", "англ", "английский":
		return EN, true
	}
	return "", false
}

// T returns the text of key in lang (the Default language for an unsupported lang), formatted
// with args when there are any. An unknown key returns the key itself, never an empty text.
func T(lang string, key Key, args ...any) string {
	m, ok := texts[lang]
	if !ok {
		m = texts[Default]
	}
	s, ok := m[key]
	if !ok {
		return string(key)
	}
	if len(args) == 0 {
		return s
	}
	return fmt.Sprintf(s, args...)
}

// Has reports whether lang has a text for key.
func Has(lang string, key Key) bool {
	_, ok := texts[lang][key]
	return ok
}

// Keys returns every key, in no particular order.
func Keys() []Key {
	out := make([]Key, 0, len(en))
	for k := range en {
		out = append(out, k)
	}
	return out
}

// Level returns the name of AI level n (1 to 6) in lang, or the number for another n.
func Level(lang string, n int) string {
	if n < 1 || n > 6 {
		return fmt.Sprint(n)
	}
	return T(lang, Key(fmt.Sprintf("level.%d", n)))
}

// Error returns the message for an error code of package game (game.Code), for an alert or a
// reply; an unknown code gets the text for an internal error.
func Error(lang, code string) string {
	k := Key("err." + code)
	if !Has(EN, k) {
		k = KeyErrInternal
	}
	return T(lang, k)
}

// Duration writes d in words, rounded up to minutes, with the plural forms of its language
// ("2 hours 5 minutes", "2 часа 5 минут"); under a minute it says "1 minute", and from a day
// on it leaves out the minutes ("1 day 3 hours").
func Duration(lang string, d time.Duration) string {
	m := int((d + time.Minute - 1) / time.Minute)
	if m < 1 {
		m = 1
	}
	days, h, mins := m/(24*60), m/60%24, m%60
	var parts []string
	if days > 0 {
		parts = append(parts, Plural(lang, KeyUnitDays, days))
	}
	if h > 0 {
		parts = append(parts, Plural(lang, KeyUnitHours, h))
	}
	if mins > 0 && days == 0 {
		parts = append(parts, Plural(lang, KeyUnitMinutes, mins))
	}
	return strings.Join(parts, " ")
}

// Command is one entry of the bot's command menu, for setMyCommands.
type Command struct {
	Command     string // without the slash
	Description string
}

// commands are the commands of the menu, in its order.
var commands = []string{"start", "ai", "new", "find", "cancel", "board", "move", "resign", "stats", "top", "rules", "help", "lang", "style", "review"}

// Commands returns the command menu in lang.
func Commands(lang string) []Command {
	out := make([]Command, len(commands))
	for i, c := range commands {
		out[i] = Command{Command: c, Description: T(lang, Key("cmd."+c))}
	}
	return out
}

var texts = map[string]map[Key]string{EN: en, RU: ru}
