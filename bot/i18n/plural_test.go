package i18n_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/reversibot/reversi/bot/i18n"
)

// forms splits a plural text into its forms by category name, as the tests see it.
func forms(t *testing.T, s string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for rest := strings.TrimSpace(s); rest != ""; {
		open, end := strings.IndexByte(rest, '{'), strings.IndexByte(rest, '}')
		if open < 0 || end < open {
			t.Fatalf("plural text %q does not parse", s)
		}
		out[strings.TrimSpace(rest[:open])] = rest[open+1 : end]
		rest = strings.TrimSpace(rest[end+1:])
	}
	return out
}

// TestPluralForms is the table of CLDR cardinal categories the bot relies on: English has
// one and other, Russian one (1, 21, 101), few (2, 22) and many (0, 5, 11, 25, 111).
func TestPluralForms(t *testing.T) {
	for _, tc := range []struct {
		n      int
		en, ru string
	}{
		{0, "other", "many"}, {1, "one", "one"}, {2, "other", "few"}, {5, "other", "many"},
		{11, "other", "many"}, {21, "other", "one"}, {22, "other", "few"}, {25, "other", "many"},
		{101, "other", "one"}, {111, "other", "many"}, {12, "other", "many"}, {14, "other", "many"},
		{1_000_001, "other", "one"}, {-1, "one", "one"}, {-22, "other", "few"},
	} {
		if got := i18n.PluralForm(i18n.EN, tc.n); got != tc.en {
			t.Errorf("English form of %d = %s, want %s", tc.n, got, tc.en)
		}
		if got := i18n.PluralForm(i18n.RU, tc.n); got != tc.ru {
			t.Errorf("Russian form of %d = %s, want %s", tc.n, got, tc.ru)
		}
	}
}

// TestPluralWords: the counts of /stats and of durations read naturally in both languages.
func TestPluralWords(t *testing.T) {
	want := map[string]map[int]string{
		i18n.EN: {0: "0 wins", 1: "1 win", 2: "2 wins", 5: "5 wins", 11: "11 wins", 21: "21 wins", 22: "22 wins",
			25: "25 wins", 101: "101 wins", 111: "111 wins"},
		i18n.RU: {0: "0 побед", 1: "1 победа", 2: "2 победы", 5: "5 побед", 11: "11 побед", 21: "21 победа",
			22: "22 победы", 25: "25 побед", 101: "101 победа", 111: "111 побед"},
	}
	for lang, byN := range want {
		for n, w := range byN {
			if got := i18n.Plural(lang, i18n.KeyCountWins, n); got != w {
				t.Errorf("%s Plural(wins, %d) = %q, want %q", lang, n, got, w)
			}
		}
	}
	for _, tc := range []struct {
		lang string
		key  i18n.Key
		n    int
		want string
	}{
		{i18n.RU, i18n.KeyCountLosses, 1, "1 поражение"}, {i18n.RU, i18n.KeyCountLosses, 3, "3 поражения"},
		{i18n.RU, i18n.KeyCountLosses, 11, "11 поражений"}, {i18n.RU, i18n.KeyCountDraws, 21, "21 ничья"},
		{i18n.RU, i18n.KeyCountDraws, 2, "2 ничьи"}, {i18n.RU, i18n.KeyCountDraws, 0, "0 ничьих"},
		{i18n.RU, i18n.KeyCountGames, 101, "101 партия"}, {i18n.RU, i18n.KeyCountGames, 104, "104 партии"},
		{i18n.RU, i18n.KeyCountGames, 111, "111 партий"}, {i18n.EN, i18n.KeyCountLosses, 1, "1 loss"},
		{i18n.EN, i18n.KeyCountLosses, 2, "2 losses"}, {i18n.EN, i18n.KeyCountDraws, 1, "1 draw"},
		{i18n.EN, i18n.KeyCountGames, 0, "0 games"}, {i18n.RU, i18n.KeyUnitHours, 22, "22 часа"},
		{i18n.RU, i18n.KeyGameUndone, 1, "Отменён 1 ход."}, {i18n.RU, i18n.KeyGameUndone, 2, "Отменено 2 хода."},
		{i18n.RU, i18n.KeyGameUndone, 5, "Отменено 5 ходов."}, {i18n.EN, i18n.KeyGameUndone, 1, "1 move taken back."},
		{i18n.EN, i18n.KeyGameUndone, 3, "3 moves taken back."},
		{"xx", i18n.KeyCountWins, 1, "1 win"}, // an unsupported language is the default one
	} {
		if got := i18n.Plural(tc.lang, tc.key, tc.n); got != tc.want {
			t.Errorf("%s Plural(%s, %d) = %q, want %q", tc.lang, tc.key, tc.n, got, tc.want)
		}
	}
	// Plural of a key that is no plural text formats it with the count; an unknown key is itself.
	if got := i18n.Plural(i18n.EN, i18n.KeyInviteCreated, 10, 10); got != "Forward the next message to a friend. Whoever opens it plays you on 10×10." {
		t.Errorf("Plural of a plain text = %q", got)
	}
	if got := i18n.Plural(i18n.EN, "no.such.key", 3); got != "no.such.key" {
		t.Errorf("Plural of an unknown key = %q", got)
	}
}

// TestPluralTexts checks every plural text: it is one in both languages, has an "other" form
// and the form of every count from 0 to 1000 in each language, names only the categories its
// language has, and every form takes the arguments of the English "other" form.
func TestPluralTexts(t *testing.T) {
	n := 0
	for _, k := range i18n.Keys() {
		if !i18n.IsPlural(k) {
			for _, lang := range i18n.Langs() {
				if strings.HasPrefix(strings.TrimSpace(i18n.T(lang, k)), "other {") || strings.HasPrefix(i18n.T(lang, k), "one {") {
					t.Errorf("%s %q looks like a plural text but is none in English", lang, k)
				}
			}
			continue
		}
		n++
		want := verbs(t, forms(t, i18n.T(i18n.EN, k))["other"])
		if len(want) == 0 || want[1] != "d" {
			t.Errorf("%q: the English form takes %v, not the count first", k, want)
		}
		for _, lang := range i18n.Langs() {
			fs := forms(t, i18n.T(lang, k))
			if _, ok := fs["other"]; !ok {
				t.Errorf("%s %q has no other form", lang, k)
			}
			used := map[string]bool{"other": true}
			for c := 0; c <= 1000; c++ {
				f := i18n.PluralForm(lang, c)
				used[f] = true
				if _, ok := fs[f]; !ok {
					t.Errorf("%s %q has no %s form, for %d", lang, k, f, c)
					break
				}
			}
			for f, s := range fs {
				if !used[f] {
					t.Errorf("%s %q has a %s form, which %s does not use", lang, k, f, lang)
				}
				if got := verbs(t, s); fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("%s %q form %s takes %v, English takes %v", lang, k, f, got, want)
				}
			}
		}
	}
	if n < 5 {
		t.Errorf("only %d plural texts", n)
	}
}

// TestForms checks the forms a client picks from (the Mini App's page) against Plural: the
// form of category PluralForm(n), formatted with n, is Plural's text for every n.
func TestForms(t *testing.T) {
	for _, k := range i18n.Keys() {
		for _, lang := range i18n.Langs() {
			fs := i18n.Forms(lang, k)
			if (fs != nil) != i18n.IsPlural(k) {
				t.Errorf("%s Forms(%q) = %q, IsPlural %v", lang, k, fs, i18n.IsPlural(k))
				continue
			}
			if fs == nil {
				continue
			}
			for n := 0; n <= 200; n++ {
				f, ok := fs[i18n.PluralForm(lang, n)]
				if !ok {
					f = fs["other"]
				}
				if got, want := fmt.Sprintf(f, n), i18n.Plural(lang, k, n); got != want {
					t.Errorf("%s %q %d: the forms give %q, Plural %q", lang, k, n, got, want)
					break
				}
			}
		}
	}
	if got := i18n.Forms("xx", i18n.KeyCountWins); got["one"] != "%d win" {
		t.Errorf("Forms of an unsupported language = %q", got)
	}
	i18n.Forms(i18n.RU, i18n.KeyCountWins)["one"] = "changed" // a copy
	if got := i18n.Plural(i18n.RU, i18n.KeyCountWins, 1); got != "1 победа" {
		t.Errorf("Forms returned the forms themselves: %q", got)
	}
}
