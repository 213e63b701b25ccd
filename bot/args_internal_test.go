package bot

import (
	"slices"
	"strings"
	"testing"

	"github.com/reversibot/reversi/game"
)

// FuzzParseGameArgs: any arguments are read without a panic; a refusal names one of the
// words typed, and an acceptance gives a size the bot plays (or none) and a level in range.
func FuzzParseGameArgs(f *testing.F) {
	for _, s := range []string{"8 9", "7", "8 3 purple", "12x12 6", "10×10", "x", "×", "1x", "0x0", "-3", "99999999999999999999", "8 1 b w"} {
		f.Add(s)
	}
	valid := func(n int) bool { return slices.Contains(game.Sizes, n) }
	f.Fuzz(func(t *testing.T, s string) {
		args := strings.Fields(s)
		a, bad := parseGameArgs(args, valid)
		if bad != nil {
			if !slices.Contains(args, bad.word) || !strings.HasPrefix(string(bad.why), "arg.") {
				t.Fatalf("parseGameArgs(%q) refused %+v", s, bad)
			}
			return
		}
		if a.size != 0 && !valid(a.size) || a.level < 0 || a.level > game.MaxLevel {
			t.Fatalf("parseGameArgs(%q) = %+v", s, a)
		}
	})
}
