package present

import (
	"strings"
	"unicode/utf16"

	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/i18n"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/render"
)

// TurnMention returns the mention of the player to move in text, the text of a board of g (eg
// its replay) in lang: a text_mention entity of that player's user over their name in the
// status line that says whose turn it is (render.TurnLine), so that Telegram shows the name as
// a link to them and notifies them when the message is new (an edit notifies no one). It is
// nil unless g is being played between people and a person is to move, and nil when the line
// is not in text. The name of the other player, or the same name elsewhere in text, is never
// marked.
func TurnMention(g *game.Game, eg *engine.Game, lang, text string) []models.MessageEntity {
	if g.Status != game.StatusPlaying || g.AILevel > 0 || eg == nil || eg.Over() {
		return nil
	}
	side := eg.Position().Side()
	p := g.Players[side]
	if p.UserID == 0 {
		return nil
	}
	line, at := render.TurnLine(lang, side, PlayerName(g, int(side), lang))
	i := lineIndex(text, line)
	if i < 0 || at >= len(line) {
		return nil
	}
	return []models.MessageEntity{Mention(text, i+at, i+len(line), p)}
}

// Mention is the text_mention entity of player p over text[from:to] (byte offsets; the
// entity counts UTF-16 units, as Telegram does).
func Mention(text string, from, to int, p game.Player) models.MessageEntity {
	return models.MessageEntity{Type: models.MessageEntityTypeTextMention,
		Offset: utf16Len(text[:from]), Length: utf16Len(text[from:to]),
		User: &models.User{ID: p.UserID, FirstName: p.Name}}
}

// lineIndex is the byte offset of the last whole line of text that equals line, -1 if none.
func lineIndex(text, line string) int {
	for end := len(text); end >= 0; {
		i := strings.LastIndex(text[:end], line)
		if i < 0 {
			return -1
		}
		j := i + len(line)
		if (i == 0 || text[i-1] == '\n') && (j == len(text) || text[j] == '\n') {
			return i
		}
		end = i + len(line) - 1
	}
	return -1
}

// utf16Len is the length of s in UTF-16 units, as Telegram counts text (a byte that is not
// UTF-8 reads as U+FFFD, one unit).
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += max(utf16.RuneLen(r), 1)
	}
	return n
}

// reminderMark stands for the name of the reminded player while the reminder's text is
// formatted, so that the mention lands on the name wherever the language puts it.
const reminderMark = "\uE000"

// Reminder is the message that reminds the player to move in g (eg its replay), in lang, that
// it is their move: "Alice, it is your move in the game against Bob (d3 was played).", the
// reminded player's name a mention of them. ok is false when nobody is to be reminded: g is
// not being played between people, or the AI or nobody is to move.
func Reminder(g *game.Game, eg *engine.Game, lang string) (c Content, ok bool) {
	if g.Status != game.StatusPlaying || g.AILevel > 0 || eg == nil || eg.Over() {
		return Content{}, false
	}
	side := eg.Position().Side()
	p := g.Players[side]
	if p.UserID == 0 {
		return Content{}, false
	}
	name := render.ShownName(lang, side, p.Name)
	opp := render.ShownName(lang, side.Opponent(), g.Players[side.Opponent()].Name)
	text := tr(lang, i18n.KeyRemindFirst, reminderMark, opp)
	if v := render.ViewOf(eg); v.Last != engine.Pass {
		text = tr(lang, i18n.KeyRemindTurn, reminderMark, opp, v.Last.String())
	}
	at := strings.Index(text, reminderMark)
	if at < 0 {
		return Content{Text: text}, true
	}
	text = text[:at] + name + text[at+len(reminderMark):]
	return Content{Text: text, Entities: []models.MessageEntity{Mention(text, at, at+len(name), p)}}, true
}
