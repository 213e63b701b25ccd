package bot

import (
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/reversibot/reversi/bot/i18n"
)

// The languages the bot speaks.
const (
	langEN = i18n.EN
	langRU = i18n.RU
)

// tr returns the text key of package i18n in lang, formatted with args.
func tr(lang string, key i18n.Key, args ...any) string { return i18n.T(lang, key, args...) }

// normLang maps a Telegram language_code, or a stored choice, to a language the bot speaks.
func normLang(code string) string { return i18n.Pick(code) }

// A quote of what a user typed is at most quoteWords words and quoteUnits UTF-16 units long.
const (
	quoteWords = 3
	quoteUnits = 32
)

// quote returns the start of text, a message from a user, fit to be echoed in a reply: at
// most quoteWords words and quoteUnits UTF-16 units (as Telegram counts), cut between two
// characters as a reader sees them (never inside an emoji sequence or between a letter and
// its accents), with "…" where anything was left out. Control characters and those that
// change the direction of text are dropped, so the quote cannot disturb the reply around it.
func quote(text string) string {
	q, cut := firstWords(text)
	if n := utf16Len(q); n > quoteUnits || cut && n > quoteUnits-1 { // "…" is one unit
		q, cut = cutUnits(q, quoteUnits-1), true
	}
	if cut {
		q += "…"
	}
	return q
}

// firstWords returns the first quoteWords words of text, one space apart, without control and
// direction characters; cut reports that words were left out.
func firstWords(text string) (words string, cut bool) {
	ws := strings.Fields(text)
	if cut = len(ws) > quoteWords; cut {
		ws = ws[:quoteWords]
	}
	var sb strings.Builder
	for i, w := range ws {
		if i > 0 {
			sb.WriteByte(' ')
		}
		for _, r := range w {
			if !unicode.IsControl(r) && !bidiControl(r) {
				sb.WriteRune(r)
			}
		}
	}
	return sb.String(), cut
}

// bidiControl reports whether r is a Unicode bidirectional formatting character.
func bidiControl(r rune) bool {
	return r == '\u061c' || r == '\u200e' || r == '\u200f' || r >= '\u202a' && r <= '\u202e' ||
		r >= '\u2066' && r <= '\u2069'
}

// utf16Len is the length of s in UTF-16 code units, which is how Telegram counts text.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += max(utf16.RuneLen(r), 1) // invalid UTF-8 is sent as U+FFFD: one unit
	}
	return n
}

// cutUnits returns the longest start of s of at most n UTF-16 units that ends between two
// characters as a reader sees them (see graphemeBreak).
func cutUnits(s string, n int) string {
	end, units := 0, 0 // end: byte offset of the longest start that fits
	for i, r := range s {
		if units > n {
			break
		}
		end = i
		units += max(utf16.RuneLen(r), 1)
	}
	if units <= n {
		return s
	}
	for end > 0 && !graphemeBreak(s, end) {
		_, size := utf8.DecodeLastRuneInString(s[:end])
		end -= size
	}
	return s[:end]
}

// graphemeBreak reports whether byte offset i of s (the start of a rune) may end a cut: the
// rune there does not extend the one before (a combining mark, a variation selector, a skin
// tone, an emoji tag, a joiner, a Hangul vowel or final), the rune before is no zero-width
// joiner, and i does not split a pair of regional indicators (a flag). It is the part of
// Unicode's grapheme cluster rules that user text needs; without them a cut could leave half
// a flag or a family emoji.
func graphemeBreak(s string, i int) bool {
	if i <= 0 || i >= len(s) {
		return true
	}
	next, _ := utf8.DecodeRuneInString(s[i:])
	prev, _ := utf8.DecodeLastRuneInString(s[:i])
	switch {
	case extends(next), prev == '\u200d':
		return false
	case regionalIndicator(prev) && regionalIndicator(next):
		n := 0 // regional indicators just before i
		for j := i; j > 0; {
			r, size := utf8.DecodeLastRuneInString(s[:j])
			if !regionalIndicator(r) {
				break
			}
			n, j = n+1, j-size
		}
		return n%2 == 0
	}
	return true
}

// extends reports whether r belongs to the character before it.
func extends(r rune) bool {
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Mc) || r == '\u200d' ||
		r >= 0x1f3fb && r <= 0x1f3ff || // emoji skin tones
		r >= 0xe0020 && r <= 0xe007f || // emoji tags (subdivision flags)
		r >= 0x1160 && r <= 0x11ff // Hangul vowels and finals after a leading consonant
}

// regionalIndicator reports whether r is one of the letters that pair into flags.
func regionalIndicator(r rune) bool { return r >= 0x1f1e6 && r <= 0x1f1ff }
