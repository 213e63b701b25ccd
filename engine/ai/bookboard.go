package ai

import (
	"context"
	"errors"
	"math/bits"

	"github.com/reversibot/reversi/engine"
)

// A book position is a bookKey: on 8×8 the side to move's bitboard and the opponent's in
// words 0 and 1 (bit row*8+col), on the large boards the two sets of four words laid out
// like engine.Set (bit row<<4|col) in words 0–3 and 4–7. A bookBoard holds what the book
// needs of one board size: symmetries, moves and the search that values a position.
type bookKey [8]uint64

type bookBoard interface {
	// size is the board's side.
	size() int
	// start is the starting position.
	start() bookKey
	// canonical returns the canonical form of k (the smallest of its 8 images) and the set (a
	// bit per symmetry) of the symmetries that map k onto it.
	canonical(k bookKey) (bookKey, uint8)
	// symSquare applies symmetry s to a square index, symInverse undoes s.
	symSquare(sq, s int) int
	symInverse(s int) int
	// moves returns the legal moves of k's side to move as square indexes, ascending.
	moves(k bookKey) []int
	// play returns the position after the side to move plays sq, seen from the opponent.
	play(k bookKey, sq int) bookKey
	// square converts a square index into an engine square.
	square(sq int) engine.Square
	// search searches k to cfg.Depth with the root margin cfg.Margin and returns the moves
	// within the margin of the best with their exact search values, best first.
	search(ctx context.Context, cfg BookGenConfig, k bookKey) ([]bookMove, error)
}

// bookBoardFor returns the book board of an n×n board, nil for a size with no book.
func bookBoardFor(n int) bookBoard {
	switch {
	case n == 8:
		return board8Book{}
	case engine.ValidSize(n) && n > 8:
		return boardNBook{geoms[n]}
	}
	return nil
}

// board8Book is the 8×8 board of the book, on bitboards.
type board8Book struct{}

func (board8Book) size() int { return 8 }

func (board8Book) start() bookKey {
	p, o, _ := engine.MustStart(8).Bitboards8()
	return bookKey{p, o}
}

func (board8Book) canonical(k bookKey) (bookKey, uint8) {
	return smallestImage(bookKey{k[0], k[1]}, func(s int) bookKey { return bookKey{sym8(k[0], s), sym8(k[1], s)} })
}

// smallestImage returns the smallest of k and its images image(1)…image(7) under the other
// symmetries, and the set (a bit per symmetry) of the symmetries that give it.
func smallestImage(k bookKey, image func(s int) bookKey) (bookKey, uint8) {
	best, set := k, uint8(1)
	for s := 1; s < 8; s++ {
		c := image(s)
		switch {
		case c.less(best):
			best, set = c, 1<<uint(s)
		case c == best:
			set |= 1 << uint(s)
		}
	}
	return best, set
}

func (board8Book) symSquare(sq, s int) int { return symSquare8(sq, s) }
func (board8Book) symInverse(s int) int    { return symInverse8[s] }

func (board8Book) moves(k bookKey) []int {
	var out []int
	for m := moves8(k[0], k[1]); m != 0; m &= m - 1 {
		out = append(out, bits.TrailingZeros64(m))
	}
	return out
}

func (board8Book) play(k bookKey, sq int) bookKey {
	f := flips8(k[0], k[1], sq)
	return bookKey{k[1] &^ f, k[0] | f | 1<<uint(sq)}
}

func (board8Book) square(sq int) engine.Square { return toSquare8(sq) }

func (board8Book) search(ctx context.Context, cfg BookGenConfig, k bookKey) ([]bookMove, error) {
	tables, err := tablesForEval(EvalDefault)
	if err != nil {
		return nil, err
	}
	c := &config{ctx: ctx, depth: cfg.Depth, jump: defaultJump(8), margin: max(cfg.Margin, 1), tableBits: 18, mustScore: true}
	c.start = c.now(0)
	s := newSearcher8(c, tables[8])
	s.run(k[0], k[1])
	root := make([]rootScore, len(s.lastRoot))
	for i, m := range s.lastRoot {
		root[i] = rootScore{sq: m.sq, score: m.score, exact: m.exact}
	}
	return bookMoves(ctx, cfg, root)
}

// boardNBook is a large board of the book, on four-word sets.
type boardNBook struct{ g *geomN }

func (b boardNBook) size() int { return b.g.n }

func (b boardNBook) start() bookKey {
	p := engine.MustStart(b.g.n)
	return keyN(toSetN(p.Discs(p.Side())), toSetN(p.Discs(p.Side().Opponent())))
}

// keyN is the book key of the sets p (side to move) and o.
func keyN(p, o setN) bookKey { return bookKey{p.w0, p.w1, p.w2, p.w3, o.w0, o.w1, o.w2, o.w3} }

// sets returns the two sets of a large-board key.
func (k bookKey) sets() (p, o setN) {
	return setN{k[0], k[1], k[2], k[3]}, setN{k[4], k[5], k[6], k[7]}
}

func (b boardNBook) canonical(k bookKey) (bookKey, uint8) {
	p, o := k.sets()
	return smallestImage(k, func(s int) bookKey { return keyN(b.symSet(p, s), b.symSet(o, s)) })
}

// symSet applies symmetry s to every square of x.
func (b boardNBook) symSet(x setN, s int) setN {
	var out setN
	for w := 0; w < 4; w++ {
		for m := x.word(w); m != 0; m &= m - 1 {
			out = out.with(b.symSquare(w*64+bits.TrailingZeros64(m), s))
		}
	}
	return out
}

// symSquare applies symmetry s as sym8 does: bit 2 mirrors the square in the a1 diagonal
// first, bit 0 then mirrors the columns, bit 1 the rows.
func (b boardNBook) symSquare(sq, s int) int {
	r, c, l := sq>>4, sq&15, b.g.n-1
	if s&4 != 0 {
		r, c = c, r
	}
	if s&1 != 0 {
		c = l - c
	}
	if s&2 != 0 {
		r = l - r
	}
	return r<<4 | c
}

// symInverse: every symmetry without the diagonal mirror is its own inverse; with it, the
// column and row mirrors swap places when undone.
func (boardNBook) symInverse(s int) int {
	if s&4 == 0 || s&3 == 0 || s&3 == 3 {
		return s
	}
	return s ^ 3
}

func (b boardNBook) moves(k bookKey) []int {
	p, o := k.sets()
	m := b.g.moves(p, o)
	var out []int
	for w := 0; w < 4; w++ {
		for x := m.word(w); x != 0; x &= x - 1 {
			out = append(out, w*64+bits.TrailingZeros64(x))
		}
	}
	return out
}

func (b boardNBook) play(k bookKey, sq int) bookKey {
	p, o := k.sets()
	f := b.g.flips(p, o, sq)
	return keyN(o.andNot(f), p.or(f).with(sq))
}

func (boardNBook) square(sq int) engine.Square { return engine.Square(sq) }

func (b boardNBook) search(ctx context.Context, cfg BookGenConfig, k bookKey) ([]bookMove, error) {
	n := b.g.n
	tables, err := tablesForEval(levelEval(EvalDefault, LevelMaster, n))
	if err != nil {
		return nil, err
	}
	c := &config{ctx: ctx, depth: cfg.Depth, jump: defaultJump(n), margin: max(cfg.Margin, 1), tableBits: 18, mustScore: true}
	c.start = c.now(0)
	s := newSearcherN(c, b.g, tables[n])
	p, o := k.sets()
	s.run(p, o)
	root := make([]rootScore, len(s.lastRoot))
	for i, m := range s.lastRoot {
		root[i] = rootScore{sq: m.m.sq, score: m.score, exact: m.exact}
	}
	return bookMoves(ctx, cfg, root)
}

// less orders keys word by word.
func (k bookKey) less(c bookKey) bool {
	for i := range k {
		if k[i] != c[i] {
			return k[i] < c[i]
		}
	}
	return false
}

// rootScore is a root move of a finished iteration with its score and whether the score is
// exact (not only a bound).
type rootScore struct {
	sq, score int
	exact     bool
}

// bookMoves returns the root moves within cfg.Margin of the best exact one, best first.
func bookMoves(ctx context.Context, cfg BookGenConfig, root []rootScore) ([]bookMove, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(root) == 0 {
		return nil, errors.New("ai: book search found no move")
	}
	best := -infScore
	for _, m := range root {
		if m.exact {
			best = max(best, m.score)
		}
	}
	var ms []bookMove
	for _, m := range root {
		if m.exact && m.score >= best-cfg.Margin {
			ms = append(ms, bookMove{sq: uint8(m.sq), value: int16(m.score)})
		}
	}
	sortBookMoves(ms)
	return ms, nil
}
