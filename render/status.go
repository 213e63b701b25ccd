package render

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/reversibot/reversi/engine"
)

// End tells whether and how a game ended, for the status text.
type End uint8

// How a game can end. A game whose position has no moves left reads as EndNormal even when
// StatusInfo.End says EndNone.
const (
	EndNone      End = iota // still being played
	EndNormal               // neither side can move: the discs decide
	EndResigned             // StatusInfo.Loser resigned
	EndTimeout              // StatusInfo.Loser ran out of time (or idled and the opponent claimed the win)
	EndCancelled            // the game was called off before a result: nobody wins
)

// StatusInfo is what the text under a board tells.
type StatusInfo struct {
	View
	// Black and White are the players' names as the users wrote them. Empty means the colour's
	// name ("Black", "Чёрные").
	Black, White string
	// End says whether and how the game ended.
	End End
	// Loser is the colour that resigned or ran out of time, for EndResigned and EndTimeout.
	Loser engine.Color
}

// MaxNameRunes bounds how much of a player's name the status text shows.
const MaxNameRunes = 32

// Status returns the text under a board in the language lang ("ru" or "en"; anything else is
// English): both players with their colour symbols (⚫ BlackDisc, ⚪ WhiteDisc) and disc counts,
// the last move, a pass, then whose turn it is, or the result and why the game ended. The text
// is plain: send it with no parse mode. Names are shown as written, except that control
// characters and line breaks become spaces, bidirectional controls are dropped, and a name is cut to MaxNameRunes characters, so
// the text stays a few lines long and well under Telegram's 1024-character caption limit.
func Status(lang string, s StatusInfo) string {
	t := texts[lang]
	if t == nil {
		t = texts["en"]
	}
	p := s.Position
	if p.Size() == 0 {
		return t.noBoard
	}
	name := [2]string{cleanName(s.Black, t.black), cleanName(s.White, t.white)}
	sym := [2]string{BlackDisc, WhiteDisc}
	player := func(c engine.Color) string { return sym[c] + " " + name[c] }
	nb, nw := p.Count(engine.Black), p.Count(engine.White)

	var b strings.Builder
	b.WriteString(player(engine.Black) + " — " + strconv.Itoa(nb) + "\n")
	b.WriteString(player(engine.White) + " — " + strconv.Itoa(nw) + "\n")
	if s.lastOK() {
		b.WriteString(t.lastMove + ": " + sym[s.LastBy&1] + " " + s.Last.String() + "\n")
	}
	end := s.End
	if end > EndCancelled {
		end = EndNone // unknown: tell what the board says
	}
	if end == EndNone && p.GameOver() {
		end = EndNormal
	}
	if s.Passed && end == EndNone {
		b.WriteString(strings.ReplaceAll(t.passed, "{p}", player(p.Side().Opponent())) + "\n")
	}
	score := strconv.Itoa(nb) + " : " + strconv.Itoa(nw)
	switch end {
	case EndNone:
		b.WriteString(t.turn + ": " + player(p.Side()))
	case EndNormal:
		switch engine.OutcomeOf(nb, nw) {
		case engine.BlackWins:
			b.WriteString(strings.NewReplacer("{p}", player(engine.Black), "{s}", score).Replace(t.wins))
		case engine.WhiteWins:
			b.WriteString(strings.NewReplacer("{p}", player(engine.White), "{s}", score).Replace(t.wins))
		default:
			b.WriteString(strings.ReplaceAll(t.draw, "{s}", score))
		}
	case EndResigned, EndTimeout:
		why := t.resigned
		if end == EndTimeout {
			why = t.timeout
		}
		loser := s.Loser & 1
		b.WriteString(strings.NewReplacer("{l}", player(loser), "{p}", player(loser.Opponent())).Replace(why))
	default:
		b.WriteString(t.cancelled)
	}
	return b.String()
}

// cleanName makes a user's name safe to place in a line of text.
func cleanName(name, fallback string) string {
	var b strings.Builder
	n := 0
	for _, r := range name {
		if n == MaxNameRunes {
			b.WriteString("…")
			break
		}
		switch {
		case unicode.Is(unicode.Bidi_Control, r):
			continue // would reorder the rest of the line
		case r == unicode.ReplacementChar || unicode.IsControl(r) || r == '\u2028' || r == '\u2029':
			r = ' '
		}
		b.WriteRune(r)
		n++
	}
	s := strings.TrimSpace(b.String())
	if s == "" {
		return fallback
	}
	return s
}

type statusTexts struct {
	black, white, lastMove, turn, passed, wins, draw, resigned, timeout, cancelled, noBoard string
}

// texts holds the status phrases; {p} is a player (symbol and name), {l} the loser, {s} the
// score. The Russian phrases avoid verbs in the past tense, which would need the player's
// gender.
var texts = map[string]*statusTexts{
	"en": {
		black:     "Black",
		white:     "White",
		lastMove:  "Last move",
		turn:      "To move",
		passed:    "{p} has no legal move and passes.",
		wins:      "Game over. {p} wins, {s}.",
		draw:      "Game over. Draw, {s}.",
		resigned:  "{l} resigns. {p} wins.",
		timeout:   "{l} ran out of time. {p} wins.",
		cancelled: "The game was cancelled.",
		noBoard:   "No board.",
	},
	"ru": {
		black:     "Чёрные",
		white:     "Белые",
		lastMove:  "Последний ход",
		turn:      "Ходит",
		passed:    "{p}: нет ходов, пропуск хода.",
		wins:      "Игра окончена. Победа: {p}, {s}.",
		draw:      "Игра окончена. Ничья, {s}.",
		resigned:  "{l}: сдача. Победа: {p}.",
		timeout:   "{l}: время вышло. Победа: {p}.",
		cancelled: "Игра отменена.",
		noBoard:   "Нет доски.",
	},
}
