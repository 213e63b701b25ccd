package engine

// A deliberately plain second implementation of the rules: a board as an array of cells, moves
// found by walking from every empty square in every direction. It shares nothing with the
// bitboard code but the Square numbering, and the differential tests hold the engine to it.

const (
	refEmpty = iota
	refBlack
	refWhite
)

type refBoard struct {
	size  int
	cells [16][16]int // [row][col]
	turn  int         // refBlack or refWhite
}

func refStart(size int) refBoard {
	b := refBoard{size: size, turn: refBlack}
	h := size/2 - 1
	b.cells[h][h], b.cells[h+1][h+1] = refWhite, refWhite
	b.cells[h][h+1], b.cells[h+1][h] = refBlack, refBlack
	return b
}

func refOther(c int) int { return 3 - c }

// flips lists the squares that colour who flips by playing (col, row), in no particular order.
func (b *refBoard) flips(who, col, row int) []Square {
	if b.cells[row][col] != refEmpty {
		return nil
	}
	var out []Square
	for dr := -1; dr <= 1; dr++ {
		for dc := -1; dc <= 1; dc++ {
			if dr == 0 && dc == 0 {
				continue
			}
			var line []Square
			c, r := col+dc, row+dr
			for c >= 0 && c < b.size && r >= 0 && r < b.size && b.cells[r][c] == refOther(who) {
				line = append(line, SquareAt(c, r))
				c += dc
				r += dr
			}
			if len(line) > 0 && c >= 0 && c < b.size && r >= 0 && r < b.size && b.cells[r][c] == who {
				out = append(out, line...)
			}
		}
	}
	return out
}

// legal reports whether colour who may play (col, row): it is empty and closes a line.
func (b *refBoard) legal(who, col, row int) bool {
	if b.cells[row][col] != refEmpty {
		return false
	}
	for dr := -1; dr <= 1; dr++ {
		for dc := -1; dc <= 1; dc++ {
			if dr == 0 && dc == 0 {
				continue
			}
			n := 0
			c, r := col+dc, row+dr
			for c >= 0 && c < b.size && r >= 0 && r < b.size && b.cells[r][c] == refOther(who) {
				c, r, n = c+dc, r+dr, n+1
			}
			if n > 0 && c >= 0 && c < b.size && r >= 0 && r < b.size && b.cells[r][c] == who {
				return true
			}
		}
	}
	return false
}

// moves lists the legal moves of colour who, row by row from a1.
func (b *refBoard) moves(who int) []Square {
	var out []Square
	for r := 0; r < b.size; r++ {
		for c := 0; c < b.size; c++ {
			if b.legal(who, c, r) {
				out = append(out, SquareAt(c, r))
			}
		}
	}
	return out
}

func (b *refBoard) count(who int) int {
	n := 0
	for r := 0; r < b.size; r++ {
		for c := 0; c < b.size; c++ {
			if b.cells[r][c] == who {
				n++
			}
		}
	}
	return n
}

// play places a disc of the side to move on sq (which must be legal) and passes the turn.
func (b *refBoard) play(sq Square) {
	for _, f := range b.flips(b.turn, sq.Col(), sq.Row()) {
		b.cells[f.Row()][f.Col()] = b.turn
	}
	b.cells[sq.Row()][sq.Col()] = b.turn
	b.turn = refOther(b.turn)
}

// text is the board in position text, for messages and for building engine positions.
func (b *refBoard) text() string {
	out := make([]byte, 0, b.size*b.size)
	for r := 0; r < b.size; r++ {
		for c := 0; c < b.size; c++ {
			out = append(out, "-XO"[b.cells[r][c]])
		}
	}
	return string(out)
}

func (b *refBoard) side() Color {
	if b.turn == refWhite {
		return White
	}
	return Black
}

// refPerft is perft by the plain rules.
func refPerft(b refBoard, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	ms := b.moves(b.turn)
	if len(ms) == 0 {
		if len(b.moves(refOther(b.turn))) == 0 {
			return 1
		}
		b.turn = refOther(b.turn)
		return refPerft(b, depth-1)
	}
	var n uint64
	for _, m := range ms {
		c := b
		c.play(m)
		n += refPerft(c, depth-1)
	}
	return n
}
