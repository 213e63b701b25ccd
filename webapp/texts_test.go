package webapp_test

import (
	"encoding/json"
	"fmt"
	"html"
	"maps"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/reversibot/reversi/bot/i18n"
	"github.com/reversibot/reversi/webapp"
)

// jsLiteral is a string literal of a script: its value, escapes decoded, and its line.
type jsLiteral struct {
	value string
	line  int
}

// scanJS reads the script src as far as a check of its texts needs: it returns its string
// literals ('…', "…" and `…`, a template's ${…} parts included in its value) and src with its
// comments blanked out, telling a regular expression literal from a division by what comes
// before the slash. It fails on a literal, comment or regular expression left open.
func scanJS(src string) ([]jsLiteral, string, error) {
	var lits []jsLiteral
	code := []byte(src)
	line := 1
	var prev byte // the last significant character: 'a' for an identifier, ')' for a literal
	word := ""    // the identifier prev stands for
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case strings.HasPrefix(src[i:], "//"):
			for ; i < len(src) && src[i] != '\n'; i++ {
				code[i] = ' '
			}
		case strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return nil, "", fmt.Errorf("line %d: a comment left open", line)
			}
			for j := i; j < i+end+4; j++ {
				if src[j] == '\n' {
					line++
				} else {
					code[j] = ' '
				}
			}
			i += end + 4
		case c == '\'' || c == '"' || c == '`':
			start := line
			var v strings.Builder
			j := i + 1
			for ; j < len(src) && src[j] != c; j++ {
				switch {
				case src[j] == '\\':
					n, r := jsEscape(src[j+1:])
					if r == '\n' {
						line++
					}
					if r >= 0 && r != '\n' {
						v.WriteRune(r)
					}
					j += n
				case src[j] == '\n' && c != '`':
					return nil, "", fmt.Errorf("line %d: a string left open", start)
				default:
					if src[j] == '\n' {
						line++
					}
					v.WriteByte(src[j])
				}
			}
			if j >= len(src) {
				return nil, "", fmt.Errorf("line %d: a string left open", start)
			}
			lits = append(lits, jsLiteral{v.String(), start})
			prev, word = ')', ""
			i = j + 1
		case c == '/' && regexMayStart(prev, word):
			j, class := i+1, false
		body:
			for ; j < len(src); j++ {
				switch ch := src[j]; {
				case ch == '\\':
					j++
				case ch == '\n':
					return nil, "", fmt.Errorf("line %d: a regular expression left open", line)
				case class:
					class = ch != ']'
				case ch == '[':
					class = true
				case ch == '/':
					break body
				}
			}
			if j >= len(src) {
				return nil, "", fmt.Errorf("line %d: a regular expression left open", line)
			}
			for j++; j < len(src) && isIdentPart(src[j]); j++ { // its flags
			}
			prev, word = ')', ""
			i = j
		case isIdentPart(c) && !(c >= '0' && c <= '9'):
			j := i
			for j < len(src) && isIdentPart(src[j]) {
				j++
			}
			prev, word = 'a', src[i:j]
			i = j
		default:
			prev, word = c, ""
			i++
		}
	}
	return lits, string(code), nil
}

// jsEscape decodes the escape that s starts with (s follows the backslash): it returns the
// bytes the escape takes after the backslash and its rune, '\n' for a line continuation.
func jsEscape(s string) (int, rune) {
	if s == "" {
		return 0, -1
	}
	hex := func(h string) rune {
		n, err := strconv.ParseUint(h, 16, 32)
		if err != nil {
			return utf8.RuneError
		}
		return rune(n)
	}
	switch {
	case s[0] == '\n':
		return 1, '\n'
	case strings.HasPrefix(s, "u{"):
		if end := strings.IndexByte(s, '}'); end > 0 {
			return end + 1, hex(s[2:end])
		}
	case s[0] == 'u' && len(s) >= 5:
		return 5, hex(s[1:5])
	case s[0] == 'x' && len(s) >= 3:
		return 3, hex(s[1:3])
	}
	r, n := utf8.DecodeRuneInString(s)
	switch r {
	case 'n', 'r', 't', 'b', 'f', 'v', '0':
		return n, ' '
	}
	return n, r
}

func isIdentPart(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// regexMayStart reports whether a slash after prev (and the identifier word) starts a regular
// expression rather than a division.
func regexMayStart(prev byte, word string) bool {
	if prev == 'a' {
		switch word {
		case "return", "typeof", "case", "do", "else", "in", "instanceof", "new", "delete", "void", "throw", "of", "yield", "await":
			return true
		}
		return false
	}
	return prev == 0 || strings.IndexByte("(,=:[!&|?{};+-*%<>~^", prev) >= 0
}

// codeWords are the string literals of app.js with letters that are code, not text, and do
// not look like code by codeLike: what a request, the DOM or the console needs. Add one only
// when no person ever reads it on the page.
var codeWords = []string{
	"Content-Type", "Accept-Language", "GET", "POST", "tma ", // the API's requests
	"X", "O", // the discs of State.Board
	"end ",       // the classes of the status line
	"use strict", // the script's mode
	"https://telegram.org/js/telegram-web-app.js",
	"reversi: the page has no texts", // console.error, for the developer (and the browser tests)
}

// codeLike matches the literals that are names of code: an identifier, a DOM id or class, a
// CSS property or value, an event, a JSON field, a performance mark, an API path, a query's
// part ("?g=") — lowercase first, no space.
var codeLike = regexp.MustCompile(`^(--|[.#?&])?[a-z][a-zA-Z0-9]*([-_:./][a-zA-Z0-9]+)*[-_=/]?$|^\d+(px|ms|%)$`)

// TestPageShowsNoTextOfItsOwn fails when app.js holds a text the user would read: every
// string literal with a letter in it must be a key of a text the page is served (pageKeys), or
// code (codeLike, codeWords); and every text the script shows goes through t, named by a
// literal key. index.html holds no text either: only the markers that the server fills.
func TestPageShowsNoTextOfItsOwn(t *testing.T) {
	src, err := os.ReadFile("static/app.js")
	if err != nil {
		t.Fatal(err)
	}
	lits, code, err := scanJS(string(src))
	if err != nil {
		t.Fatalf("app.js: %v", err)
	}
	if len(lits) < 100 {
		t.Fatalf("found only %d string literals in app.js: the scan is broken", len(lits))
	}
	keys := map[string]bool{}
	for _, k := range webapp.PageKeys() {
		keys[string(k)] = true
	}
	for _, l := range lits {
		hasLetter := strings.IndexFunc(l.value, unicode.IsLetter) >= 0
		switch {
		case !hasLetter, keys[l.value], slices.Contains(codeWords, l.value):
		case i18n.Has(i18n.EN, i18n.Key(l.value)):
			t.Errorf("app.js line %d names the text %q, which the page is not served: add it to pageKeys", l.line, l.value)
		case codeLike.MatchString(l.value):
		default:
			t.Errorf("app.js line %d: %q looks like a text to read: make it a text of package i18n, add its key to pageKeys "+
				"and show it with t('key'); or, if it is code that nobody reads, add it to codeWords", l.line, l.value)
		}
	}

	// Every call of t names its text by a literal key of pageKeys, and every key is shown.
	calls := regexp.MustCompile(`(?:^|[^\w$.])t\(\s*(?:'([^'\\]*)'|"([^"\\]*)")?`)
	shown := map[string]bool{}
	for _, m := range calls.FindAllStringSubmatchIndex(code, -1) {
		if strings.HasSuffix(strings.TrimSpace(code[:m[0]+1]), "function") {
			continue // the definition
		}
		at := 1 + strings.Count(code[:m[0]], "\n")
		key := ""
		switch {
		case m[2] >= 0:
			key = code[m[2]:m[3]]
		case m[4] >= 0:
			key = code[m[4]:m[5]]
		default:
			t.Errorf("app.js line %d calls t without a literal key: name the text, so that this test sees it", at)
			continue
		}
		if !keys[key] {
			t.Errorf("app.js line %d shows %q, which is no key of pageKeys", at, key)
		}
		shown[key] = true
	}
	for k := range keys {
		if !shown[k] {
			t.Errorf("the page is served %q, which app.js never shows: take it out of pageKeys", k)
		}
	}

	page, err := os.ReadFile("static/index.html")
	if err != nil {
		t.Fatal(err)
	}
	tags := regexp.MustCompile(`(?s)<[^>]*>`)
	for _, chunk := range tags.Split(string(page), -1) {
		chunk = strings.TrimSpace(html.UnescapeString(chunk))
		if chunk != "" && chunk != "{{title}}" && chunk != "{{texts}}" && strings.IndexFunc(chunk, unicode.IsLetter) >= 0 {
			t.Errorf("index.html shows %q: the page's texts come from the catalogue", chunk)
		}
	}
	attrs := regexp.MustCompile(`\b(title|alt|placeholder|aria-label|aria-description|value)="([^"]*)"`)
	for _, m := range attrs.FindAllStringSubmatch(string(page), -1) {
		if strings.IndexFunc(m[2], unicode.IsLetter) >= 0 {
			t.Errorf("index.html has %s=%q: the page's texts come from the catalogue", m[1], m[2])
		}
	}
}

// TestScanJS checks the scan that TestPageShowsNoTextOfItsOwn relies on.
func TestScanJS(t *testing.T) {
	src := `var a = 'one', b = "two"; // 'not a literal'
/* "nor this"
*/ var r = /it's \/ [/'] a regex/g.test(x) ? x / 2 / y : 'three\u0021';
return /four'/.exec(s) || ` + "`five ${'six'}`" + ` + '\x41\
b';`
	lits, code, err := scanJS(src)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range lits {
		got = append(got, fmt.Sprintf("%d:%s", l.line, l.value))
	}
	want := []string{"1:one", "1:two", "3:three!", "4:five ${'six'}", "4:Ab"}
	if !slices.Equal(got, want) {
		t.Errorf("literals %q, want %q", got, want)
	}
	if strings.Contains(code, "not a literal") || strings.Contains(code, "nor this") || strings.Count(code, "\n") != 4 {
		t.Errorf("comments left in the code: %q", code)
	}
	for _, bad := range []string{`var a = 'open`, `/* open`, `x = /open`, "var a = `open"} {
		if _, _, err := scanJS(bad); err == nil {
			t.Errorf("scanJS(%q) succeeded", bad)
		}
	}
}

// servedTexts reads the catalogue of texts that the page carries, as the server serves it.
func servedTexts(t *testing.T, e *env) (webapp.PageTexts, string) {
	t.Helper()
	a := e.do("GET", "/", "", nil)
	if a.status != 200 {
		t.Fatalf("the page: %d", a.status)
	}
	page := string(a.body)
	m := regexp.MustCompile(`(?s)<script type="application/json" id="texts">(.*?)</script>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("the page carries no texts:\n%s", page)
	}
	var c webapp.PageTexts
	if err := json.Unmarshal([]byte(m[1]), &c); err != nil {
		t.Fatalf("the texts do not decode: %v\n%s", err, m[1])
	}
	return c, page
}

// pageVerb matches what the page's t formats: %s, %d, their indexed forms and %%.
var pageVerb = regexp.MustCompile(`%(\[[1-9]\])?[sd]|%%`)

// TestPageTexts checks the catalogue the page is served against package i18n: the texts of
// every key of pageKeys in every language, as i18n has them (a plural text by its forms), with
// no verb that the page cannot format; the table of languages i18n.Pick decides by; and the
// title and language the page starts with.
func TestPageTexts(t *testing.T) {
	e := newEnv(t)
	c, page := servedTexts(t, e)
	if c.Default != i18n.Default {
		t.Errorf("default %q, want %q", c.Default, i18n.Default)
	}
	if !maps.Equal(c.Pick, i18n.PickTable()) {
		t.Errorf("pick %v, want %v", c.Pick, i18n.PickTable())
	}
	for code, lang := range c.Pick {
		if got := i18n.Pick(code); got != lang || lang == i18n.Default {
			t.Errorf("pick %q: %q, i18n.Pick says %q", code, lang, got)
		}
	}
	if got := slices.Sorted(maps.Keys(c.Texts)); !slices.Equal(got, slices.Sorted(slices.Values(i18n.Langs()))) {
		t.Errorf("texts in %v, want %v", got, i18n.Langs())
	}
	keys := webapp.PageKeys()
	plurals := 0
	for _, lang := range i18n.Langs() {
		texts := c.Texts[lang]
		if len(texts) != len(keys) {
			t.Errorf("%s: %d texts, want the %d of pageKeys", lang, len(texts), len(keys))
		}
		for _, k := range keys {
			v, ok := texts[k]
			if !ok {
				t.Errorf("%s: no text %q", lang, k)
				continue
			}
			var forms map[string]string
			switch v := v.(type) {
			case string:
				if want := i18n.T(lang, k); v != want || i18n.IsPlural(k) {
					t.Errorf("%s %q = %q, want %q", lang, k, v, want)
				}
				forms = map[string]string{"": v}
			case map[string]any:
				plurals++
				forms = map[string]string{}
				for cat, f := range v {
					forms[cat], _ = f.(string)
				}
				if want := i18n.Forms(lang, k); !maps.Equal(forms, want) {
					t.Errorf("%s %q = %q, want the forms %q", lang, k, forms, want)
				}
			default:
				t.Errorf("%s %q is a %T", lang, k, v)
			}
			for cat, f := range forms {
				if rest := pageVerb.ReplaceAllString(f, ""); strings.Contains(rest, "%") {
					t.Errorf("%s %q %s: %q has a verb the page does not format", lang, k, cat, f)
				}
			}
		}
	}
	if plurals != 2*2 {
		t.Errorf("%d plural texts served, want app.discs and app.moves_played in both languages", plurals)
	}
	title := "<title>" + html.EscapeString(i18n.T(i18n.Default, i18n.KeyAppTitle)) + "</title>"
	if !strings.Contains(page, title) || !strings.Contains(page, `<html lang="`+i18n.Default+`">`) || strings.Contains(page, "{{") {
		t.Errorf("the page does not start with the title %s in %s:\n%s", title, i18n.Default, page)
	}
}
