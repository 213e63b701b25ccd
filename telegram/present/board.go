package present

import (
	"fmt"
	"strings"

	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/render"
	"github.com/reversibot/reversi/telegram/i18n"
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
// too early gets an alert saying how long is left.
func controls(g *game.Game, lang string, turn, seer int) [][]models.InlineKeyboardButton {
	ply := game.Ply(g)
	switch g.Status {
	case game.StatusFinished:
		if g.Reason == game.EndAbandoned {
			return nil
		}
		return [][]models.InlineKeyboardButton{{Button(tr(lang, i18n.KeyBtnRematch), CallbackData(render.ActionRematch, g.ID, ply))}}
	case game.StatusPlaying:
		if g.AILevel > 0 {
			row := []models.InlineKeyboardButton{}
			if g.AILevel <= game.MaxHintLevel {
				row = append(row, Button(tr(lang, i18n.KeyBtnHint), CallbackData(render.ActionHint, g.ID, ply)))
			}
			row = append(row, Button(tr(lang, i18n.KeyBtnUndo), CallbackData(render.ActionUndo, g.ID, ply)),
				Button(tr(lang, i18n.KeyBtnResign), CallbackData(render.ActionResign, g.ID, ply)))
			return [][]models.InlineKeyboardButton{row}
		}
		row := []models.InlineKeyboardButton{Button(tr(lang, i18n.KeyBtnResign), CallbackData(render.ActionResign, g.ID, ply))}
		if seer < 0 || seer != turn {
			row = append(row, Button(tr(lang, i18n.KeyBtnClaim), CallbackData(render.ActionClaim, g.ID, ply)))
		}
		return [][]models.InlineKeyboardButton{row}
	}
	return nil
}

// Board draws game g for the message ref at move-picker page page, in style (the style of
// the board's viewer; see telegram's styleOf). A lobby is its invitation (Lobby, without a
// bot username). A chat message of a board bigger than a keyboard, or of an 8×8 board in
// game.StyleImage, is a photo with the move picker; an inline message of a large board
// (which cannot get a new upload) shows the board as text instead, with the same move picker.
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
	if eg == nil && g.Status != game.StatusLobby {
		var err error
		if eg, err = Replay(g); err != nil {
			return Content{}, err
		}
	}
	c, err := boardOf(g, eg, ref, page, style, hint)
	if err == nil && viewer(g, ref) < 0 {
		c.Entities = TurnMention(g, eg, ViewLang(g, ref), c.Text)
	}
	return c, err
}

// boardOf is BoardHinted without the mention.
func boardOf(g *game.Game, eg *engine.Game, ref game.MessageRef, page int, style game.Style, hint engine.Square) (Content, error) {
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
	if g.Status == game.StatusFinished && len(g.Moves) > 0 {
		text += "\n" + tr(lang, i18n.KeyResultRecord, eg.Record())
	}
	turn, seer := int(eg.Position().Side()), viewer(g, ref)
	if g.Status == game.StatusPlaying && g.Players[turn].UserID == 0 && !eg.Over() {
		text += "\n" + tr(lang, i18n.KeyGameThinking) // the AI is to move
	}
	opt := render.KeyboardOptions{Game: g.ID, Controls: controls(g, lang, turn, seer),
		Over: g.Status == game.StatusFinished, HideMoves: !mayMove(g, turn, seer)}
	if render.FitsKeyboard(g.Size) && (style != game.StyleImage || ref.InlineID != "") {
		kb, err := render.Keyboard(v, opt)
		if err != nil {
			return Content{}, err
		}
		return Content{Text: text, Keyboard: &kb}, nil
	}
	var kb models.InlineKeyboardMarkup
	if g.Status == game.StatusPlaying {
		// The picker lists the legal moves of the player to move, whoever views it: the chat
		// contract of DESIGN.md (a tap of the player who may not move is told why).
		kb, err = render.MovePicker(v, page, opt)
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
		c.Text = textBoard(v.Position) + "\n" + text
		return c, nil
	}
	c.Photo, err = render.PNG(v, render.ImageOptions{Flipped: true, HideHints: opt.HideMoves || g.Status != game.StatusPlaying})
	return c, err
}

// passNote announces the passes played since the side to move last placed a disc (several
// passes in a row happen when the opponent moves again and again). The pass of the very last
// ply is left to the status text, which tells it.
func passNote(g *game.Game, eg *engine.Game, lang string) string {
	moves := eg.Moves()
	n := len(moves)
	if n == 0 || moves[n-1] == engine.Pass || g.Status != game.StatusPlaying {
		return ""
	}
	first := eg.Start().Side()
	side := eg.Position().Side()
	passes := 0
	var passer engine.Color
	for i := n - 1; i >= 0; i-- {
		by := first
		if i%2 == 1 {
			by = first.Opponent()
		}
		if moves[i] != engine.Pass {
			if by == side {
				break
			}
			continue
		}
		passes++
		passer = by
	}
	if passes == 0 {
		return ""
	}
	sym := render.BlackDisc
	if passer == engine.White {
		sym = render.WhiteDisc
	}
	return tr(lang, i18n.KeyGamePass, sym+" "+PlayerName(g, int(passer), lang))
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
