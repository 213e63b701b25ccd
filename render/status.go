package render

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/reversibot/reversi/engine"
)

// StatusInfo is what the text under a board tells.
type StatusInfo struct {
	View
	// Black and White are the players' names as the users wrote them. Empty means the colour's
	// name ("Black", "Чёрные").
	Black, White string
	// Result is how the game ended, the zero Result while it is being played. A position with
	// no moves left reads as a normal end even when Result says the game goes on; a result
	// that is not Valid tells what the board says, except that any EndAbandoned, and an
	// EndResign or EndTimeout without a winner, read as a game called off.
	Result engine.Result
}

// MaxNameRunes bounds how much of a player's name the status text shows.
const MaxNameRunes = 32

// Status returns the text under a board in the language lang ("ru" or "en"; anything else is
// English): both players with their colour symbols (⚫ BlackDisc, ⚪ WhiteDisc) and disc counts,
// the last move, the hint (View.Hint, as HintMark) while the game goes on, a pass, then whose
// turn it is, or the result and why the game ended (see StatusInfo.Result). On a board small
// enough for a keyboard, which has no coordinate labels, the last move and the hint also say
// where they lie, counted from the nearest edges ("d3 (4th from the left, 3rd from the top)",
// "h8 (bottom-right corner)"), so that a player finds them without knowing which corner is a1.
// The text is plain: send it with no parse mode. Names are shown as written, except that
// control characters and line breaks become spaces, bidirectional controls are dropped, and a
// name is cut to MaxNameRunes characters, so the text stays a few lines long and well under
// Telegram's 1024-character caption limit.
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
		b.WriteString(t.lastMove + ": " + sym[s.LastBy&1] + " " + s.Last.String() + t.place(s.Last, p.Size()) + "\n")
	}
	end, loser := endingOf(s.Result)
	if end == playing && p.GameOver() {
		end = byDiscs
	}
	if sq, ok := s.Hint(); ok && end == playing {
		b.WriteString(t.hint + ": " + HintMark + " " + sq.String() + t.place(sq, p.Size()) + "\n")
	}
	if s.Passed && end == playing {
		b.WriteString(strings.ReplaceAll(t.passed, "{p}", player(p.Side().Opponent())) + "\n")
	}
	score := strconv.Itoa(nb) + " : " + strconv.Itoa(nw)
	switch end {
	case playing:
		line, _ := turnLine(t, p.Side(), name[p.Side()])
		b.WriteString(line)
	case byDiscs:
		// The discs as they lie decide.
		switch engine.OutcomeOf(nb, nw) {
		case engine.BlackWins:
			b.WriteString(strings.NewReplacer("{p}", player(engine.Black), "{s}", score).Replace(t.wins))
		case engine.WhiteWins:
			b.WriteString(strings.NewReplacer("{p}", player(engine.White), "{s}", score).Replace(t.wins))
		default:
			b.WriteString(strings.ReplaceAll(t.draw, "{s}", score))
		}
	case byResign, byTimeout:
		why := t.resigned
		if end == byTimeout {
			why = t.timeout
		}
		b.WriteString(strings.NewReplacer("{l}", player(loser), "{p}", player(loser.Opponent())).Replace(why))
	default:
		b.WriteString(t.cancelled)
	}
	return b.String()
}

// TurnLine is the last line of Status while the game goes on, saying whose turn it is when
// colour c is to move and is played by name (as StatusInfo.Black or White has it), and where in
// that line the name begins, as Status shows it (cleaned and cut to MaxNameRunes): a caller
// that marks the name in the text (a mention) finds it there without knowing how it is cleaned.
func TurnLine(lang string, c engine.Color, name string) (line string, nameAt int) {
	t := texts[lang]
	if t == nil {
		t = texts["en"]
	}
	fallback := t.black
	if c == engine.White {
		fallback = t.white
	}
	return turnLine(t, c, cleanName(name, fallback))
}

// ShownName is name as Status shows the player of colour c in lang: cleaned and cut to
// MaxNameRunes, the colour's name when nothing is left.
func ShownName(lang string, c engine.Color, name string) string {
	line, at := TurnLine(lang, c, name)
	return line[at:]
}

// turnLine is TurnLine of a cleaned name.
func turnLine(t *statusTexts, c engine.Color, name string) (string, int) {
	sym := BlackDisc
	if c == engine.White {
		sym = WhiteDisc
	}
	head := t.turn + ": " + sym + " "
	return head + name, len(head)
}

// ending is what the status text tells of a game's end.
type ending uint8

const (
	playing   ending = iota // whose turn it is
	byDiscs                 // who wins by the discs as they lie
	byResign                // the loser resigned
	byTimeout               // the loser ran out of time
	calledOff               // no result
)

// endingOf returns what the status text tells of result r, and the loser for byResign and
// byTimeout (see StatusInfo.Result).
func endingOf(r engine.Result) (ending, engine.Color) {
	switch r.Reason {
	case engine.EndNormal:
		if r.Outcome == engine.BlackWins || r.Outcome == engine.WhiteWins || r.Outcome == engine.Draw {
			return byDiscs, 0
		}
	case engine.EndResign, engine.EndTimeout:
		loser, ok := r.Loser()
		switch {
		case !ok:
			return calledOff, 0
		case r.Reason == engine.EndResign:
			return byResign, loser
		}
		return byTimeout, loser
	case engine.EndAbandoned:
		return calledOff, 0
	}
	return playing, 0 // unknown: tell what the board says
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
	black, white, lastMove, hint, turn, passed, wins, draw, resigned, timeout, cancelled, noBoard string
	// Where a square lies (see place): its column counted from the left or the right edge,
	// its row from the top or the bottom edge, both as ordinals; corners have names.
	left, right string
	top, bottom string
	corner      [2][2]string // [bottom][right]
	ordinal     func(n int) string
}

// place returns " (…)", where sq lies on a board of the given size, counted from the nearest
// edges, or "" for boards drawn as pictures, whose frame is labelled.
// Place returns where sq lies on a board of the given size, as Status says it after the last
// move and the hint in the language lang: " (4th from the left, 3rd from the top)", with its
// leading space, on a board small enough for a keyboard; "" on a bigger board (which has
// coordinate labels) and for a square off the board.
func Place(lang string, sq engine.Square, size int) string {
	t := texts[lang]
	if t == nil {
		t = texts["en"]
	}
	return t.place(sq, size)
}

func (t *statusTexts) place(sq engine.Square, size int) string {
	if size > MaxKeyboardSize || !sq.OnBoard(size) {
		return ""
	}
	c, r := sq.Col(), sq.Row()
	right, bottom := c >= size/2, r >= size/2
	if right {
		c = size - 1 - c
	}
	if bottom {
		r = size - 1 - r
	}
	if c == 0 && r == 0 {
		return " (" + t.corner[b2i(bottom)][b2i(right)] + ")"
	}
	col, row := t.ordinal(c+1)+" "+t.left, t.ordinal(r+1)+" "+t.top
	if right {
		col = t.ordinal(c+1) + " " + t.right
	}
	if bottom {
		row = t.ordinal(r+1) + " " + t.bottom
	}
	return " (" + col + ", " + row + ")"
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// englishOrdinal writes n as "1st", "2nd", "3rd", "4th", … "11th", "12th", "13th", "21st".
func englishOrdinal(n int) string {
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return strconv.Itoa(n) + suffix
}

// russianOrdinal writes n as a masculine ordinal ("1-й", "2-й"…), agreeing with the nouns
// left out ("столбец", "ряд").
func russianOrdinal(n int) string { return strconv.Itoa(n) + "-й" }

// texts holds the status phrases; {p} is a player (symbol and name), {l} the loser, {s} the
// score. The Russian phrases avoid verbs in the past tense, which would need the player's
// gender.
var texts = map[string]*statusTexts{
	"en": {
		black:     "Black",
		white:     "White",
		lastMove:  "Last move",
		hint:      "Hint",
		turn:      "To move",
		passed:    "{p} has no legal move and passes.",
		wins:      "Game over. {p} wins, {s}.",
		draw:      "Game over. Draw, {s}.",
		resigned:  "{l} resigns. {p} wins.",
		timeout:   "{l} ran out of time. {p} wins.",
		cancelled: "The game was cancelled.",
		noBoard:   "No board.",
		left:      "from the left",
		right:     "from the right",
		top:       "from the top",
		bottom:    "from the bottom",
		corner:    [2][2]string{{"top-left corner", "top-right corner"}, {"bottom-left corner", "bottom-right corner"}},
		ordinal:   englishOrdinal,
	},
	"ru": {
		black:     "Чёрные",
		white:     "Белые",
		lastMove:  "Последний ход",
		hint:      "Подсказка",
		turn:      "Ходит",
		passed:    "{p}: нет ходов, пропуск хода.",
		wins:      "Игра окончена. Победа: {p}, {s}.",
		draw:      "Игра окончена. Ничья, {s}.",
		resigned:  "{l}: сдача. Победа: {p}.",
		timeout:   "{l}: время вышло. Победа: {p}.",
		cancelled: "Игра отменена.",
		noBoard:   "Нет доски.",
		left:      "слева",
		right:     "справа",
		top:       "сверху",
		bottom:    "снизу",
		corner:    [2][2]string{{"левый верхний угол", "правый верхний угол"}, {"левый нижний угол", "правый нижний угол"}},
		ordinal:   russianOrdinal,
	},
}
