package engine

import (
	"fmt"
	"strings"
)

// BoardText returns the board as position text: Size·Size characters row by row from a1, 'X' for
// black, 'O' for white, '-' for empty.
func (p Position) BoardText() string {
	n := int(p.size)
	b := make([]byte, 0, n*n)
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			ch := byte('-')
			if col, ok := p.At(SquareAt(c, r)); ok {
				ch = col.Symbol()
			}
			b = append(b, ch)
		}
	}
	return string(b)
}

// String returns the position as "BOARD SIDE", the form ParsePosition reads.
func (p Position) String() string {
	return p.BoardText() + " " + string(p.side.Symbol())
}

// MarshalText encodes the position as String does.
func (p Position) MarshalText() ([]byte, error) {
	if !ValidSize(int(p.size)) {
		return nil, fmt.Errorf("%w: zero Position", ErrSize)
	}
	return []byte(p.String()), nil
}

// UnmarshalText decodes a position as ParsePosition does.
func (p *Position) UnmarshalText(b []byte) error {
	v, err := ParsePosition(string(b))
	if err != nil {
		return err
	}
	*p = v
	return nil
}

// ParseBoard reads position text (N·N characters row by row from a1: 'X' or '*' black, 'O' white,
// '-' or '.' empty, letters in either case, '0' also white; N is taken from the length and must
// be a valid size) with the given side to move. Errors wrap ErrSize or ErrSyntax.
func ParseBoard(text string, side Color) (Position, error) {
	if side != Black && side != White {
		return Position{}, fmt.Errorf("%w: side %d", ErrSyntax, side)
	}
	n := 0
	for n*n < len(text) {
		n++
	}
	if n*n != len(text) || !ValidSize(n) {
		return Position{}, fmt.Errorf("%w: board text of %d characters, want the square of an even size 4 to 16", ErrSize, len(text))
	}
	var black, white Set
	for i := 0; i < len(text); i++ {
		sq := SquareAt(i%n, i/n)
		switch text[i] {
		case 'X', 'x', '*':
			black = black.Add(sq)
		case 'O', 'o', '0':
			white = white.Add(sq)
		case '-', '.':
		default:
			return Position{}, fmt.Errorf("%w: %q at %v is not one of X O * - .: use X for black, O for white, - for empty", ErrSyntax, text[i], sq)
		}
	}
	return fromSets(n, black, white, side), nil
}

// ParseSide reads a side to move: "X", "*", "B" or "black" for black, "O", "W" or "white" for white
// (any case).
func ParseSide(text string) (Color, error) {
	switch strings.ToLower(strings.TrimSpace(text)) {
	case "x", "*", "b", "black":
		return Black, nil
	case "o", "0", "w", "white":
		return White, nil
	}
	return 0, fmt.Errorf("%w: side %q (want X or O)", ErrSyntax, text)
}

// ParsePosition reads "BOARD SIDE" as written by Position.String; anything after the side is
// ignored, as is surrounding white space. A board given without a side has black to move.
func ParsePosition(text string) (Position, error) {
	fields := strings.Fields(text)
	if len(fields) == 0 {
		return Position{}, fmt.Errorf("%w: empty position", ErrSyntax)
	}
	side := Black
	if len(fields) > 1 {
		var err error
		if side, err = ParseSide(fields[1]); err != nil {
			return Position{}, err
		}
	}
	return ParseBoard(fields[0], side)
}

// ParseRecord reads a game record: square names one after another ("f5d6c3d3"), in any case,
// optionally separated by spaces, commas, dashes, dots or semicolons; "pass" (or "pa") may stand
// for a pass. It checks syntax only: Replay checks the moves.
func ParseRecord(text string) ([]Square, error) {
	var moves []Square
	s := text
	for i := 0; i < len(s); {
		switch s[i] {
		case ' ', '\t', '\n', '\r', ',', '-', '.', ';':
			i++
			continue
		}
		rest := s[i:]
		if len(rest) >= 4 && strings.EqualFold(rest[:4], "pass") {
			moves = append(moves, Pass)
			i += 4
			continue
		}
		if len(rest) >= 2 && strings.EqualFold(rest[:2], "pa") {
			moves = append(moves, Pass)
			i += 2
			continue
		}
		sq, n := scanSquare(rest)
		if n == 0 {
			return nil, fmt.Errorf("%w: record has %q at byte %d where a square (like d3) should be", ErrSyntax, firstRune(rest), i)
		}
		moves = append(moves, sq)
		i += n
	}
	return moves, nil
}

func firstRune(s string) string {
	for _, r := range s {
		return string(r)
	}
	return ""
}

// FormatRecord writes moves as a game record ("f5d6c3d3"), leaving out passes.
func FormatRecord(moves []Square) string {
	var b strings.Builder
	for _, m := range moves {
		if m != Pass {
			b.WriteString(m.String())
		}
	}
	return b.String()
}
