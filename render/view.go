// Package render turns Reversi positions into what a chat shows of them, apart from buttons: a
// PNG image of a board of any size with its legal moves labelled, the replay GIF, the review
// chart and the status text under a board in Russian and English. It does no I/O of its own and
// imports nothing of Telegram's (the buttons are bot/present's, their data bot/callback's).
package render

import (
	"github.com/reversibot/reversi/engine"
)

// View is one moment of a game as the renderers draw it. Make one with ViewOf or NewView; the
// zero View is not a valid board.
type View struct {
	// Position is the board and the side to move.
	Position engine.Position
	// Last is the last disc placed, engine.Pass when no disc has been placed yet.
	Last engine.Square
	// LastBy is the colour that placed Last.
	LastBy engine.Color
	// Flipped are the discs that Last flipped; the PNG can highlight them.
	Flipped engine.Set
	// Run are the other discs that LastBy placed in a row before Last, while the opponent
	// had to pass (empty when the opponent moved in between): with Last, every move the
	// opponent's player missed. The picture marks them as it marks Last.
	Run engine.Set
	// Passed reports that the last move was a pass by the opponent of the side to move.
	Passed bool
	// Ply is the game's ply (engine.Game.Ply: the discs placed, passes not counted); buttons
	// carry it to spot stale taps.
	Ply int

	// hint is the move suggested to the player to move when hinted is set (WithHint): the
	// zero View suggests nothing.
	hint   engine.Square
	hinted bool
}

// WithHint returns v with sq as the move suggested to the player to move, which the keyboard
// shows as HintMark, the picture as a ringed dot and the status text by name and place.
// engine.Pass clears the hint. A hint that the side to move cannot play (a stale one) is shown
// nowhere.
func (v View) WithHint(sq engine.Square) View {
	v.hint, v.hinted = sq, sq != engine.Pass
	return v
}

// Hint returns the move suggested to the player to move (WithHint) when there is one and the
// side to move may play it now.
func (v View) Hint() (engine.Square, bool) {
	if !v.hinted || v.hint == engine.Pass || !v.Position.IsLegal(v.hint) {
		return engine.Pass, false
	}
	return v.hint, true
}

// NewView returns the View of a position with no history: no last move, Ply 0.
func NewView(p engine.Position) View {
	return View{Position: p, Last: engine.Pass}
}

// ViewOf returns the View of the current moment of g: its position, the last disc placed and
// what it flipped (even when a pass followed it), the discs its colour placed in a row before
// it while the opponent passed (Run), whether the last move was a pass, and the game's ply.
func ViewOf(g *engine.Game) View {
	v := NewView(g.Position())
	moves := g.Moves()
	v.Ply = g.Ply()
	first := g.Start().Side()
	last := -1
	for i := len(moves) - 1; i >= 0; i-- {
		if moves[i] == engine.Pass {
			if i == len(moves)-1 {
				v.Passed = true
			}
			continue
		}
		v.Last = moves[i]
		v.LastBy = first
		if i%2 == 1 {
			v.LastBy = first.Opponent()
		}
		last = i
		break
	}
	// Plies alternate colours: the last mover's are last-2, last-4, … as long as the
	// opponent's plies between them are passes.
	for i := last - 2; i >= 0 && moves[i+1] == engine.Pass; i -= 2 {
		if moves[i] != engine.Pass {
			v.Run = v.Run.Add(moves[i])
		}
	}
	if v.Last != engine.Pass {
		if sq, flipped, ok := g.LastMove(); ok && sq == v.Last {
			v.Flipped = flipped
		} else if ok && sq == engine.Pass {
			v.Flipped = flippedBefore(g)
		}
	}
	return v
}

// flippedBefore returns the discs flipped by the last disc placed when the last move of g was a
// pass: it replays the moves before the pass.
func flippedBefore(g *engine.Game) engine.Set {
	moves := g.Moves()
	p := g.Start()
	var flipped engine.Set
	for _, m := range moves {
		next, f, err := p.Play(m)
		if err != nil {
			return engine.Set{}
		}
		if m != engine.Pass {
			flipped = f
		}
		p = next
	}
	return flipped
}

// lastOK reports whether v's last move is a square of the board holding a disc.
func (v View) lastOK() bool {
	if !v.Last.OnBoard(v.Position.Size()) {
		return false
	}
	_, ok := v.Position.At(v.Last)
	return ok
}
