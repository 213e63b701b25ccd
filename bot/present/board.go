package present

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/bot/i18n"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/render"
)

// Replay plays the stored moves of g, inserting the forced passes (also after the last
// move): see engine.ReplayBytes. The error names the game.
func Replay(g *game.Game) (*engine.Game, error) {
	eg, err := engine.ReplayBytes(g.Size, g.Moves)
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", g.ID, err)
	}
	return eg, nil
}

// ViewLang is the language of the board message ref of g: a player's own private chat speaks
// that player's language, any other chat the game's.
func ViewLang(g *game.Game, ref game.MessageRef) string {
	if ref.InlineID == "" && ref.ChatID != 0 {
		for _, p := range g.Players {
			if p.UserID != 0 && p.ChatID == ref.ChatID && p.Lang != "" {
				return i18n.Pick(p.Lang)
			}
		}
	}
	return i18n.Pick(g.Lang)
}

// PlayerName is how the board names player i (0 black, 1 white) of g: the AI by its level,
// a person by name.
func PlayerName(g *game.Game, i int, lang string) string {
	p := g.Players[i]
	if p.UserID == 0 && g.AILevel > 0 {
		return tr(lang, i18n.KeyGameBotName, LevelName(lang, g.AILevel))
	}
	return p.Name
}

// LevelName is the name of an AI level.
func LevelName(lang string, level int) string {
	return i18n.Level(lang, level)
}

// statusOf returns the render status of g shown as v.
func statusOf(g *game.Game, v render.View, lang string) render.StatusInfo {
	s := render.StatusInfo{View: v, Black: PlayerName(g, 0, lang), White: PlayerName(g, 1, lang)}
	if g.Status != game.StatusFinished {
		return s
	}
	loser := engine.White
	if g.Outcome == game.OutcomeWhite {
		loser = engine.Black
	}
	switch g.Reason {
	case game.EndResign:
		s.Result = engine.Result{Outcome: engine.WinFor(loser.Opponent()), Reason: engine.EndResign}
	case game.EndTimeout:
		s.Result = engine.Result{Outcome: engine.WinFor(loser.Opponent()), Reason: engine.EndTimeout}
	case game.EndAbandoned:
		s.Result = engine.Result{Reason: engine.EndAbandoned}
	default: // the discs decide
		p := v.Position
		s.Result = engine.Result{Outcome: engine.OutcomeOf(p.Count(engine.Black), p.Count(engine.White))}
	}
	return s
}

// viewer is the player whose own private chat shows the board message ref of g: 0 black,
// 1 white, -1 when the message is seen by both or by others (a group, an inline message).
func viewer(g *game.Game, ref game.MessageRef) int {
	if ref.InlineID != "" || ref.ChatID <= 0 {
		return -1
	}
	for i, p := range g.Players {
		if p.UserID != 0 && (p.ChatID == ref.ChatID || p.UserID == ref.ChatID) {
			return i
		}
	}
	return -1
}

// mayMove reports whether the viewer seer of a board (see viewer; -1 for a board both players
// see) may move now, turn being the side to move: only then does the board mark the legal
// moves. No one may while the AI is to move; on a board both players see, the player to move
// may, and the marks are theirs.
func mayMove(g *game.Game, turn, seer int) bool {
	if g.Status != game.StatusPlaying || g.Players[turn].UserID == 0 {
		return false
	}
	return seer < 0 || seer == turn
}

// controls are the rows of buttons after a board; turn is the side to move (0 black, 1
// white) and seer the viewer of the message (see viewer). In a game between people the claim
// button is left out of a player's own board while it is their turn, since a claim can only
// come from the player kept waiting; on a board both players see it stays, and a claim made
// too early gets an alert saying how long is left. ask is the side (0 black, 1 white) of a
// player who tapped Resign and is asked whether they mean it: the Resign button gives way to
// "Resign? Yes / No" (-1: no question). A finished game gets what players do next
// (endControls). The buttons that act on the position shown (Undo, the answers to "Resign?")
// name it by pos, its tag (callback.Data.Pos).
func controls(g *game.Game, lang string, turn, seer, ask int, pos uint64) [][]models.InlineKeyboardButton {
	ply := game.Ply(g)
	resign := []models.InlineKeyboardButton{Button(tr(lang, i18n.KeyBtnResign), CallbackData(callback.ActionResign, g.ID, ply))}
	if ask == 0 || ask == 1 {
		answer := func(key i18n.Key, step int) models.InlineKeyboardButton {
			return Button(tr(lang, key), callback.Data{Action: callback.ActionResign, Game: g.ID, Ply: ply,
				Page: ask + 1, Arg: step, Pos: pos}.Encode())
		}
		resign = []models.InlineKeyboardButton{Button(tr(lang, i18n.KeyBtnResignAsk), CallbackData(callback.ActionNoop, "", 0)),
			answer(i18n.KeyBtnYes, callback.ResignYes), answer(i18n.KeyBtnNo, callback.ResignNo)}
	}
	switch g.Status {
	case game.StatusFinished:
		return endControls(g, lang, seer)
	case game.StatusPlaying:
		if g.AILevel > 0 {
			row := []models.InlineKeyboardButton{}
			if ask < 0 {
				if g.AILevel <= game.MaxHintLevel {
					row = append(row, Button(tr(lang, i18n.KeyBtnHint), CallbackData(callback.ActionHint, g.ID, ply)))
				}
				row = append(row, Button(tr(lang, i18n.KeyBtnUndo), callback.Data{Action: callback.ActionUndo, Game: g.ID,
					Ply: ply, Pos: pos}.Encode()))
			}
			return [][]models.InlineKeyboardButton{append(row, resign...)}
		}
		row := resign
		if ask < 0 && (seer < 0 || seer != turn) {
			row = append(row, Button(tr(lang, i18n.KeyBtnClaim), CallbackData(callback.ActionClaim, g.ID, ply)))
		}
		return [][]models.InlineKeyboardButton{row}
	}
	return nil
}

// endControls are the buttons of a finished game, for what players do next: against the AI
// a rematch, another level or size and the main menu (both open the menu in a new message,
// keeping the final board); between people the rematch offer as it stands (see
// game.Game.Rematch: Rematch, or Accept and Decline for the player offered it, Withdraw for
// the one who offered, Accept and Decline on a board both see) and, but in inline messages,
// the main menu. A game with a move has Review too, beside Rematch against the AI and beside
// the main menu (or alone, in an inline message) between people. A cancelled lobby has none.
func endControls(g *game.Game, lang string, seer int) [][]models.InlineKeyboardButton {
	if g.Reason == game.EndAbandoned && !g.Aborted() {
		return nil
	}
	ply := game.Ply(g)
	rematch := func(key i18n.Key, step int) models.InlineKeyboardButton {
		return Button(tr(lang, key), callback.Data{Action: callback.ActionRematch, Game: g.ID, Ply: ply, Arg: step}.Encode())
	}
	menu := func(key i18n.Key, m Menu) models.InlineKeyboardButton {
		return Button(tr(lang, key), callback.Data{Action: callback.ActionMenu, Game: g.ID, Arg: int(m)}.Encode())
	}
	review := func(row []models.InlineKeyboardButton) []models.InlineKeyboardButton {
		if len(g.Moves) == 0 {
			return row
		}
		return append(row, Button(tr(lang, i18n.KeyBtnReview), callback.Data{Action: callback.ActionReview, Game: g.ID}.Encode()))
	}
	if g.AILevel > 0 {
		return [][]models.InlineKeyboardButton{review([]models.InlineKeyboardButton{rematch(i18n.KeyBtnRematch, callback.RematchOffer)}),
			{menu(i18n.KeyBtnOtherGame, MenuSize), menu(i18n.KeyBtnMenu, MenuMain)}}
	}
	var rows [][]models.InlineKeyboardButton
	switch {
	case g.Rematch == game.RematchAccepted:
	case g.Rematch == game.RematchOffered && seer >= 0 && g.Players[seer].UserID == g.RematchBy:
		rows = append(rows, []models.InlineKeyboardButton{rematch(i18n.KeyBtnWithdraw, callback.RematchDecline)})
	case g.Rematch == game.RematchOffered:
		rows = append(rows, []models.InlineKeyboardButton{rematch(i18n.KeyBtnAccept, callback.RematchAccept),
			rematch(i18n.KeyBtnDecline, callback.RematchDecline)})
	default:
		rows = append(rows, []models.InlineKeyboardButton{rematch(i18n.KeyBtnRematch, callback.RematchOffer)})
	}
	if g.Flow != game.FlowInline && g.InlineID == "" {
		rows = append(rows, review([]models.InlineKeyboardButton{menu(i18n.KeyBtnMenu, MenuMain)}))
	} else if last := review(nil); len(last) > 0 {
		rows = append(rows, last)
	}
	return rows
}

// Board draws game g for the message ref at move-picker page page, in style (the style of
// the board's viewer; see bot's styleOf). A lobby is its invitation (Lobby, without a
// bot username). A chat message of a board bigger than a keyboard, or of an 8×8 board in
// game.StyleImage, is a photo with the move picker; an inline message of a large board
// (which cannot get a new upload) gets the status as its text and the board as Content.Grid,
// for the Telegram layer to show as a picture it serves or, failing that, as text.
func Board(g *game.Game, ref game.MessageRef, page int, style game.Style) (Content, error) {
	return BoardOf(g, nil, ref, page, style)
}

// BoardOf is Board given the replay of g (Replay), or nil to replay it. It does not change eg.
func BoardOf(g *game.Game, eg *engine.Game, ref game.MessageRef, page int, style game.Style) (Content, error) {
	return BoardHinted(g, eg, ref, page, style, engine.Pass)
}

// BoardHinted is BoardOf showing hint, the move suggested to the player to move (engine.Pass
// for none; see render.View.WithHint): marked on the board, and named with its place in the
// text. A hint the player to move cannot play now is shown nowhere. On a message that both
// players see (a group, an inline message) of a game between people, the name of the player
// to move in the text is a mention of them (see TurnMention).
func BoardHinted(g *game.Game, eg *engine.Game, ref game.MessageRef, page int, style game.Style, hint engine.Square) (Content, error) {
	return mentioned(g, eg, ref, page, style, hint, -1)
}

// ResignPrompt is Board with the question to the player at side ask (0 black, 1 white), who
// tapped Resign, whether they mean it: "Resign? Yes / No" in place of the Resign button (see
// controls). Only a game in play asks; any other is drawn as Board draws it.
func ResignPrompt(g *game.Game, ref game.MessageRef, page int, style game.Style, ask int) (Content, error) {
	if g.Status != game.StatusPlaying || ask < 0 || ask > 1 {
		ask = -1
	}
	return mentioned(g, nil, ref, page, style, engine.Pass, ask)
}

// mentioned draws the board (boardOf) and, on a message both players see, mentions the
// player to move.
func mentioned(g *game.Game, eg *engine.Game, ref game.MessageRef, page int, style game.Style, hint engine.Square, ask int) (Content, error) {
	if eg == nil && g.Status != game.StatusLobby {
		var err error
		if eg, err = Replay(g); err != nil {
			return Content{}, err
		}
	}
	c, err := boardOf(g, eg, ref, page, style, hint, ask)
	if err == nil && viewer(g, ref) < 0 {
		c.Entities = TurnMention(g, eg, ViewLang(g, ref), c.Text)
	}
	return c, err
}

// boardOf draws the board of g as BoardHinted does, asking the player at side ask whether
// they resign (-1: nobody), without the mention.
func boardOf(g *game.Game, eg *engine.Game, ref game.MessageRef, page int, style game.Style, hint engine.Square, ask int) (Content, error) {
	lang := ViewLang(g, ref)
	if g.Status == game.StatusLobby {
		return Lobby(g, lang, ""), nil
	}
	var err error
	if eg == nil {
		if eg, err = Replay(g); err != nil {
			return Content{}, err
		}
	}
	v := render.ViewOf(eg).WithHint(hint)
	v.Ply = game.Ply(g) // the ply package game checks taps against (passes not counted)
	text := render.Status(lang, statusOf(g, v, lang))
	if note := passNote(g, eg, lang); note != "" {
		text = note + "\n" + text
	}
	turn, seer := int(eg.Position().Side()), viewer(g, ref)
	if g.Status == game.StatusFinished {
		text += endText(g, eg, lang, seer)
	}
	if g.Status == game.StatusPlaying && g.Players[turn].UserID == 0 && !eg.Over() {
		text += "\n" + tr(lang, i18n.KeyGameThinking) // the AI is to move
	}
	opt := KeyboardOptions{Game: g.ID, Controls: controls(g, lang, turn, seer, ask, eg.Position().Tag()),
		Over: g.Status == game.StatusFinished, HideMoves: !mayMove(g, turn, seer), Version: g.Version}
	if FitsKeyboard(g.Size) && (style != game.StyleImage || ref.InlineID != "") {
		kb, err := Keyboard(v, opt)
		if err != nil {
			return Content{}, err
		}
		return Content{Text: text, Keyboard: &kb}, nil
	}
	var kb models.InlineKeyboardMarkup
	if g.Status == game.StatusPlaying {
		// The picker lists the legal moves of the player to move, whoever views it: the chat
		// contract of DESIGN.md (a tap of the player who may not move is told why).
		kb, err = MovePicker(v, page, opt)
	} else {
		kb = models.InlineKeyboardMarkup{InlineKeyboard: opt.Controls}
	}
	if err != nil {
		return Content{}, err
	}
	c := Content{Text: text, Keyboard: &kb}
	if len(kb.InlineKeyboard) == 0 {
		c.Keyboard = nil
	}
	if ref.InlineID != "" {
		// An inline message takes no upload: the Telegram layer shows a picture it serves
		// (Content.PhotoURL), or else the grid (Content.WithGrid).
		c.Grid = textBoard(v.Position)
		return c, nil
	}
	c.Photo, err = render.PNG(v, render.ImageOptions{Flipped: true, HideHints: opt.HideMoves || g.Status != game.StatusPlaying})
	return c, err
}

// passNote announces the passes played since the player who passed last placed a disc
// (several passes in a row happen when the opponent moves again and again), and then names
// every disc the opponent placed meanwhile, so that a player who had to pass sees all the
// moves they missed, not only the last one: the picture marks them all (render.View.Run), and
// on a board small enough for a keyboard, which marks no move, the note says where each lies,
// as the status text does for the last move. The pass of the very last ply is
// left to the status text, which tells it. A finished game tells the passes before its end.
func passNote(g *game.Game, eg *engine.Game, lang string) string {
	moves := eg.Moves()
	n := len(moves)
	if n == 0 || moves[n-1] == engine.Pass || g.Status == game.StatusLobby {
		return ""
	}
	first := eg.Start().Side()
	colour := func(i int) engine.Color {
		if i%2 == 1 {
			return first.Opponent()
		}
		return first
	}
	mover := colour(n - 1) // placed the last disc
	passer := mover.Opponent()
	passes := 0
	var placed []string
	for i := n - 1; i >= 0; i-- {
		if colour(i) == mover {
			if moves[i] != engine.Pass {
				placed = append(placed, moves[i].String()+render.Place(lang, moves[i], g.Size))
			}
			continue
		}
		if moves[i] != engine.Pass {
			break // the passer's last disc
		}
		passes++
	}
	if passes == 0 {
		return ""
	}
	who := func(c engine.Color) string {
		sym := render.BlackDisc
		if c == engine.White {
			sym = render.WhiteDisc
		}
		return sym + " " + PlayerName(g, int(c), lang)
	}
	note := tr(lang, i18n.KeyGamePass, who(passer))
	if len(placed) > 1 {
		slices.Reverse(placed)
		note += "\n" + tr(lang, i18n.KeyEndMovesInRow, who(mover), strings.Join(placed, ", "))
	}
	return note
}

// The longest game records endText shows: numbered while that fits, else compact, else none,
// so that the text under a picture stays within Telegram's caption limit.
const (
	maxNumberedRecord = 600
	maxCompactRecord  = 760
)

// endText returns the lines a finished game adds under its status text, each after a line
// break: that it was aborted, the personal result of a player viewing their own board ("You
// win 36 : 28!"), the rating change of a rated game between people, the game record as
// numbered moves, and where a rematch offer stands.
func endText(g *game.Game, eg *engine.Game, lang string, seer int) string {
	var b strings.Builder
	line := func(s string) { b.WriteString("\n" + s) }
	pos := eg.Position()
	if g.Aborted() {
		line(tr(lang, i18n.KeyEndAborted))
	}
	if seer >= 0 && g.Reason == game.EndNormal {
		me, opp := pos.Count(engine.Color(seer)), pos.Count(engine.Color(seer).Opponent())
		switch {
		case me > opp:
			line(tr(lang, i18n.KeyEndYouWin, me, opp))
		case me < opp:
			line(tr(lang, i18n.KeyEndYouLose, me, opp))
		}
	}
	if r := g.Rating; r.Rated && g.AILevel == 0 {
		rating := func(i int) string {
			return tr(lang, i18n.KeyEndRating, PlayerName(g, i, lang), r.After[i], signed(r.Delta(i)))
		}
		line(tr(lang, i18n.KeyEndRatings, rating(0), rating(1)))
	}
	if len(g.Moves) > 0 {
		if rec := numbered(eg, tr(lang, i18n.KeyEndPass)); len(rec) <= maxNumberedRecord {
			line(tr(lang, i18n.KeyEndRecord, rec))
		} else if rec := eg.Record(); len(rec) <= maxCompactRecord {
			line(tr(lang, i18n.KeyResultRecord, rec))
		}
	}
	if g.AILevel == 0 {
		if s := offerText(g, lang, seer); s != "" {
			line(s)
		}
	}
	return b.String()
}

// offerText tells where the rematch offer of the finished game g stands, for the viewer seer
// (see viewer): "" when none was made. A standing offer says how long it stands from when it
// was made: game.DefaultRematchFor, the time the bot's Service keeps offers (no time of day,
// which would need the reader's time zone). Its expiry shows once someone answers it late.
func offerText(g *game.Game, lang string, seer int) string {
	by := game.Side(g, g.RematchBy)
	if by < 0 {
		return ""
	}
	name, other := PlayerName(g, by, lang), PlayerName(g, 1-by, lang)
	switch g.Rematch {
	case game.RematchOffered:
		open := i18n.Duration(lang, game.DefaultRematchFor)
		switch seer {
		case by:
			return tr(lang, i18n.KeyEndOfferedByYou, open, other)
		case 1 - by:
			return tr(lang, i18n.KeyEndOfferedToYou, name, open)
		}
		return tr(lang, i18n.KeyEndOffered, name, open)
	case game.RematchAccepted:
		return tr(lang, i18n.KeyEndAccepted)
	case game.RematchDeclined:
		return tr(lang, i18n.KeyEndDeclined, other)
	case game.RematchWithdrawn:
		return tr(lang, i18n.KeyEndWithdrawn, name)
	case game.RematchExpired:
		return tr(lang, i18n.KeyEndExpired, name)
	}
	return ""
}

// signed writes a rating change with its sign: "+16", "−16" (a minus sign), "±0".
func signed(d int) string {
	switch {
	case d > 0:
		return "+" + strconv.Itoa(d)
	case d < 0:
		return "−" + strconv.Itoa(-d)
	}
	return "±0"
}

// numbered writes the moves of eg as numbered pairs, black's then white's ("1. f5 d6 2. c3
// d3"), a pass as pass; passes after the last disc are left out.
func numbered(eg *engine.Game, pass string) string {
	moves := eg.Moves()
	for len(moves) > 0 && moves[len(moves)-1] == engine.Pass {
		moves = moves[:len(moves)-1]
	}
	offset := 0
	if eg.Start().Side() == engine.White {
		offset = 1 // white moves first: "1. … d6"
	}
	var b strings.Builder
	for i, m := range moves {
		if i > 0 {
			b.WriteByte(' ')
		}
		switch k := i + offset; {
		case k%2 == 0:
			b.WriteString(strconv.Itoa(k/2+1) + ". ")
		case i == 0:
			b.WriteString("1. … ")
		}
		b.WriteString(moveName(m, pass))
	}
	return b.String()
}

func moveName(sq engine.Square, pass string) string {
	if sq == engine.Pass {
		return pass
	}
	return sq.String()
}

// textBoard draws a position as lines of symbols, for inline messages of large boards:
// a header of column letters, then one line per row with its number.
func textBoard(p engine.Position) string {
	n := p.Size()
	var sb strings.Builder
	sb.WriteString("    ")
	for c := 0; c < n; c++ {
		sb.WriteByte(byte('a' + c))
	}
	sb.WriteByte('\n')
	for r := 0; r < n; r++ {
		fmt.Fprintf(&sb, "%2d ", r+1)
		for c := 0; c < n; c++ {
			col, ok := p.At(engine.SquareAt(c, r))
			switch {
			case !ok:
				sb.WriteString("🟩")
			case col == engine.Black:
				sb.WriteString(render.BlackDisc)
			default:
				sb.WriteString(render.WhiteDisc)
			}
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}
