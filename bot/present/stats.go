package present

import (
	"slices"
	"strings"

	"github.com/reversibot/reversi/bot/i18n"
	"github.com/reversibot/reversi/game"
)

// counts writes wins, losses and draws as words in lang ("5 wins, 1 loss, 0 draws"), each
// in the plural form its number takes, for the format texts that take the three.
func counts(lang string, wins, losses, draws int) []any {
	return []any{i18n.Plural(lang, i18n.KeyCountWins, wins), i18n.Plural(lang, i18n.KeyCountLosses, losses),
		i18n.Plural(lang, i18n.KeyCountDraws, draws)}
}

// Stats is the answer to /stats for the user name with the statistics st: the name and the
// rating, the results against people (games, then wins, losses and draws, counted in words),
// and the results against each level of the bot that the user has played, weakest first; or,
// after the first line, that there is no finished game yet.
func Stats(lang, name string, st game.Stats) Content {
	lines := []string{tr(lang, i18n.KeyStatsHeader, name, st.Rating)}
	if n := st.Wins + st.Losses + st.Draws; n > 0 {
		args := append([]any{i18n.Plural(lang, i18n.KeyCountGames, n)}, counts(lang, st.Wins, st.Losses, st.Draws)...)
		lines = append(lines, tr(lang, i18n.KeyStatsPeople, args...))
	}
	header := false
	for l := 1; l <= game.MaxLevel; l++ {
		r, ok := st.VsAI[l]
		if !ok || r.Wins+r.Losses+r.Draws == 0 {
			continue
		}
		if !header {
			lines, header = append(lines, tr(lang, i18n.KeyStatsAIHeader)), true
		}
		args := append([]any{LevelName(lang, l)}, counts(lang, r.Wins, r.Losses, r.Draws)...)
		lines = append(lines, tr(lang, i18n.KeyStatsAILine, args...))
	}
	if len(lines) == 1 {
		lines = append(lines, tr(lang, i18n.KeyStatsNone))
	}
	return Content{Text: strings.Join(lines, "\n")}
}

// Top is the answer to /top: the title (of the group when group is true, else of everyone),
// which says what the numbers mean, then one line per entry in the order given, best first.
// Namesakes (names equal but for case and surrounding spaces) are numbered among themselves
// by user id, so the numbers keep their order as ranks change ("Alex (1)", "Alex (2)"), and
// the line of viewer, the user who asked, is marked. An empty list says nobody has finished a
// rated game yet.
func Top(lang string, entries []game.RankEntry, group bool, viewer int64) Content {
	if len(entries) == 0 {
		return Content{Text: tr(lang, i18n.KeyTopEmpty)}
	}
	title := i18n.KeyTopGlobal
	if group {
		title = i18n.KeyTopGroup
	}
	names := namesakes(entries)
	lines := []string{tr(lang, title)}
	for i, e := range entries {
		name := e.Name
		if n := names[i]; n > 0 {
			name = tr(lang, i18n.KeyTopNamesake, name, n)
		}
		line := tr(lang, i18n.KeyTopLine, i+1, name, e.Rating, e.Wins, e.Losses, e.Draws)
		if viewer != 0 && e.UserID == viewer {
			line = tr(lang, i18n.KeyTopYou, line)
		}
		lines = append(lines, line)
	}
	return Content{Text: strings.Join(lines, "\n")}
}

// namesakes numbers the entries whose name another entry of a different user shares: the
// number of entry i among its namesakes, by user id from 1, or 0 when its name is its own.
func namesakes(entries []game.RankEntry) []int {
	groups := map[string][]int64{} // by folded name, the user ids that carry it
	fold := func(s string) string { return strings.ToLower(strings.TrimSpace(s)) }
	for _, e := range entries {
		k := fold(e.Name)
		if !slices.Contains(groups[k], e.UserID) {
			groups[k] = append(groups[k], e.UserID)
		}
	}
	for _, ids := range groups {
		slices.Sort(ids)
	}
	out := make([]int, len(entries))
	for i, e := range entries {
		if ids := groups[fold(e.Name)]; len(ids) > 1 {
			out[i] = slices.Index(ids, e.UserID) + 1
		}
	}
	return out
}

// Usage is the answer to a command argument the command cannot take: the text problem (an
// arg.* key) formatted with args, which quote what the user typed (never more than a few
// words), then usage, how the command is written. An empty problem gives the usage alone.
func Usage(lang string, usage, problem i18n.Key, args ...any) Content {
	text := tr(lang, usage)
	if problem != "" {
		text = tr(lang, problem, args...) + "\n" + text
	}
	return Content{Text: text}
}
