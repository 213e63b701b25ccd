package telegram

import (
	"fmt"
	"strings"

	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/render"
	"github.com/reversibot/reversi/telegram/i18n"
)

// replayGame plays the stored moves of g, inserting the forced passes (also after the last
// move), as package host does.
func replayGame(g *game.Game) (*engine.Game, error) {
	eg, err := engine.NewGame(g.Size)
	if err != nil {
		return nil, err
	}
	passes := func() {
		for eg.Position().MustPass() {
			if _, err := eg.Play(engine.Pass); err != nil {
				return
			}
		}
	}
	for i, m := range g.Moves {
		passes()
		if _, err := eg.Play(engine.Square(m)); err != nil {
			return nil, fmt.Errorf("game %s move %d: %w", g.ID, i+1, err)
		}
	}
	passes()
	return eg, nil
}

// viewLang is the language of the board message ref of g: a player's own private chat speaks
// that player's language, any other chat the game's.
func viewLang(g *game.Game, ref game.MessageRef) string {
	if ref.InlineID == "" && ref.ChatID != 0 {
		for _, p := range g.Players {
			if p.UserID != 0 && p.ChatID == ref.ChatID && p.Lang != "" {
				return normLang(p.Lang)
			}
		}
	}
	return normLang(g.Lang)
}

// playerName is how the board names a player.
func playerName(g *game.Game, i int, lang string) string {
	p := g.Players[i]
	if p.UserID == 0 && g.AILevel > 0 {
		return tr(lang, "game.bot_name", levelName(lang, g.AILevel))
	}
	return p.Name
}

// levelName is the name of an AI level.
func levelName(lang string, level int) string {
	return i18n.Level(lang, level)
}

// statusOf returns the render status of g.
func statusOf(g *game.Game, v render.View, lang string) render.StatusInfo {
	s := render.StatusInfo{View: v, Black: playerName(g, 0, lang), White: playerName(g, 1, lang)}
	if g.Status == game.StatusFinished {
		s.End = render.EndNormal
		loser := engine.White
		if g.Outcome == game.OutcomeWhite {
			loser = engine.Black
		}
		switch g.Reason {
		case game.EndResign:
			s.End, s.Loser = render.EndResigned, loser
		case game.EndTimeout:
			s.End, s.Loser = render.EndTimeout, loser
		case game.EndAbandoned:
			s.End = render.EndCancelled
		}
	}
	return s
}

// cb encodes a callback.
func cb(a render.Action, game string, ply int) string {
	return render.Callback{Action: a, Game: game, Ply: ply}.Encode()
}

// button makes a callback button.
func button(text, data string) models.InlineKeyboardButton {
	return models.InlineKeyboardButton{Text: text, CallbackData: data}
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
		return [][]models.InlineKeyboardButton{{button(tr(lang, "btn.rematch"), cb(render.ActionRematch, g.ID, ply))}}
	case game.StatusPlaying:
		if g.AILevel > 0 {
			row := []models.InlineKeyboardButton{}
			if g.AILevel <= game.MaxHintLevel {
				row = append(row, button(tr(lang, "btn.hint"), cb(render.ActionHint, g.ID, ply)))
			}
			row = append(row, button(tr(lang, "btn.undo"), cb(render.ActionUndo, g.ID, ply)),
				button(tr(lang, "btn.resign"), cb(render.ActionResign, g.ID, ply)))
			return [][]models.InlineKeyboardButton{row}
		}
		row := []models.InlineKeyboardButton{button(tr(lang, "btn.resign"), cb(render.ActionResign, g.ID, ply))}
		if seer < 0 || seer != turn {
			row = append(row, button(tr(lang, "btn.claim"), cb(render.ActionClaim, g.ID, ply)))
		}
		return [][]models.InlineKeyboardButton{row}
	}
	return nil
}

// boardContent draws game g for the message ref at move-picker page page, in style (see
// styleOf). A chat message of a board bigger than a keyboard, or of an 8×8 board in
// StyleImage, is a photo with the move picker; an inline message of a large board (which
// cannot get a new upload) shows the board as text instead, with the same move picker.
func boardContent(g *game.Game, ref game.MessageRef, page int, style game.Style) (content, error) {
	return boardContentOf(g, nil, ref, page, style)
}

// boardContentOf is boardContent given the replay of g (replayGame), or nil to replay it.
// It does not change eg.
func boardContentOf(g *game.Game, eg *engine.Game, ref game.MessageRef, page int, style game.Style) (content, error) {
	lang := viewLang(g, ref)
	if g.Status == game.StatusLobby {
		return lobbyContent(g, lang, ""), nil
	}
	var err error
	if eg == nil {
		if eg, err = replayGame(g); err != nil {
			return content{}, err
		}
	}
	v := render.ViewOf(eg)
	v.Ply = game.Ply(g) // the ply package host checks taps against (passes not counted)
	text := render.Status(lang, statusOf(g, v, lang))
	if note := passNote(g, eg, lang); note != "" {
		text = note + "\n" + text
	}
	if g.Status == game.StatusFinished && len(g.Moves) > 0 {
		text += "\n" + tr(lang, "result.record", eg.Record())
	}
	opt := render.KeyboardOptions{Game: g.ID, Controls: controls(g, lang, int(eg.Position().Side()), viewer(g, ref))}
	if render.FitsKeyboard(g.Size) && (style != game.StyleImage || ref.InlineID != "") {
		kb, err := render.Keyboard(v, opt)
		if err != nil {
			return content{}, err
		}
		return content{text: text, kb: &kb}, nil
	}
	var kb models.InlineKeyboardMarkup
	if g.Status == game.StatusPlaying {
		kb, err = render.MovePicker(v, page, opt)
	} else {
		kb = models.InlineKeyboardMarkup{InlineKeyboard: opt.Controls}
	}
	if err != nil {
		return content{}, err
	}
	c := content{text: text, kb: &kb}
	if len(kb.InlineKeyboard) == 0 {
		c.kb = nil
	}
	if ref.InlineID != "" {
		c.text = textBoard(v.Position) + "\n" + text
		return c, nil
	}
	c.photo, err = render.PNG(v, render.ImageOptions{Flipped: true, HideHints: g.Status != game.StatusPlaying})
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
	return tr(lang, "game.pass", sym+" "+playerName(g, int(passer), lang))
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

// lobbyContent is an invitation: its first button joins the game. For invites the button is
// a deep link (a forwarded message keeps only URL buttons working for others).
func lobbyContent(g *game.Game, lang, username string) content {
	creator := g.Players[0].Name
	var text string
	var join models.InlineKeyboardButton
	switch g.Flow {
	case game.FlowInvite:
		text = tr(lang, "invite.text", creator, g.Size, g.Size)
		join = models.InlineKeyboardButton{Text: tr(lang, "invite.button"),
			URL: "https://t.me/" + username + "?start=j" + g.ID}
	case game.FlowInline:
		text = tr(lang, "inline.text", creator, g.Size, g.Size)
		join = button(tr(lang, "lobby.join"), cb(render.ActionJoin, g.ID, 0))
	default:
		switch g.CreatorColor {
		case 0, 1:
			text = tr(lang, "lobby.text_color", creator, g.Size, g.Size, colorName(lang, int(g.CreatorColor)))
		default:
			text = tr(lang, "lobby.text", creator, g.Size, g.Size, tr(lang, "lobby.random_colors"))
		}
		join = button(tr(lang, "lobby.join"), cb(render.ActionJoin, g.ID, 0))
	}
	kb := &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{
		{join},
		{button(tr(lang, "lobby.cancel"), cb(render.ActionCancel, g.ID, 0))},
	}}
	return content{text: text, kb: kb}
}

// colorName names colour i (0 black, 1 white) in words.
func colorName(lang string, i int) string {
	if i == 1 {
		return tr(lang, "color.name_white")
	}
	return tr(lang, "color.name_black")
}
