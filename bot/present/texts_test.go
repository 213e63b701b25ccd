package present_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/reversibot/reversi/bot/i18n"
	"github.com/reversibot/reversi/bot/present"
	"github.com/reversibot/reversi/game"
)

// TestStatsGolden shows /stats in both languages: with no game, and with counts that take
// every plural form (1, 2, 5, 11, 21, 22).
func TestStatsGolden(t *testing.T) {
	full := game.Stats{Rating: 1216, Wins: 21, Losses: 2, Draws: 11,
		VsAI: map[int]game.AIRecord{1: {Wins: 1}, 3: {Wins: 22, Losses: 5, Draws: 1}, 6: {}}}
	for _, lang := range i18n.Langs() {
		golden(t, "stats_none_"+lang, dump(t, present.Stats(lang, "Alice", game.Stats{Rating: 1200})))
		golden(t, "stats_full_"+lang, dump(t, present.Stats(lang, "Alice", full)))
	}
}

// TestTopGolden shows /top in both languages: a group's leaderboard with two players named
// Alex (told apart by number, the lower id first, whatever their ranks), the line of the one
// who asks marked; everyone's; and an empty one.
func TestTopGolden(t *testing.T) {
	entries := []game.RankEntry{
		{UserID: 9, Name: "Alex", Rating: 1232, Wins: 3, Losses: 1},
		{UserID: 4, Name: "Bob", Rating: 1216, Wins: 2, Losses: 1, Draws: 1},
		{UserID: 5, Name: "alex", Rating: 1190, Wins: 1, Losses: 3},
	}
	for _, lang := range i18n.Langs() {
		golden(t, "top_group_"+lang, dump(t, present.Top(lang, entries, true, 9)))
		golden(t, "top_global_"+lang, dump(t, present.Top(lang, entries[1:2], false, 7)))
		golden(t, "top_empty_"+lang, dump(t, present.Top(lang, nil, true, 7)))
	}
}

// TestTopNamesakes: namesakes are numbered, the numbers follow user ids, not ranks, and a
// name nobody else carries stays as it is.
func TestTopNamesakes(t *testing.T) {
	got := present.Top(i18n.EN, []game.RankEntry{{UserID: 9, Name: "Alex"}, {UserID: 2, Name: "Zoe"}, {UserID: 5, Name: "ALEX"}}, false, 0).Text
	for _, want := range []string{"1. Alex (2) —", "2. Zoe —", "3. ALEX (1) —"} {
		if !strings.Contains(got, want) {
			t.Errorf("top does not contain %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "←") {
		t.Errorf("top marks a line without a viewer:\n%s", got)
	}
}

// TestUsageGolden shows the answers to bad command arguments in both languages: what is
// wrong with the argument, quoted, and how the command is written.
func TestUsageGolden(t *testing.T) {
	for _, lang := range i18n.Langs() {
		var sb strings.Builder
		for _, c := range []struct {
			name           string
			usage, problem i18n.Key
			args           []any
		}{
			{"/ai 8 9", i18n.KeyUsageAI, i18n.KeyArgBadLevel, []any{"9"}},
			{"/ai 7", i18n.KeyUsageAI, i18n.KeyArgBadSize, []any{"7"}},
			{"/ai 8 3 purple", i18n.KeyUsageAI, i18n.KeyArgUnknown, []any{"purple"}},
			{"/new 9", i18n.KeyUsageNew, i18n.KeyArgBadSize, []any{"9"}},
			{"/find 99", i18n.KeyUsageFind, i18n.KeyArgBadSize, []any{"99"}},
			{"/move zz", i18n.KeyUsageMove, i18n.KeyArgNotSquare, []any{"zz"}},
			{"d9 (8×8)", i18n.KeyUsageMove, i18n.KeyArgOffBoard, []any{"d9", "h", 8}},
			{"/move", i18n.KeyUsageMove, "", nil},
		} {
			fmt.Fprintf(&sb, "== %s\n%s", c.name, dump(t, present.Usage(lang, c.usage, c.problem, c.args...)))
		}
		golden(t, "usage_"+lang, sb.String())
	}
}

// TestTextsGolden shows the other texts of issue 15 item 12 in both languages: counts in
// their plural forms, durations, undone moves, and the answers to joining one's own game.
func TestTextsGolden(t *testing.T) {
	for _, lang := range i18n.Langs() {
		var sb strings.Builder
		for _, k := range []i18n.Key{i18n.KeyCountWins, i18n.KeyCountLosses, i18n.KeyCountDraws, i18n.KeyCountGames, i18n.KeyGameUndone} {
			var forms []string
			for _, n := range []int{0, 1, 2, 5, 11, 21, 22, 25, 101, 111} {
				forms = append(forms, i18n.Plural(lang, k, n))
			}
			fmt.Fprintf(&sb, "%s: %s\n", k, strings.Join(forms, " | "))
		}
		for _, d := range []time.Duration{30 * time.Second, 61 * time.Second, 61 * time.Minute, 2*time.Hour + 22*time.Minute, 21 * time.Hour, 24 * time.Hour, 5*24*time.Hour + 3*time.Hour} {
			fmt.Fprintf(&sb, "%v: %s\n", d, i18n.Duration(lang, d))
		}
		fmt.Fprintf(&sb, "%s: %s\n", i18n.KeyGameIdleWait, i18n.T(lang, i18n.KeyGameIdleWait, i18n.Duration(lang, 23*time.Hour+59*time.Minute)))
		for _, k := range []i18n.Key{i18n.KeyErrOwnInvite, i18n.KeyErrOwnLobby, i18n.KeyErrInYourGame} {
			fmt.Fprintf(&sb, "%s: %s\n", k, i18n.T(lang, k))
		}
		fmt.Fprintf(&sb, "%s: %s\n", i18n.KeyErrBadMove, i18n.T(lang, i18n.KeyErrBadMove, "hello there…"))
		golden(t, "texts_"+lang, sb.String())
	}
}
