package engine

import "fmt"

// Color is the colour of a disc or of a player. Black moves first.
type Color int8

// The two colours.
const (
	Black Color = iota
	White
)

// Opponent returns the other colour.
func (c Color) Opponent() Color { return c ^ 1 }

// String returns "black" or "white".
func (c Color) String() string {
	switch c {
	case Black:
		return "black"
	case White:
		return "white"
	}
	return fmt.Sprintf("Color(%d)", int8(c))
}

// Symbol returns the position-text letter of the colour: 'X' for black, 'O' for white.
func (c Color) Symbol() byte {
	if c == White {
		return 'O'
	}
	return 'X'
}

// Position is an immutable board with the side to move. The zero Position is not a valid board:
// make one with Start or ParsePosition. Positions are small values; copy them freely.
type Position struct {
	size uint8
	side Color
	b8   [2]uint64 // discs by colour when size == 8
	bn   [2]Set    // discs by colour on other sizes
}

// Start returns the starting position of a board of the given size: white on the two centre
// squares of the main diagonal (d4 and e5 on 8×8), black on the other two, black to move.
func Start(size int) (Position, error) {
	if !ValidSize(size) {
		return Position{}, fmt.Errorf("%w: %d (want an even size from %d to %d)", ErrSize, size, MinSize, MaxSize)
	}
	h := size/2 - 1
	var black, white Set
	white = white.Add(SquareAt(h, h)).Add(SquareAt(h+1, h+1))
	black = black.Add(SquareAt(h+1, h)).Add(SquareAt(h, h+1))
	return fromSets(size, black, white, Black), nil
}

// MustStart is Start for a size known to be valid; it panics otherwise.
func MustStart(size int) Position {
	p, err := Start(size)
	if err != nil {
		panic(err)
	}
	return p
}

// FromBitboards8 builds an 8×8 position from bitboards (bit row*8+col) of the side to move and
// of its opponent; a disc in both belongs to the side to move, and a side other than White means
// Black.
func FromBitboards8(player, opponent uint64, side Color) Position {
	if side != White {
		side = Black
	}
	p := Position{size: 8, side: side}
	p.b8[side], p.b8[side^1] = player, opponent&^player
	return p
}

// Bitboards8 returns the 8×8 bitboards of the side to move and of its opponent; ok is false on
// other sizes.
func (p Position) Bitboards8() (player, opponent uint64, ok bool) {
	if p.size != 8 {
		return 0, 0, false
	}
	return p.b8[p.side], p.b8[p.side^1], true
}

// fromSets builds a position from the discs of each colour; the sets must lie on the board and
// not overlap.
func fromSets(size int, black, white Set, side Color) Position {
	p := Position{size: uint8(size), side: side}
	if size == 8 {
		p.b8 = [2]uint64{pack8(black), pack8(white)}
	} else {
		p.bn = [2]Set{black, white}
	}
	return p
}

// Size is the board's width (and height).
func (p Position) Size() int { return int(p.size) }

// Side is the colour to move.
func (p Position) Side() Color { return p.side }

// Discs returns the squares holding discs of colour c.
func (p Position) Discs(c Color) Set {
	if c != Black && c != White {
		return Set{}
	}
	if p.size == 8 {
		return spread8(p.b8[c])
	}
	return p.bn[c]
}

// At reports the colour of the disc on sq; ok is false for an empty square or one off the board.
func (p Position) At(sq Square) (c Color, ok bool) {
	if !sq.OnBoard(int(p.size)) {
		return 0, false
	}
	if p.size == 8 {
		b := uint64(1) << bit8(sq)
		switch {
		case p.b8[Black]&b != 0:
			return Black, true
		case p.b8[White]&b != 0:
			return White, true
		}
		return 0, false
	}
	switch {
	case p.bn[Black].Has(sq):
		return Black, true
	case p.bn[White].Has(sq):
		return White, true
	}
	return 0, false
}

// Count returns the number of discs of colour c.
func (p Position) Count(c Color) int {
	if c != Black && c != White {
		return 0
	}
	if p.size == 8 {
		return popcount(p.b8[c])
	}
	return p.bn[c].Len()
}

// Empties returns the number of empty squares.
func (p Position) Empties() int {
	return int(p.size)*int(p.size) - p.Count(Black) - p.Count(White)
}

// Moves returns the legal moves of the side to move.
func (p Position) Moves() Set {
	if p.size == 8 {
		return spread8(Moves8(p.b8[p.side], p.b8[p.side^1]))
	}
	return movesN(int(p.size), p.bn[p.side], p.bn[p.side^1])
}

// MoveCount returns the number of legal moves of the side to move.
func (p Position) MoveCount() int {
	if p.size == 8 {
		return popcount(Moves8(p.b8[p.side], p.b8[p.side^1]))
	}
	return p.Moves().Len()
}

// LegalMoves lists the legal moves of the side to move in increasing square order; it is empty
// when the side to move must pass or the game is over.
func (p Position) LegalMoves() []Square { return p.Moves().Squares() }

// HasMoves reports whether the side to move has a legal move.
func (p Position) HasMoves() bool {
	if p.size == 8 {
		return Moves8(p.b8[p.side], p.b8[p.side^1]) != 0
	}
	return !p.Moves().Empty()
}

// opponentHasMoves reports whether the side not to move would have a legal move.
func (p Position) opponentHasMoves() bool {
	if p.size == 8 {
		return Moves8(p.b8[p.side^1], p.b8[p.side]) != 0
	}
	return !movesN(int(p.size), p.bn[p.side^1], p.bn[p.side]).Empty()
}

// MustPass reports whether the side to move has no legal move while the opponent has one.
func (p Position) MustPass() bool { return !p.HasMoves() && p.opponentHasMoves() }

// GameOver reports whether neither side can move.
func (p Position) GameOver() bool { return !p.HasMoves() && !p.opponentHasMoves() }

// IsLegal reports whether sq is a legal move for the side to move (Pass is legal only when the
// side to move must pass).
func (p Position) IsLegal(sq Square) bool {
	if sq == Pass {
		return p.MustPass()
	}
	return sq.OnBoard(int(p.size)) && p.Moves().Has(sq)
}

// Flips returns the discs that the side to move would flip by playing sq; it is empty when sq is
// not a legal move.
func (p Position) Flips(sq Square) Set {
	if !sq.OnBoard(int(p.size)) {
		return Set{}
	}
	if _, occupied := p.At(sq); occupied {
		return Set{}
	}
	if p.size == 8 {
		return spread8(Flips8(p.b8[p.side], p.b8[p.side^1], bit8(sq)))
	}
	return flipsN(int(p.size), p.bn[p.side], p.bn[p.side^1], sq)
}

// Play returns the position after the side to move plays sq (a square or Pass), and the discs
// that flipped. An illegal move returns an error that wraps ErrOffBoard, ErrOccupied, ErrIllegal,
// ErrMustPass, ErrCannotPass or ErrGameOver, and p unchanged.
func (p Position) Play(sq Square) (Position, Set, error) {
	if sq == Pass {
		switch {
		case p.HasMoves():
			return p, Set{}, ErrCannotPass
		case !p.opponentHasMoves():
			return p, Set{}, ErrGameOver
		}
		p.side ^= 1
		return p, Set{}, nil
	}
	if !sq.OnBoard(int(p.size)) {
		return p, Set{}, fmt.Errorf("%w: %v on %dx%d", ErrOffBoard, sq, p.size, p.size)
	}
	if _, occupied := p.At(sq); occupied {
		return p, Set{}, fmt.Errorf("%w: %v", ErrOccupied, sq)
	}
	if p.size == 8 {
		me, you := p.b8[p.side], p.b8[p.side^1]
		f := Flips8(me, you, bit8(sq))
		if f == 0 {
			return p, Set{}, p.illegal(sq)
		}
		p.b8[p.side] = me | f | 1<<bit8(sq)
		p.b8[p.side^1] = you &^ f
		p.side ^= 1
		return p, spread8(f), nil
	}
	f := flipsN(int(p.size), p.bn[p.side], p.bn[p.side^1], sq)
	if f.Empty() {
		return p, Set{}, p.illegal(sq)
	}
	p.bn[p.side] = or(p.bn[p.side], f).Add(sq)
	p.bn[p.side^1] = andNot(p.bn[p.side^1], f)
	p.side ^= 1
	return p, f, nil
}

// illegal explains why sq (empty, on the board, flipping nothing) cannot be played.
func (p Position) illegal(sq Square) error {
	switch {
	case p.GameOver():
		return ErrGameOver
	case p.MustPass():
		return fmt.Errorf("%w: %v", ErrMustPass, sq)
	}
	return fmt.Errorf("%w: %v flips nothing", ErrIllegal, sq)
}

// Outcome returns the result by the discs as they lie when neither side can move, and Ongoing
// before that.
func (p Position) Outcome() Outcome {
	if !p.GameOver() {
		return Ongoing
	}
	return OutcomeOf(p.Count(Black), p.Count(White))
}

// OutcomeOf returns who wins with the given disc counts (more discs wins; equal is a draw).
func OutcomeOf(black, white int) Outcome {
	switch {
	case black > white:
		return BlackWins
	case white > black:
		return WhiteWins
	}
	return Draw
}

// FinalScore returns the exact final disc difference for the side to move of a finished game under
// the Othello world convention (empty squares go to the winner), as endgame solvers report it.
func (p Position) FinalScore() int {
	me, you := p.Count(p.side), p.Count(p.side^1)
	diff := me - you
	switch {
	case diff > 0:
		diff += p.Empties()
	case diff < 0:
		diff -= p.Empties()
	}
	return diff
}
