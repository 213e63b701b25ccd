package webapp

import (
	"strings"

	"github.com/reversibot/reversi/bot/i18n"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/render"
)

// State is a game as one viewer sees it: the answer of api/state, api/watch and api/move.
// Squares are named as in chat ("d3": column letter from the left, row number from the top).
type State struct {
	Game    string `json:"game"`    // the game's ID
	Version int64  `json:"version"` // game.Game.Version: grows with every change; api/watch's after
	Ply     int    `json:"ply"`     // game.Ply
	Pos     uint64 `json:"pos"`     // the position's tag (engine.Position.Tag, < 2^40): send it back with a move
	Size    int    `json:"size"`    // the board's side: 8, 10, 12 or 16
	// Board is the position, Size·Size characters row by row from a1 (the top left):
	// 'X' black, 'O' white, '-' empty.
	Board  string `json:"board"`
	Status string `json:"status"` // "lobby", "playing" or "finished"
	// Turn is the colour to move ("black", "white") while the game is being played.
	Turn string `json:"turn,omitempty"`
	// You is the viewer's colour ("black", "white"); "" for a watcher, or a player in a lobby
	// (whose colour is drawn when the second player joins).
	You string `json:"you,omitempty"`
	// Player reports that the viewer plays in the game (a watcher only looks).
	Player bool `json:"player"`
	// CanMove reports that the viewer is to move now; Legal then lists their moves (it is
	// empty otherwise: nobody else sees them).
	CanMove bool     `json:"can_move"`
	Legal   []string `json:"legal,omitempty"`
	// Last is the last disc placed, LastBy its colour, Flipped the discs it flipped.
	Last    string   `json:"last,omitempty"`
	LastBy  string   `json:"last_by,omitempty"`
	Flipped []string `json:"flipped,omitempty"`
	// Passed reports that the last ply was a pass of the opponent of the side to move.
	Passed bool `json:"passed,omitempty"`
	// Thinking reports that the bot's AI is to move.
	Thinking bool          `json:"thinking,omitempty"`
	Score    Score         `json:"score"`
	Players  [2]PlayerView `json:"players"` // [0] black, [1] white; in a lobby [0] is its creator
	Result   *Result       `json:"result,omitempty"`
	Lang     string        `json:"lang"` // the viewer's language: "en" or "ru"
}

// Score counts the discs of each colour.
type Score struct {
	Black int `json:"black"`
	White int `json:"white"`
}

// PlayerView is one side of a game as the page names it.
type PlayerView struct {
	Name  string `json:"name"`            // as the chat's board names them ("" for a lobby's empty seat)
	Color string `json:"color"`           // "black" or "white" ("" in a lobby)
	AI    bool   `json:"ai,omitempty"`    // the bot's AI
	Level string `json:"level,omitempty"` // the AI's level, named in the viewer's language
	You   bool   `json:"you,omitempty"`   // the viewer
	Seat  bool   `json:"seat,omitempty"`  // the seat is taken (false for a lobby's second)
}

// Result is how a finished game ended.
type Result struct {
	Winner string `json:"winner"` // "black", "white", "draw", or "none" (called off)
	Reason string `json:"reason"` // "normal", "resign", "timeout" or "abandoned"
	// Text is the result as the chat's board says it ("Game over. ⚫ Alice wins, 36 : 28."),
	// Note what it means for the viewer ("You win 36 : 28! 🎉"), if anything.
	Text string `json:"text"`
	Note string `json:"note,omitempty"`
	// Mine is the viewer's result: "win", "loss" or "draw" ("" for a watcher or no result).
	Mine string `json:"mine,omitempty"`
}

// frame is one version of a game, replayed: what every viewer's State is made from.
type frame struct {
	g  *game.Game
	eg *engine.Game
	v  render.View
}

// frameOf replays a copy of g.
func frameOf(g *game.Game) (*frame, error) {
	g = g.Clone()
	eg, err := engine.ReplayBytes(g.Size, g.Moves)
	if err != nil {
		return nil, err
	}
	v := render.ViewOf(eg)
	v.Ply = game.Ply(g)
	return &frame{g: g, eg: eg, v: v}, nil
}

// mayView reports whether user may see g: its players always; anyone a game shown in a shared
// chat (a group, an inline message), to watch it; nobody else.
func mayView(g *game.Game, user int64) bool {
	return game.Side(g, user) >= 0 || g.Flow == game.FlowGroup || g.Flow == game.FlowInline
}

func colorName(c engine.Color) string {
	if c == engine.White {
		return "white"
	}
	return "black"
}

// playerName is how the chat's board names player i of g: the AI by its level, a person by
// name as the status text shows it.
func playerName(g *game.Game, i int, lang string) string {
	p := g.Players[i]
	if p.UserID == 0 && g.AILevel > 0 {
		return i18n.T(lang, i18n.KeyGameBotName, i18n.Level(lang, g.AILevel))
	}
	if p.UserID == 0 && p.Name == "" {
		return ""
	}
	return render.ShownName(lang, engine.Color(i), p.Name)
}

// state is f as user sees it, in lang.
func (f *frame) state(user int64, lang string) *State {
	g, pos := f.g, f.eg.Position()
	n := g.Size
	st := &State{Game: g.ID, Version: g.Version, Ply: game.Ply(g), Pos: pos.Tag(), Size: n, Status: g.Status.String(), Lang: lang}
	st.Board = pos.BoardText()
	st.Score = Score{Black: pos.Count(engine.Black), White: pos.Count(engine.White)}
	side := game.Side(g, user)
	st.Player = side >= 0
	lobby := g.Status == game.StatusLobby
	for i := range g.Players {
		p := g.Players[i]
		pv := PlayerView{Name: playerName(g, i, lang), AI: p.UserID == 0 && g.AILevel > 0,
			You: side == i, Seat: p.UserID != 0 || g.AILevel > 0}
		if pv.AI {
			pv.Level = i18n.Level(lang, g.AILevel)
		}
		if !lobby {
			pv.Color = colorName(engine.Color(i))
		}
		st.Players[i] = pv
	}
	if side >= 0 && !lobby {
		st.You = colorName(engine.Color(side))
	}
	if f.v.Last != engine.Pass {
		st.Last, st.LastBy = f.v.Last.String(), colorName(f.v.LastBy)
		st.Flipped = names(f.v.Flipped.Squares())
	}
	playing := g.Status == game.StatusPlaying && !pos.GameOver()
	if playing {
		turn := pos.Side()
		st.Turn = colorName(turn)
		st.Passed = f.v.Passed
		mover := g.Players[turn]
		st.Thinking = mover.UserID == 0 && g.AILevel > 0
		if side == int(turn) && mover.UserID != 0 {
			st.CanMove = true
			st.Legal = names(pos.LegalMoves())
		}
	}
	if g.Status == game.StatusFinished {
		st.Result = f.result(side, lang)
	}
	return st
}

// result describes the end of the finished game of f for the viewer at side (-1: a watcher).
func (f *frame) result(side int, lang string) *Result {
	g, pos := f.g, f.eg.Position()
	r := &Result{Reason: g.Reason.String(), Winner: "none"}
	switch g.Outcome {
	case game.OutcomeBlack:
		r.Winner = "black"
	case game.OutcomeWhite:
		r.Winner = "white"
	case game.OutcomeDraw:
		r.Winner = "draw"
	}
	info := render.StatusInfo{View: f.v, Black: playerName(g, 0, lang), White: playerName(g, 1, lang), Result: g.Result()}
	text := strings.TrimRight(render.Status(lang, info), "\n")
	if i := strings.LastIndexByte(text, '\n'); i >= 0 {
		text = text[i+1:]
	}
	r.Text = text
	if side >= 0 {
		switch w := g.Outcome; {
		case w == game.OutcomeDraw:
			r.Mine = "draw"
		case w == game.OutcomeBlack && side == 0, w == game.OutcomeWhite && side == 1:
			r.Mine = "win"
		case w == game.OutcomeBlack || w == game.OutcomeWhite:
			r.Mine = "loss"
		}
	}
	switch {
	case g.Aborted():
		r.Note = i18n.T(lang, i18n.KeyEndAborted)
	case side >= 0 && g.Reason == game.EndNormal:
		me, opp := pos.Count(engine.Color(side)), pos.Count(engine.Color(side).Opponent())
		switch {
		case me > opp:
			r.Note = i18n.T(lang, i18n.KeyEndYouWin, me, opp)
		case me < opp:
			r.Note = i18n.T(lang, i18n.KeyEndYouLose, me, opp)
		}
	}
	return r
}

func names(sqs []engine.Square) []string {
	if len(sqs) == 0 {
		return nil
	}
	out := make([]string, len(sqs))
	for i, s := range sqs {
		out[i] = s.String()
	}
	return out
}
