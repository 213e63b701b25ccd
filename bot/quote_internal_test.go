package bot

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/go-telegram/bot/models"
)

const family = "👨\u200d👩\u200d👧\u200d👦" // 7 runes, 11 UTF-16 units, one emoji

func TestQuote(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"hello there", "hello there"},
		{"  spaced\tout\n", "spaced out"},
		{"one two three four", "one two three…"},
		{"z99", "z99"},
		{"", ""},
		{strings.Repeat("😀", 2048), strings.Repeat("😀", 15) + "…"},            // 30 units + …
		{strings.Repeat(family, 5), family + family + "…"},                    // 22 units; a third would pass 31
		{strings.Repeat("🇷🇺", 20), strings.Repeat("🇷🇺", 7) + "…"},             // whole flags only
		{"x" + strings.Repeat("🇷🇺", 20), "x" + strings.Repeat("🇷🇺", 7) + "…"}, // pairs counted from the start of the run
		{strings.Repeat("e\u0301", 40), strings.Repeat("e\u0301", 15) + "…"},  // accents stay with their letter
		{strings.Repeat("👍🏽", 10), strings.Repeat("👍🏽", 7) + "…"},             // skin tones stay with their hand
		{strings.Repeat("a", 40), strings.Repeat("a", 31) + "…"},
		{"\u202eevil\u202c move", "evil move"},
		{"a\x00b\x1bc", "abc"},
		{"d3\u200f", "d3"},
	} {
		got := quote(tt.in)
		if got != tt.want {
			t.Errorf("quote(%.40q) = %q, want %q", tt.in, got, tt.want)
		}
		if n := utf16Len(got); n > quoteUnits {
			t.Errorf("quote(%.40q) is %d units long", tt.in, n)
		}
	}
}

func TestClipCountsUTF16(t *testing.T) {
	for _, tt := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 4096, "short"},
		{strings.Repeat("😀", 2048), 4096, strings.Repeat("😀", 2048)},
		{strings.Repeat("😀", 2049), 4096, strings.Repeat("😀", 2047) + "…"},
		{strings.Repeat("ж", 300), 200, strings.Repeat("ж", 199) + "…"},
		{strings.Repeat(family, 30), 200, strings.Repeat(family, 18) + "…"},
	} {
		got := clip(tt.in, tt.n)
		if got != tt.want {
			t.Errorf("clip(%.20q×, %d) = %d units %.20q…, want %d units", tt.in, tt.n, utf16Len(got), got, utf16Len(tt.want))
		}
		if utf16Len(got) > tt.n {
			t.Errorf("clip(%.20q, %d) is %d units long", tt.in, tt.n, utf16Len(got))
		}
	}
}

// FuzzQuote: a quote is short, valid UTF-8 for valid input, and a start of the words quoted
// that never ends inside an emoji sequence, a flag or a letter with accents.
func FuzzQuote(f *testing.F) {
	for _, s := range []string{"hello", family + family, "🇷🇺🇺🇸x", "e\u0301\u0302", "a\u200d", "\u202e", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q := quote(s)
		if n := utf16Len(q); n > quoteUnits {
			t.Fatalf("quote(%q) = %q: %d units", s, q, n)
		}
		if utf8.ValidString(s) && !utf8.ValidString(q) {
			t.Fatalf("quote(%q) = %q is not UTF-8", s, q)
		}
		full, _ := firstWords(s)
		body := strings.TrimSuffix(q, "…")
		if !strings.HasPrefix(full, body) || !graphemeBreak(full, len(body)) {
			t.Fatalf("quote(%q) = %q does not end between two characters of %q", s, q, full)
		}
		c := clip(s, 10)
		if utf16Len(c) > 10 {
			t.Fatalf("clip(%q, 10) = %q: %d units", s, c, utf16Len(c))
		}
	})
}

// TestClippedEntities: a cut caption keeps the entities that lie before the cut and drops
// the ones the cut reaches; an uncut text keeps all.
func TestClippedEntities(t *testing.T) {
	ents := []models.MessageEntity{{Type: "bold", Offset: 0, Length: 4}, {Type: "bold", Offset: 1000, Length: 30}}
	c := clipped(content{Text: strings.Repeat("😀", 600), Photo: []byte{1}, Entities: ents})
	if len(c.Entities) != 1 || c.Entities[0] != ents[0] {
		t.Errorf("cut caption entities = %+v", c.Entities)
	}
	c = clipped(content{Text: strings.Repeat("😀", 600), Entities: ents})
	if len(c.Entities) != 2 {
		t.Errorf("uncut text entities = %+v", c.Entities)
	}
}
