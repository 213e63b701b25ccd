package engine

import (
	"errors"
	"fmt"
)

// Game is a game in progress or finished: where it started, every move played (passes
// included) and the positions they led to. The zero Game is not usable: make one with NewGame
// or Replay.
type Game struct {
	positions []Position // positions[0] is the start; positions[i+1] follows moves[i]
	moves     []Square
	flips     []Set
}

// NewGame starts a game on a board of the given size.
func NewGame(size int) (*Game, error) {
	p, err := Start(size)
	if err != nil {
		return nil, err
	}
	return NewGameFrom(p), nil
}

// NewGameFrom starts a game from any position.
func NewGameFrom(p Position) *Game { return &Game{positions: []Position{p}} }

// Replay plays moves from the start of a board of the given size. Passes may be written or left
// out: a pass is inserted wherever the side to move has no legal move. It fails with the number of
// the offending move when a move is illegal.
func Replay(size int, moves []Square) (*Game, error) {
	g, err := NewGame(size)
	if err != nil {
		return nil, err
	}
	for i, m := range moves {
		if m != Pass && g.Position().MustPass() {
			if _, err := g.Play(Pass); err != nil {
				return nil, err
			}
		}
		if _, err := g.Play(m); err != nil {
			return nil, fmt.Errorf("move %d (%v): %w", i+1, m, err)
		}
	}
	return g, nil
}

// ReplayRecord parses a game record (see ParseRecord) and replays it on a board of the given size.
func ReplayRecord(size int, record string) (*Game, error) {
	moves, err := ParseRecord(record)
	if err != nil {
		return nil, err
	}
	return Replay(size, moves)
}

// Position returns the current position.
func (g *Game) Position() Position { return g.positions[len(g.positions)-1] }

// Start returns the position the game started from.
func (g *Game) Start() Position { return g.positions[0] }

// Moves returns the moves played so far, passes included. The caller must not modify it.
func (g *Game) Moves() []Square { return g.moves }

// Len returns the number of moves played (passes included).
func (g *Game) Len() int { return len(g.moves) }

// LastMove returns the last move played and the discs it flipped; ok is false at the start.
func (g *Game) LastMove() (sq Square, flipped Set, ok bool) {
	if len(g.moves) == 0 {
		return Pass, Set{}, false
	}
	return g.moves[len(g.moves)-1], g.flips[len(g.flips)-1], true
}

// Play plays sq (or Pass) for the side to move and returns the discs it flipped. An illegal move
// changes nothing and returns the error of Position.Play.
func (g *Game) Play(sq Square) (Set, error) {
	next, flips, err := g.Position().Play(sq)
	if err != nil {
		return Set{}, err
	}
	g.positions = append(g.positions, next)
	g.moves = append(g.moves, sq)
	g.flips = append(g.flips, flips)
	return flips, nil
}

// ErrNothingToUndo is returned by Undo at the start of a game.
var ErrNothingToUndo = errors.New("engine: nothing to undo")

// Undo takes back the last move (a pass counts as a move).
func (g *Game) Undo() error {
	if len(g.moves) == 0 {
		return ErrNothingToUndo
	}
	g.positions = g.positions[:len(g.positions)-1]
	g.moves = g.moves[:len(g.moves)-1]
	g.flips = g.flips[:len(g.flips)-1]
	return nil
}

// Over reports whether neither side can move.
func (g *Game) Over() bool { return g.Position().GameOver() }

// Outcome returns the result of a finished game, Ongoing before the end.
func (g *Game) Outcome() Outcome { return g.Position().Outcome() }

// Record returns the game record without passes ("f5d6c3d3").
func (g *Game) Record() string { return FormatRecord(g.moves) }
