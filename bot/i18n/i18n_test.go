package i18n_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/reversibot/reversi/bot/i18n"
	"github.com/reversibot/reversi/game"
)

var verbRE = regexp.MustCompile(`%(\[(\d+)\])?[-+# 0]*\d*(\.\d+)?([a-zA-Z%])`)

// verbs maps each argument index (1-based) a format uses to its verb.
func verbs(t *testing.T, s string) map[int]string {
	t.Helper()
	out := map[int]string{}
	next := 1
	for _, m := range verbRE.FindAllStringSubmatch(s, -1) {
		if m[4] == "%" {
			continue
		}
		i := next
		if m[2] != "" {
			i, _ = strconv.Atoi(m[2])
		}
		if v, ok := out[i]; ok && v != m[4] {
			t.Errorf("%q uses argument %d as %%%s and %%%s", s, i, v, m[4])
		}
		out[i] = m[4]
		next = i + 1
	}
	return out
}

func TestEveryKeyInEveryLanguage(t *testing.T) {
	keys := i18n.Keys()
	if len(keys) < 100 {
		t.Fatalf("only %d keys", len(keys))
	}
	for _, lang := range i18n.Langs() {
		for _, k := range keys {
			if !i18n.Has(lang, k) {
				t.Errorf("%s has no %q", lang, k)
				continue
			}
			if strings.TrimSpace(i18n.T(lang, k)) == "" {
				t.Errorf("%s %q is empty", lang, k)
			}
			if !utf8.ValidString(i18n.T(lang, k)) {
				t.Errorf("%s %q is not UTF-8", lang, k)
			}
			if i18n.IsPlural(k) {
				continue // TestPluralTexts checks each form
			}
			if got, want := verbs(t, i18n.T(lang, k)), verbs(t, i18n.T(i18n.EN, k)); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s %q takes %v, English takes %v", lang, k, got, want)
			}
		}
	}
	// No language has a key the canonical list lacks.
	for _, lang := range i18n.Langs() {
		n := 0
		for _, k := range keys {
			if i18n.Has(lang, k) {
				n++
			}
		}
		if n != len(keys) {
			t.Errorf("%s has %d of %d keys", lang, n, len(keys))
		}
	}
}

func TestTelegramLimits(t *testing.T) {
	cmdRE := regexp.MustCompile(`^[a-z0-9_]{1,32}$`)
	for _, lang := range i18n.Langs() {
		cmds := i18n.Commands(lang)
		if len(cmds) == 0 || len(cmds) > 100 {
			t.Fatalf("%s: %d commands", lang, len(cmds))
		}
		for _, c := range cmds {
			if !cmdRE.MatchString(c.Command) {
				t.Errorf("command %q", c.Command)
			}
			if n := utf8.RuneCountInString(c.Description); n < 1 || n > 256 {
				t.Errorf("%s /%s description has %d characters", lang, c.Command, n)
			}
		}
		for _, k := range i18n.Keys() {
			s := i18n.T(lang, k)
			switch {
			case strings.HasPrefix(string(k), "err."):
				// Shown in callback alerts: at most 200 characters (with a %q argument).
				if n := utf8.RuneCountInString(s); n > 160 {
					t.Errorf("%s %q: %d characters for an alert", lang, k, n)
				}
			case strings.HasPrefix(string(k), "btn.") || strings.HasPrefix(string(k), "menu.") && k != i18n.KeyMenuFriendHow ||
				strings.HasPrefix(string(k), "color.") || strings.HasPrefix(string(k), "level."):
				if n := utf8.RuneCountInString(s); n > 40 {
					t.Errorf("%s button %q: %d characters", lang, k, n)
				}
			}
			if n := utf8.RuneCountInString(s); n > 4096 {
				t.Errorf("%s %q: %d characters, over a message", lang, k, n)
			}
			if strings.HasPrefix(string(k), "btn.") && (strings.Contains(s, "⚫") || strings.Contains(s, "⚪")) {
				t.Errorf("%s button %q shows a disc symbol, which only board cells may", lang, k)
			}
		}
	}
}

func TestHostErrorsHaveTexts(t *testing.T) {
	for _, c := range game.Codes() {
		code := string(c)
		if !i18n.Has(i18n.EN, i18n.Key("err."+code)) {
			t.Errorf("no text for host code %q", code)
		}
		for _, lang := range i18n.Langs() {
			if got := i18n.Error(lang, code); got == "" || got == i18n.T(lang, i18n.KeyErrInternal) && code != "internal" {
				t.Errorf("Error(%s, %q) = %q", lang, code, got)
			}
		}
	}
	if got := i18n.Error(i18n.RU, "no_such_code"); got != i18n.T(i18n.RU, i18n.KeyErrInternal) {
		t.Errorf("Error of an unknown code = %q", got)
	}
}

func TestPick(t *testing.T) {
	for code, want := range map[string]string{
		"ru": "ru", "ru-RU": "ru", "RU": "ru", "be": "ru", "kk": "ru", "uz": "ru",
		"en": "en", "en-US": "en", "de": "en", "uk": "en", "": "en", "zh_Hans": "en", "pt-br": "en",
	} {
		if got := i18n.Pick(code); got != want {
			t.Errorf("Pick(%q) = %q, want %q", code, got, want)
		}
	}
	for text, want := range map[string]string{"ru": "ru", " EN ": "en", "Русский": "ru", "english": "en"} {
		if got, ok := i18n.Parse(text); !ok || got != want {
			t.Errorf("Parse(%q) = %q, %v", text, got, ok)
		}
	}
	if _, ok := i18n.Parse("de"); ok {
		t.Error("Parse(de) succeeded")
	}
}

func TestTextsAndFormatting(t *testing.T) {
	if got := i18n.T(i18n.EN, i18n.KeyGamePlayers, "Alice", "Bob"); got != "⚫ Alice vs ⚪ Bob" {
		t.Errorf("players = %q", got)
	}
	if got := i18n.T(i18n.RU, i18n.KeyInlineTitle, 10); got != "Реверси 10×10" {
		t.Errorf("inline title = %q", got)
	}
	if got := i18n.T("xx", i18n.KeyBtnUndo); got != i18n.T(i18n.EN, i18n.KeyBtnUndo) {
		t.Errorf("unknown language gives %q", got)
	}
	if got := i18n.T(i18n.EN, "no.such.key"); got != "no.such.key" {
		t.Errorf("unknown key gives %q", got)
	}
	names := map[string]bool{}
	for lang, want := range map[string][]string{i18n.EN: {"Beginner", "Master"}, i18n.RU: {"Начинающий", "Мастер"}} {
		if got := []string{i18n.Level(lang, 1), i18n.Level(lang, 6)}; fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s levels = %v, want %v", lang, got, want)
		}
		for n := 1; n <= game.MaxLevel; n++ {
			names[lang+i18n.Level(lang, n)] = true
		}
	}
	if len(names) != 2*game.MaxLevel {
		t.Errorf("level names repeat: %v", names)
	}
	if got := i18n.Level(i18n.EN, 9); got != "9" {
		t.Errorf("Level(9) = %q", got)
	}
	for _, tc := range []struct {
		lang string
		d    time.Duration
		want string
	}{
		{i18n.EN, 0, "1 minute"}, {i18n.EN, 90 * time.Second, "2 minutes"}, {i18n.EN, 2*time.Hour + 5*time.Minute, "2 hours 5 minutes"},
		{i18n.EN, time.Hour + time.Minute, "1 hour 1 minute"}, {i18n.EN, 25*time.Hour + 10*time.Minute, "1 day 1 hour"},
		{i18n.RU, 0, "1 минута"}, {i18n.RU, 3 * time.Hour, "3 часа"}, {i18n.RU, 50 * time.Hour, "2 дня 2 часа"},
		{i18n.RU, 21*time.Hour + 22*time.Minute, "21 час 22 минуты"}, {i18n.RU, 5*24*time.Hour + 11*time.Hour, "5 дней 11 часов"},
		{i18n.RU, 25 * time.Minute, "25 минут"}, {i18n.RU, 24 * time.Hour, "1 день"},
	} {
		if got := i18n.Duration(tc.lang, tc.d); got != tc.want {
			t.Errorf("Duration(%s, %v) = %q, want %q", tc.lang, tc.d, got, tc.want)
		}
	}
	for _, lang := range i18n.Langs() {
		rules := i18n.T(lang, i18n.KeyRulesText)
		for _, must := range []string{"8×8", "16×16", "a1", "d3", "/move d3"} {
			if !strings.Contains(rules, must) {
				t.Errorf("%s rules do not mention %q", lang, must)
			}
		}
	}
}

func FuzzPick(f *testing.F) {
	for _, s := range []string{"ru", "en-US", "", "\xff-", "zh_Hans-CN"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) {
		if l := i18n.Pick(code); !i18n.Supported(l) {
			t.Fatalf("Pick(%q) = %q", code, l)
		}
		if l, ok := i18n.Parse(code); ok && !i18n.Supported(l) {
			t.Fatalf("Parse(%q) = %q", code, l)
		}
	})
}

// TestPickTable checks the table a client picks by against Pick: every code in it, in the
// shapes Telegram sends, gets its language; a code not in it gets Default.
func TestPickTable(t *testing.T) {
	table := i18n.PickTable()
	if len(table) == 0 || table["ru"] != i18n.RU {
		t.Fatalf("PickTable() = %v", table)
	}
	for code, lang := range table {
		if lang == i18n.Default || !i18n.Supported(lang) {
			t.Errorf("PickTable()[%q] = %q", code, lang)
		}
		for _, c := range []string{code, strings.ToUpper(code), code + "-XX", code + "_xx"} {
			if got := i18n.Pick(c); got != lang {
				t.Errorf("Pick(%q) = %q, the table says %q", c, got, lang)
			}
		}
	}
	for _, code := range []string{"en", "de", "uk", "zh", ""} {
		if _, ok := table[code]; ok || i18n.Pick(code) != i18n.Default {
			t.Errorf("%q: in the table %v, Pick %q", code, ok, i18n.Pick(code))
		}
	}
	table["de"] = i18n.RU // a copy: Pick does not change
	if i18n.Pick("de") != i18n.Default {
		t.Error("PickTable returned the table itself")
	}
}
