package i18n

import (
	"fmt"
	"strings"
	"sync"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

// A text with a count (a plural text) holds one form per CLDR plural category of its
// language, each a category name and the form in braces, in the manner of ICU messages:
//
//	"one {%d win} other {%d wins}"
//	"one {%d победа} few {%d победы} many {%d побед} other {%d победы}"
//
// Plural picks the form by the cardinal plural rules of CLDR as golang.org/x/text implements
// them, so that 1, 21 and 101 take "one", 2 to 4 and 22 "few", 5 to 20, 25 and 111 "many" in
// Russian. Every form takes the same arguments, the count first; every plural text has an
// "other" form, and a test checks that each language has every form its integers need.

// categories names the plural categories a form may be written for.
var categories = map[string]plural.Form{
	"zero": plural.Zero, "one": plural.One, "two": plural.Two, "few": plural.Few, "many": plural.Many, "other": plural.Other,
}

// tags are the language tags whose plural rules the languages use.
var tags = map[string]language.Tag{EN: language.English, RU: language.Russian}

// parseForms reads a plural text into its forms by category; ok is false for a text that is
// not a plural text (no form, a word that is no category, a missing brace, no "other" form).
func parseForms(s string) (map[plural.Form]string, bool) {
	out := map[plural.Form]string{}
	rest := strings.TrimSpace(s)
	for rest != "" {
		open := strings.IndexByte(rest, '{')
		if open < 0 {
			return nil, false
		}
		cat, ok := categories[strings.TrimSpace(rest[:open])]
		if !ok {
			return nil, false
		}
		end := strings.IndexByte(rest[open:], '}')
		if end < 0 {
			return nil, false
		}
		if _, dup := out[cat]; dup {
			return nil, false
		}
		out[cat] = rest[open+1 : open+end]
		rest = strings.TrimSpace(rest[open+end+1:])
	}
	if _, ok := out[plural.Other]; !ok {
		return nil, false
	}
	return out, true
}

var (
	formsOnce sync.Once
	forms     map[string]map[Key]map[plural.Form]string // by language, the plural texts
)

// pluralTexts returns the parsed plural texts of lang, parsing all of them on first use.
func pluralTexts(lang string) map[Key]map[plural.Form]string {
	formsOnce.Do(func() {
		forms = map[string]map[Key]map[plural.Form]string{}
		for l, m := range texts {
			forms[l] = map[Key]map[plural.Form]string{}
			for k, s := range m {
				if f, ok := parseForms(s); ok {
					forms[l][k] = f
				}
			}
		}
	})
	return forms[lang]
}

// IsPlural reports whether the text of key is a plural text, to be shown with Plural.
func IsPlural(key Key) bool {
	_, ok := pluralTexts(Default)[key]
	return ok
}

// Forms returns the forms of the plural text of key in lang (the Default language for an
// unsupported lang) by the name of their CLDR category ("one", "few", "many", "other"...), for a
// client that picks the form by itself (the Mini App's page); nil when the text is not a plural
// text. Each form is a format that takes the count first, as with Plural. The map is a copy.
func Forms(lang string, key Key) map[string]string {
	if _, ok := texts[lang]; !ok {
		lang = Default
	}
	fs, ok := pluralTexts(lang)[key]
	if !ok {
		return nil
	}
	out := make(map[string]string, len(fs))
	for name, c := range categories {
		if s, ok := fs[c]; ok {
			out[name] = s
		}
	}
	return out
}

// PluralForm returns the CLDR plural category ("one", "few", "many", "other"...) that the
// count n takes in lang (the Default language for an unsupported lang).
func PluralForm(lang string, n int) string {
	f := form(lang, n)
	for name, c := range categories {
		if c == f {
			return name
		}
	}
	return "other"
}

// form is the plural category of the count n in lang, by CLDR's cardinal rules.
func form(lang string, n int) plural.Form {
	tag, ok := tags[lang]
	if !ok {
		tag = tags[Default]
	}
	big := n >= 1_000_000 || n <= -1_000_000
	n %= 1_000_000 // the rules look at the last digits and at whether the number is large
	if n < 0 {
		n = -n
	}
	if big {
		n += 1_000_000
	}
	return plural.Cardinal.MatchPlural(tag, n, 0, 0, 0, 0)
}

// Plural returns the plural text of key in lang (the Default language for an unsupported
// lang) in the form the count n takes there, formatted with n and then args. A key whose text
// is not a plural text is formatted with n and args as T would; an unknown key returns the
// key itself.
func Plural(lang string, key Key, n int, args ...any) string {
	if _, ok := texts[lang]; !ok {
		lang = Default
	}
	all := append([]any{n}, args...)
	fs, ok := pluralTexts(lang)[key]
	if !ok {
		return T(lang, key, all...)
	}
	s, ok := fs[form(lang, n)]
	if !ok {
		s = fs[plural.Other]
	}
	return fmt.Sprintf(s, all...)
}
