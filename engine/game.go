package engine

import (
	"errors"
	"fmt"
)

// Game is a game in progress or finished: where it started, every move played (passes
// included) and the positions they led to. The zero Game is not usable: make one with NewGame
// or Replay.
//
// Moves and plies. A move is what a player does on their turn: place a disc, or pass when they
// have no legal move. The game's ply (Ply) is the number of discs placed since the start:
// passes are not counted. That is the count that names a moment of a game outside the search:
// a game is stored as its Ply placed discs and nothing else (Record, ReplayBytes), and a board's
// buttons carry the Ply they were drawn at to spot a tap on an out-of-date board. Every pass
// can be told from the discs placed, since a player passes exactly when they cannot move, so
// Replay puts the passes back. Len counts moves, passes included. (The search of package ai
// and Perft count depth in plies of the game tree, where a forced pass is a level of its own.)
type Game struct {
	positions []Position // positions[0] is the start; positions[i+1] follows moves[i]
	moves     []Square
	flips     []Set
	placed    []int // placed[k] is the index in moves of the k-th disc placed
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

// Replay plays moves from the start of a board of the given size; it is the one replay of a
// game's moves, whatever stored them. Passes may be written or left out: a pass is inserted
// wherever the side to move has no legal move but the opponent has, before a move and after
// the last one too, so the side to move of the game returned has a legal move unless the game
// is over. A replay of the discs placed (passes left out) thus has Ply() == len(moves). It
// fails with the number (counted from 1) and the square of the offending move when a move is
// illegal, wrapping the error of Position.Play (test it with errors.Is: ErrIllegal,
// ErrOffBoard, ErrOccupied, ErrCannotPass, ErrGameOver), and with ErrSize for a bad size.
func Replay(size int, moves []Square) (*Game, error) {
	return replay(size, len(moves), func(i int) Square { return moves[i] })
}

// ReplayBytes is Replay of the discs placed written one byte a disc, each byte a Square
// (row<<4 | col, so a1 = 0x00, b1 = 0x01, a2 = 0x10): the form games are stored in. A byte
// cannot be a pass, so every pass is inserted.
func ReplayBytes(size int, moves []byte) (*Game, error) {
	return replay(size, len(moves), func(i int) Square { return Square(moves[i]) })
}

// replay is Replay of n moves, move i being at(i).
func replay(size, n int, at func(int) Square) (*Game, error) {
	g, err := NewGame(size)
	if err != nil {
		return nil, err
	}
	c := n + n/8 + 1 // room for a few passes
	g.positions = append(make([]Position, 0, c+1), g.positions...)
	g.moves, g.flips, g.placed = make([]Square, 0, c), make([]Set, 0, c), make([]int, 0, n)
	for i := 0; i < n; i++ {
		m := at(i)
		if m != Pass {
			g.passes()
		}
		if _, err := g.Play(m); err != nil {
			return nil, fmt.Errorf("move %d (%v): %w", i+1, m, err)
		}
	}
	g.passes()
	return g, nil
}

// passes plays the pass of the side to move when it must pass.
func (g *Game) passes() {
	for g.Position().MustPass() {
		if _, err := g.Play(Pass); err != nil {
			return // cannot happen: a pass is legal when the side must pass
		}
	}
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

// Len returns the number of moves played, passes included.
func (g *Game) Len() int { return len(g.moves) }

// Ply returns the game's ply: the number of discs placed since the start, passes not counted
// (see Game).
func (g *Game) Ply() int { return len(g.placed) }

// PlacedBy returns the colour that placed the disc of ply k: the k-th disc placed, counted
// from 0 (0 <= k < Ply()). It panics for any other k, as an index out of range does.
func (g *Game) PlacedBy(k int) Color { return g.MoverOf(g.placed[k]) }

// MoverOf returns the colour that played move i of Moves(), counted from 0: the side to move
// of the start for even i, its opponent for odd i (a pass is a move, so turns alternate).
func (g *Game) MoverOf(i int) Color {
	c := g.Start().Side()
	if i%2 != 0 {
		c = c.Opponent()
	}
	return c
}

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
	if sq != Pass {
		g.placed = append(g.placed, len(g.moves)-1)
	}
	return flips, nil
}

// ErrNothingToUndo is returned by Undo at the start of a game.
var ErrNothingToUndo = errors.New("engine: nothing to undo")

// Undo takes back the last move (a pass counts as a move).
func (g *Game) Undo() error {
	if len(g.moves) == 0 {
		return ErrNothingToUndo
	}
	if g.moves[len(g.moves)-1] != Pass {
		g.placed = g.placed[:len(g.placed)-1]
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

// Result returns the result the board gives: {Outcome(), EndNormal}, the zero Result before
// the end. A game that ends otherwise (a resignation, a timeout) is the host's to record.
func (g *Game) Result() Result { return Result{Outcome: g.Outcome()} }

// Record returns the game record without passes ("f5d6c3d3").
func (g *Game) Record() string { return FormatRecord(g.moves) }
