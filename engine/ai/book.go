package ai

import (
	"bytes"
	"compress/flate"
	"embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sort"
	"sync"

	"github.com/reversibot/reversi/engine"
)

// The opening books (see BOOK.md): one per board size that has one (8×8, and the first plies
// of the large boards), each holding positions of the first plies from the start, stored once
// under the 8 symmetries of the square (in its canonical form, the smallest of its eight
// images), with the moves that the project's own search found within a small margin of the
// best and their values. Level 6 plays from it for as long as the game stays in it, level 5 for
// its first plies only (bookPliesExpert), and levels 1–4 never.

// BookMove is a move of the book with its value.
type BookMove struct {
	// Move is the move in the position asked about.
	Move engine.Square
	// Value is the move's value for the side to move in hundredths of a disc: the search's
	// score, or, when the book holds the position after the move, minus that position's best
	// value (negamax over the book's tree).
	Value int
}

// bookMove is a stored move: the square (its bookBoard's index: row*8+col on 8×8,
// row<<4|col on the large boards) in the canonical position.
type bookMove struct {
	sq    uint8
	value int16
}

// Book is an opening book of one board size. A Book is read-only once built or loaded and
// safe for concurrent use.
type Book struct {
	// Size is the side of the book's board; 0 stands for 8.
	Size int
	// Plies is the depth of the book's tree: it holds positions up to this many plies from the
	// start.
	Plies int
	// Depth is the depth (plies) of the search that valued each position's moves.
	Depth int
	// Margin (hundredths of a disc) bounds the stored moves: those the search found within
	// Margin of the best.
	Margin int
	// Full is the number of first plies at which the tree expanded every legal move.
	Full int

	entries map[bookKey][]bookMove
}

// Len returns the number of positions in the book.
func (b *Book) Len() int { return len(b.entries) }

// board returns the book's board.
func (b *Book) board() bookBoard { return bookBoardFor(max(b.Size, 8)) }

// sym8 applies symmetry s (0…7) of the square to a bitboard: bit 2 mirrors it in the a1–h8
// diagonal first, bit 0 then mirrors the columns, bit 1 the rows.
func sym8(x uint64, s int) uint64 {
	if s&4 != 0 {
		x = flipDiag8(x)
	}
	if s&1 != 0 {
		x = flipCols8(x)
	}
	if s&2 != 0 {
		x = flipRows8(x)
	}
	return x
}

// symSquare8 applies symmetry s to a square's bit index.
func symSquare8(sq, s int) int { return bits.TrailingZeros64(sym8(1<<uint(sq), s)) }

// symInverse8[s] is the symmetry that undoes s.
var symInverse8 [8]int

func init() {
	const asym = 1<<1 | 1<<2 | 1<<8 // b1, c1, a2: no symmetry but the identity keeps them
	for s := 0; s < 8; s++ {
		for t := 0; t < 8; t++ {
			if sym8(sym8(asym, s), t) == asym {
				symInverse8[s] = t
			}
		}
	}
}

// canonical8 returns the canonical form of the 8×8 position (p, o) and the set (a bit per
// symmetry) of the symmetries that map it onto it.
func canonical8(p, o uint64) (bookKey, uint8) { return board8Book{}.canonical(bookKey{p, o}) }

// lookup is lookupKey for an 8×8 position.
func (b *Book) lookup(p, o uint64) []bookMove { return b.lookupKey(bookKey{p, o}) }

// lookupKey returns the moves of the book for the position k in its own frame, distinct, best
// first; nil when the position is not in the book. A move that several symmetries of a
// symmetric position map to different squares appears once per square, so a choice among
// them varies over every equivalent move.
func (b *Book) lookupKey(k bookKey) []bookMove {
	if b == nil {
		return nil
	}
	bd := b.board()
	ck, set := bd.canonical(k)
	stored, ok := b.entries[ck]
	if !ok {
		return nil
	}
	var out []bookMove
	var seen setN
	for _, m := range stored {
		for s := 0; s < 8; s++ {
			if set&(1<<uint(s)) == 0 {
				continue
			}
			sq := bd.symSquare(int(m.sq), bd.symInverse(s))
			if seen.has(sq) {
				continue
			}
			seen = seen.with(sq)
			out = append(out, bookMove{sq: uint8(sq), value: m.value})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].value != out[j].value {
			return out[i].value > out[j].value
		}
		return out[i].sq < out[j].sq
	})
	return out
}

// keyOf returns the book key of p and whether p is a position of the book's size.
func (b *Book) keyOf(p engine.Position) (bookKey, bool) {
	if p.Size() != max(b.Size, 8) {
		return bookKey{}, false
	}
	if pl, op, ok := p.Bitboards8(); ok {
		return bookKey{pl, op}, true
	}
	return keyN(toSetN(p.Discs(p.Side())), toSetN(p.Discs(p.Side().Opponent()))), true
}

// Moves returns the book's moves for the side to move of p, best first (equal values in
// square order); nil when p is not a position of the book (or not of its size).
func (b *Book) Moves(p engine.Position) []BookMove {
	k, ok := b.keyOf(p)
	if !ok {
		return nil
	}
	bd := b.board()
	var out []BookMove
	for _, m := range b.lookupKey(k) {
		out = append(out, BookMove{Move: bd.square(int(m.sq)), Value: int(m.value)})
	}
	return out
}

// How the levels use the book: level 6 up to the book's last ply, choosing among the moves
// within bookMarginMaster of the best; level 5 for its first bookPliesExpert plies (its first
// three moves as either colour) among the moves within bookMarginExpert, so it opens soundly
// but varies more and leaves the book sooner; levels 1–4 never use it (their own randomness
// already varies their games, and a book would lift their openings above their level).
const (
	bookMarginMaster = 60
	bookMarginExpert = 150
	bookPliesExpert  = 6
	// bookMaxPlies bounds the plies of any book this package embeds, so that a position past
	// it is never looked up.
	bookMaxPlies = 20
)

// bookChoice is bookChoiceKey for an 8×8 position.
func (b *Book) bookChoice(p, o uint64, l Level, rng *rand.Rand) (Result, bool) {
	return b.bookChoiceKey(bookKey{p, o}, popcnt(p|o)-4, l, rng)
}

// bookChoiceKey returns the book's move for the position k, ply plies from the start, at
// level l, chosen by rng among the moves within the level's margin of the best (the best when
// rng is nil), and whether there is one.
func (b *Book) bookChoiceKey(k bookKey, ply int, l Level, rng *rand.Rand) (Result, bool) {
	margin := 0
	switch {
	case l == LevelMaster:
		margin = bookMarginMaster
	case l == LevelExpert && ply < bookPliesExpert:
		margin = bookMarginExpert
	default:
		return Result{}, false
	}
	moves := b.lookupKey(k)
	if len(moves) == 0 {
		return Result{}, false
	}
	n := 1
	for n < len(moves) && int(moves[n].value) >= int(moves[0].value)-margin {
		n++
	}
	pick := moves[0]
	if rng != nil && n > 1 {
		pick = moves[rng.IntN(n)]
	}
	bd := b.board()
	if !slices.Contains(bd.moves(k), int(pick.sq)) {
		return Result{}, false // cannot happen with a valid book; fall back to the search
	}
	mv := bd.square(int(pick.sq))
	return Result{Move: mv, Score: int(pick.value), PV: []engine.Square{mv}, Book: true}, true
}

// ErrBookFile is returned for a book file that is not one this version reads.
var ErrBookFile = errors.New("ai: bad opening book file")

// bookMagic starts an 8×8 book file, bookMagicN a large board's (followed by the size byte).
const (
	bookMagic  = "RVB8\x01"
	bookMagicN = "RVBN\x01"
)

// MarshalBinary encodes the book: bookMagic (8×8) or bookMagicN and the board's size (one
// byte), then DEFLATE-compressed: Plies, Depth, Margin, Full (uint16 each), the number of
// positions (uint32), and per position in ascending order the canonical position (8×8: the
// bitboards P, O as uint64; large boards: P then O as four uint64 each, laid out like
// engine.Set), the number of moves (uint8) and per move its square (uint8, the board's index
// in the canonical position) and value (int16), all little-endian.
func (b *Book) MarshalBinary() ([]byte, error) {
	var buf bytes.Buffer
	n := max(b.Size, 8)
	words := 2
	if n == 8 {
		buf.WriteString(bookMagic)
	} else {
		buf.WriteString(bookMagicN)
		buf.WriteByte(byte(n))
		words = 8
	}
	zw, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		return nil, err
	}
	keys := b.keys()
	le := binary.LittleEndian
	var hdr []byte
	hdr = le.AppendUint16(hdr, uint16(b.Plies))
	hdr = le.AppendUint16(hdr, uint16(b.Depth))
	hdr = le.AppendUint16(hdr, uint16(b.Margin))
	hdr = le.AppendUint16(hdr, uint16(b.Full))
	hdr = le.AppendUint32(hdr, uint32(len(keys)))
	zw.Write(hdr)
	for _, k := range keys {
		ms := b.entries[k]
		var rec []byte
		for _, w := range k[:words] {
			rec = le.AppendUint64(rec, w)
		}
		rec = append(rec, uint8(len(ms)))
		for _, m := range ms {
			rec = append(rec, m.sq)
			rec = le.AppendUint16(rec, uint16(m.value))
		}
		if _, err := zw.Write(rec); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// keys returns the book's positions in ascending order.
func (b *Book) keys() []bookKey {
	keys := make([]bookKey, 0, len(b.entries))
	for k := range b.entries {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].less(keys[j]) })
	return keys
}

// UnmarshalBinary decodes a book written by MarshalBinary; it fails with ErrBookFile for
// data of another format or a position that is not canonical, has no legal moves or stores an
// illegal move.
func (b *Book) UnmarshalBinary(data []byte) error {
	n, words := 8, 2
	switch {
	case bytes.HasPrefix(data, []byte(bookMagic)):
		data = data[len(bookMagic):]
	case bytes.HasPrefix(data, []byte(bookMagicN)) && len(data) > len(bookMagicN):
		n, words = int(data[len(bookMagicN)]), 8
		data = data[len(bookMagicN)+1:]
		if n <= 8 || bookBoardFor(n) == nil {
			return fmt.Errorf("%w: board size %d", ErrBookFile, n)
		}
	default:
		return ErrBookFile
	}
	bd := bookBoardFor(n)
	raw, err := io.ReadAll(flate.NewReader(bytes.NewReader(data)))
	if err != nil {
		return fmt.Errorf("%w: %v", ErrBookFile, err)
	}
	le := binary.LittleEndian
	if len(raw) < 12 {
		return fmt.Errorf("%w: short header", ErrBookFile)
	}
	out := Book{Size: n, Plies: int(le.Uint16(raw)), Depth: int(le.Uint16(raw[2:])), Margin: int(le.Uint16(raw[4:])),
		Full: int(le.Uint16(raw[6:]))}
	if n == 8 {
		out.Size = 0
	}
	count := int(le.Uint32(raw[8:]))
	raw = raw[12:]
	rec := 8*words + 1
	out.entries = make(map[bookKey][]bookMove, min(count, len(raw)/rec+1))
	var inside setN
	if n > 8 {
		inside = geoms[n].inside
	}
	for i := 0; i < count; i++ {
		if len(raw) < rec {
			return fmt.Errorf("%w: truncated at position %d", ErrBookFile, i)
		}
		var k bookKey
		for w := 0; w < words; w++ {
			k[w] = le.Uint64(raw[8*w:])
		}
		c := int(raw[rec-1])
		raw = raw[rec:]
		if len(raw) < 3*c {
			return fmt.Errorf("%w: truncated at position %d", ErrBookFile, i)
		}
		overlap := k[0]&k[1] != 0
		if n > 8 {
			p, o := k.sets()
			overlap = !p.and(o).empty() || !p.or(o).andNot(inside).empty()
		}
		if ck, _ := bd.canonical(k); ck != k || overlap {
			return fmt.Errorf("%w: position %d is not canonical", ErrBookFile, i)
		}
		legal := bd.moves(k)
		ms := make([]bookMove, c)
		for j := range ms {
			ms[j] = bookMove{sq: raw[3*j], value: int16(le.Uint16(raw[3*j+1:]))}
			if !slices.Contains(legal, int(ms[j].sq)) {
				return fmt.Errorf("%w: position %d stores an illegal move", ErrBookFile, i)
			}
		}
		raw = raw[3*c:]
		out.entries[k] = ms
	}
	if len(raw) != 0 {
		return fmt.Errorf("%w: trailing data", ErrBookFile)
	}
	*b = out
	return nil
}

//go:embed book*.bin
var bookFiles embed.FS

// DefaultBook returns the embedded 8×8 opening book, loaded once; callers must not modify it.
func DefaultBook() (*Book, error) { return DefaultBookFor(8) }

// DefaultBookFor returns the embedded opening book of an n×n board, loaded once, or nil
// without an error for a size that has none; callers must not modify it.
func DefaultBookFor(n int) (*Book, error) {
	if n < 0 || n >= len(defaultBooks) {
		return nil, nil
	}
	return defaultBooks[n]()
}

var defaultBooks = func() (out [17]func() (*Book, error)) {
	for n := range out {
		out[n] = sync.OnceValues(func() (*Book, error) {
			data, err := bookFiles.ReadFile(fmt.Sprintf("book%d.bin", n))
			if err != nil {
				return nil, nil // no book for this size
			}
			return loadEmbedded[Book](data, fmt.Sprintf("%d×%d opening book", n, n))
		})
	}
	return out
}()
