package bot

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/reversibot/reversi/game"
)

// maxQueryRunes is how much of an inline query parseInlineQuery reads: a query that asks for
// a game is a few words ("12 white"), and Telegram's limit is 256 characters.
const maxQueryRunes = 64

// parseInlineQuery reads what an inline query asks for: a board size ("10", "16×16",
// "16x16", "16 x 16") and the colour the poster wants to play ("white", "black", in Russian
// "белые", "чёрные", "черными", ...), in any order and case. Size 0 means none asked (or one
// no board has), ChooseRandom no colour; words it does not know are passed over, so any text
// falls back to the defaults. It never fails.
func parseInlineQuery(q string) (size int, color game.Choice) {
	color = game.ChooseRandom
	if utf8.RuneCountInString(q) > maxQueryRunes {
		q = string([]rune(q)[:maxQueryRunes])
	}
	q = strings.ToLower(q)
	// "16×16", "16x16" and "16х16" (a Cyrillic х) read as "16 16": the same size twice.
	q = strings.NewReplacer("×", " ", "х", " ", "*", " ").Replace(q)
	words := strings.FieldsFunc(q, func(r rune) bool {
		return unicode.IsSpace(r) || r == ',' || r == ';' || r == '.' || r == '/'
	})
	for _, w := range words {
		if a, b, ok := strings.Cut(w, "x"); ok && a != "" && b != "" && isDigits(a) && isDigits(b) {
			if a == b {
				w = a
			} else {
				continue
			}
		}
		if isDigits(w) {
			if n, err := strconv.Atoi(w); err == nil && validSize(n) && size == 0 {
				size = n
			}
			continue
		}
		if w == "x" {
			continue // "16 x 16": the sign between the sides, not "x" for black
		}
		if c, ok := colourWord(w); ok {
			color = c
		}
	}
	return size, color
}

// validSize reports whether n is a size players get (game.Sizes).
func validSize(n int) bool { return slices.Contains(game.Sizes, n) }

// isDigits reports whether s is a short run of ASCII digits.
func isDigits(s string) bool {
	if s == "" || len(s) > 3 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// colourWord reads a word naming a colour, in English or Russian, in any of its forms
// ("white", "белые", "белыми", "чёрный", "черными").
func colourWord(w string) (game.Choice, bool) {
	if c, ok := game.ParseChoice(w); ok && w != "" {
		return c, c != game.ChooseRandom
	}
	switch {
	case strings.HasPrefix(w, "бел"):
		return game.ChooseWhite, true
	case strings.HasPrefix(w, "чёрн"), strings.HasPrefix(w, "черн"):
		return game.ChooseBlack, true
	}
	return game.ChooseRandom, false
}
