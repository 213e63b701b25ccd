package bot_test

import (
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/reversibot/reversi/bot/telegramtest"
)

// TestLongMessagesGetAnAnswer: a message of 4,096 UTF-16 units (Telegram's limit) that is no
// move gets an answer (for /move, the usage of /move), and the answer quotes only its first
// few words.
func TestLongMessagesGetAnAnswer(t *testing.T) {
	h := newHarness(t)
	alice := h.user("Alice", "en")
	family := "👨\u200d👩\u200d👧\u200d👦" // one emoji of 7 runes, 11 UTF-16 units
	for _, text := range []string{
		strings.Repeat("😀", 2048),
		strings.Repeat(family+" ", 4096/12),
		"/move " + strings.Repeat("é", 4090),
		strings.Repeat("ab\u0301 ", 1024),
	} {
		if n := len(utf16.Encode([]rune(text))); n > telegramtest.MaxTextLen {
			t.Fatalf("test message of %d units, more than Telegram allows", n)
		}
		last := h.lastID(alice.ID())
		h.send(alice, alice.ID(), text)
		reply := h.waitMsg(alice.ID(), "the answer", func(m telegramtest.ChatMessage) bool {
			return m.ID > last && (strings.Contains(m.Text, "Type a move like d3") || strings.Contains(m.Text, "Usage: /move d3"))
		})
		if n := len(utf16.Encode([]rune(reply.Text))); n > 160 {
			t.Errorf("the answer is %d UTF-16 units long: %q", n, reply.Text)
		}
	}
}
