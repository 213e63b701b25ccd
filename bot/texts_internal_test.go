package bot

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/reversibot/reversi/bot/i18n"
	"github.com/reversibot/reversi/game"
)

// keyRE finds the text keys the bot's sources name as strings ("btn.resign", "err.no_game").
var keyRE = regexp.MustCompile(`tr\([a-zA-Z.]+, "([a-z_]+\.[a-z_]+)"|replyKey\(ctx, m, "([a-z_]+\.[a-z_]+)"|"((?:err|btn|menu|color|lobby|find|game|stats|top|lang|result|inline|invite|start|help|rules)\.[a-z_]+)"`)

// constRE finds the text keys the sources name by constant (i18n.KeyBtnResign), which the
// compiler checks.
var constRE = regexp.MustCompile(`\bi18n\.Key[A-Z]\w*`)

// TestTextKeys checks that every text key the sources name as a string, and every error code
// of package game, has a text in both languages (i18n's tests check the constants).
func TestTextKeys(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	more, err := filepath.Glob("present/*.go")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, more...)
	keys := map[string]bool{}
	named := 0 // keys named, by string or by constant
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		named += len(constRE.FindAllString(string(src), -1))
		for _, m := range keyRE.FindAllStringSubmatch(string(src), -1) {
			named++
			for _, k := range m[1:] {
				if k != "" {
					keys[k] = true
				}
			}
		}
	}
	for _, c := range game.Codes() {
		code := string(c)
		keys["err."+code] = true
	}
	if named < 40 {
		t.Fatalf("found only %d keys: the patterns are broken", named)
	}
	for k := range keys {
		for _, lang := range []string{langEN, langRU} {
			if !i18n.Has(lang, i18n.Key(k)) {
				t.Errorf("no %s text for key %q", lang, k)
			}
		}
	}
}

func TestNormLang(t *testing.T) {
	for in, want := range map[string]string{"ru": "ru", "ru-RU": "ru", "en": "en", "": "en", "de": "en", "pt-BR": "en", "be": "ru"} {
		if got := normLang(in); got != want {
			t.Errorf("normLang(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestParseGameArgs: the arguments of /ai, /new and /find in any order, and for a word they
// cannot take, the word and what is wrong with it.
func TestParseGameArgs(t *testing.T) {
	valid := func(n int) bool { return n == 8 || n == 10 || n == 12 || n == 16 }
	for _, c := range []struct {
		args        string
		size, level int
		color       game.Choice
		bad, why    string // the word refused, and its text; "" for none
	}{
		{"", 0, 0, game.ChooseRandom, "", ""},
		{"10 3 white", 10, 3, game.ChooseWhite, "", ""},
		{"black 16", 16, 0, game.ChooseBlack, "", ""},
		{"8 3 белые", 8, 3, game.ChooseWhite, "", ""},
		{"Чёрные 10", 10, 0, game.ChooseBlack, "", ""},
		{"случайно", 0, 0, game.ChooseRandom, "", ""},
		{"12x12 6", 12, 6, game.ChooseRandom, "", ""},
		{"6 10×10", 10, 6, game.ChooseRandom, "", ""},
		{"3 8X", 8, 3, game.ChooseRandom, "", ""},
		{"8 1 purple", 0, 0, 0, "purple", "arg.unknown"},
		{"99", 0, 0, 0, "99", "arg.bad_size"},
		{"7", 0, 0, 0, "7", "arg.bad_size"},
		{"8 9", 0, 0, 0, "9", "arg.bad_level"},
		{"8 10", 0, 0, 0, "10", "arg.bad_level"},
		{"3 5", 0, 0, 0, "5", "arg.bad_size"},
		{"8 3 5", 0, 0, 0, "5", "arg.unknown"},
		{"10x12", 0, 0, 0, "10x12", "arg.bad_size"},
		{"8 10x10", 0, 0, 0, "10x10", "arg.unknown"},
		{"0", 0, 0, 0, "0", "arg.unknown"},
		{"x10", 0, 0, 0, "x10", "arg.unknown"},
		{"12xx", 0, 0, 0, "12xx", "arg.unknown"},
	} {
		a, bad := parseGameArgs(strings.Fields(c.args), valid)
		switch {
		case c.bad == "" && bad != nil:
			t.Errorf("parseGameArgs(%q) refused %q (%s)", c.args, bad.word, bad.why)
		case c.bad == "" && (a.size != c.size || a.level != c.level || a.color != c.color):
			t.Errorf("parseGameArgs(%q) = %d %d %d, want %d %d %d", c.args, a.size, a.level, a.color, c.size, c.level, c.color)
		case c.bad != "" && (bad == nil || bad.word != c.bad || string(bad.why) != c.why):
			t.Errorf("parseGameArgs(%q) = %+v, %+v; want %q refused with %s", c.args, a, bad, c.bad, c.why)
		}
	}
}

// A store's error reaches the player as the internal-error text, never as a raw key; the
// Service's own errors have texts of their own.
func TestErrKey(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want i18n.Key
	}{
		{fmt.Errorf("move: %w", game.ErrUnavailable), i18n.KeyErrInternal},
		{game.ErrNotFound, i18n.KeyErrInternal},
		{errors.New("boom"), i18n.KeyErrInternal},
		{game.ErrNotYourTurn, i18n.KeyErrNotYourTurn},
		{game.ErrStale, i18n.KeyErrStale},
	} {
		if got := errKey(tc.err); got != tc.want {
			t.Errorf("errKey(%v) = %q, want %q", tc.err, got, tc.want)
		}
		for _, lang := range []string{langEN, langRU} {
			if text := tr(lang, errKey(tc.err)); strings.HasPrefix(text, "err.") {
				t.Errorf("errKey(%v) in %s shows the raw key %q", tc.err, lang, text)
			}
		}
	}
}
