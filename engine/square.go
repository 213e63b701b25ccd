// Package engine implements the rules of Reversi (Othello) on square boards of every even size
// from 4×4 to 16×16: positions, legal moves, flips, passes, results, hashing, notation and game
// records. It uses the standard library only.
//
// Squares are named like chess: columns are letters from the left (a…p), rows are numbers from
// the top (1…16). Black moves first.
package engine

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"
)

// MinSize and MaxSize bound the board sizes the engine supports; every even size between them works.
const (
	MinSize = 4
	MaxSize = 16
)

// ValidSize reports whether n is a supported board size (even, 4…16).
func ValidSize(n int) bool { return n >= MinSize && n <= MaxSize && n%2 == 0 }

// Errors returned by the engine; test them with errors.Is.
var (
	ErrSize       = errors.New("engine: unsupported board size")
	ErrSyntax     = errors.New("engine: syntax error")
	ErrOffBoard   = errors.New("engine: square is off the board")
	ErrOccupied   = errors.New("engine: square is occupied")
	ErrIllegal    = errors.New("engine: illegal move")
	ErrMustPass   = errors.New("engine: no legal move, the player must pass")
	ErrCannotPass = errors.New("engine: a player with a legal move cannot pass")
	ErrGameOver   = errors.New("engine: the game is over")
)

// Square is a square of a board of any size: row<<4 | col, so a1 = 0, b1 = 1, a2 = 16, p16 = 255.
// The same Square names the same place on every board size. Pass is the move of a player who
// cannot play.
type Square int16

// Pass is the move of a player with no legal move.
const Pass Square = -1

// SquareAt returns the square in column col and row row, both counted from 0.
func SquareAt(col, row int) Square { return Square(row<<4 | col) }

// Col is the square's column counted from 0 (a = 0).
func (s Square) Col() int { return int(s) & 15 }

// Row is the square's row counted from 0 (row 1 = 0).
func (s Square) Row() int { return int(s) >> 4 }

// Valid reports whether s is a square of some board (0…255); Pass is not.
func (s Square) Valid() bool { return s >= 0 && s < 256 }

// OnBoard reports whether s lies on a board of the given size.
func (s Square) OnBoard(size int) bool { return s.Valid() && s.Col() < size && s.Row() < size }

// String names the square ("d3", "p16") or "pass".
func (s Square) String() string {
	if s == Pass {
		return "pass"
	}
	if !s.Valid() {
		return fmt.Sprintf("Square(%d)", int(s))
	}
	return fmt.Sprintf("%c%d", 'a'+s.Col(), s.Row()+1)
}

// MarshalText encodes the square as its name.
func (s Square) MarshalText() ([]byte, error) {
	if s != Pass && !s.Valid() {
		return nil, fmt.Errorf("%w: square %d", ErrOffBoard, int(s))
	}
	return []byte(s.String()), nil
}

// UnmarshalText decodes a square name as ParseSquare does.
func (s *Square) UnmarshalText(b []byte) error {
	v, err := ParseSquare(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// ParseSquare reads a square name such as "d3", "D3" or "p16", or "pass" (any case).
// It does not check the square against a board size: use Square.OnBoard for that.
func ParseSquare(text string) (Square, error) {
	s := strings.TrimSpace(text)
	if strings.EqualFold(s, "pass") || strings.EqualFold(s, "pa") {
		return Pass, nil
	}
	sq, n := scanSquare(s)
	if n == 0 || n != len(s) {
		return 0, fmt.Errorf("%w: %q is not a square (want a letter a-p and a number 1-16, like d3)", ErrSyntax, text)
	}
	return sq, nil
}

// scanSquare reads one square name at the start of s and returns it with the number of bytes read
// (0 when s does not start with a square name). It prefers a two-digit row when the digits make one
// (a1 then 0 reads "a10"), so records of boards wider than 9 rows must not rely on a "1"
// followed by a square name starting with a digit (they never do: names start with a letter).
func scanSquare(s string) (Square, int) {
	if len(s) < 2 {
		return 0, 0
	}
	c := s[0] | 0x20
	if c < 'a' || c > 'p' {
		return 0, 0
	}
	if s[1] < '1' || s[1] > '9' {
		return 0, 0
	}
	row := int(s[1] - '0')
	n := 2
	if len(s) > 2 && s[2] >= '0' && s[2] <= '9' {
		if r := row*10 + int(s[2]-'0'); r <= 16 {
			row, n = r, 3
		}
	}
	return SquareAt(int(c-'a'), row-1), n
}

// Set is a set of squares of any board (bit i stands for Square(i)).
type Set [4]uint64

// Has reports whether s holds sq.
func (s Set) Has(sq Square) bool { return sq.Valid() && s[sq>>6]>>(uint(sq)&63)&1 != 0 }

// Add returns s with sq added; a Square that is not Valid (such as Pass) leaves s unchanged.
func (s Set) Add(sq Square) Set {
	if sq.Valid() {
		s[sq>>6] |= 1 << (uint(sq) & 63)
	}
	return s
}

// Len counts the squares in s.
func (s Set) Len() int {
	return bits.OnesCount64(s[0]) + bits.OnesCount64(s[1]) + bits.OnesCount64(s[2]) + bits.OnesCount64(s[3])
}

// Empty reports whether s holds no square.
func (s Set) Empty() bool { return s[0]|s[1]|s[2]|s[3] == 0 }

// First returns the lowest square in s, or Pass when s is empty.
func (s Set) First() Square {
	for i, w := range s {
		if w != 0 {
			return Square(i<<6 + bits.TrailingZeros64(w))
		}
	}
	return Pass
}

// Squares lists the squares of s in increasing order (row by row from a1).
func (s Set) Squares() []Square {
	out := make([]Square, 0, s.Len())
	for i, w := range s {
		for w != 0 {
			out = append(out, Square(i<<6+bits.TrailingZeros64(w)))
			w &= w - 1
		}
	}
	return out
}
