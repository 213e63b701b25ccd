package ai

import (
	"bytes"
	"compress/flate"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"math/rand/v2"
	"sort"
	"sync"

	"github.com/reversibot/reversi/engine"
)

// The 8×8 opening book (see BOOK.md): positions of the first plies from the start, each stored
// once under the 8 symmetries of the square (in its canonical form, the smallest of its eight
// images), with the moves that the project's own search found within a small margin of the
// best and their values. Level 6 plays from it for as long as the game stays in it, level 5 for
// its first plies only (bookPlies), and levels 1–4 never.

// BookMove is a move of the book with its value.
type BookMove struct {
	// Move is the move in the position asked about.
	Move engine.Square
	// Value is the move's value for the side to move in hundredths of a disc: the search's
	// score, or, when the book holds the position after the move, minus that position's best
	// value (negamax over the book's tree).
	Value int
}

// bookMove is a stored move: the square (bit index, row*8+col) in the canonical position.
type bookMove struct {
	sq    uint8
	value int16
}

// bookKey is a canonical position: the side to move's discs, then the opponent's.
type bookKey [2]uint64

// Book is an 8×8 opening book. A Book is read-only once built or loaded and safe for
// concurrent use.
type Book struct {
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

// canonical8 returns the canonical form of (p, o) and the set (a bit per symmetry) of the
// symmetries that map (p, o) onto it.
func canonical8(p, o uint64) (bookKey, uint8) {
	best := bookKey{p, o}
	set := uint8(1)
	for s := 1; s < 8; s++ {
		k := bookKey{sym8(p, s), sym8(o, s)}
		switch {
		case k[0] < best[0] || k[0] == best[0] && k[1] < best[1]:
			best, set = k, 1<<uint(s)
		case k == best:
			set |= 1 << uint(s)
		}
	}
	return best, set
}

// lookup returns the moves of the book for (p, o) in its own frame, distinct, best first; nil
// when the position is not in the book. A move that several symmetries of a symmetric
// position map to different squares appears once per square, so a choice among them varies
// over every equivalent move.
func (b *Book) lookup(p, o uint64) []bookMove {
	if b == nil {
		return nil
	}
	k, set := canonical8(p, o)
	stored, ok := b.entries[k]
	if !ok {
		return nil
	}
	var out []bookMove
	var seen uint64
	for _, m := range stored {
		for s := 0; s < 8; s++ {
			if set&(1<<uint(s)) == 0 {
				continue
			}
			sq := symSquare8(int(m.sq), symInverse8[s])
			if seen&(1<<uint(sq)) != 0 {
				continue
			}
			seen |= 1 << uint(sq)
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

// Moves returns the book's moves for the side to move of p, best first (equal values in
// square order); nil when p is not an 8×8 position of the book.
func (b *Book) Moves(p engine.Position) []BookMove {
	pl, op, ok := p.Bitboards8()
	if !ok {
		return nil
	}
	var out []BookMove
	for _, m := range b.lookup(pl, op) {
		out = append(out, BookMove{Move: toSquare8(int(m.sq)), Value: int(m.value)})
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

// bookChoice returns the book's move for (p, o) at level l, chosen by rng among the moves
// within the level's margin of the best (the best when rng is nil), and whether there is one.
func (b *Book) bookChoice(p, o uint64, l Level, rng *rand.Rand) (Result, bool) {
	ply := popcnt(p|o) - 4
	margin := 0
	switch {
	case l == LevelMaster:
		margin = bookMarginMaster
	case l == LevelExpert && ply < bookPliesExpert:
		margin = bookMarginExpert
	default:
		return Result{}, false
	}
	moves := b.lookup(p, o)
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
	if moves8(p, o)&(1<<pick.sq) == 0 {
		return Result{}, false // cannot happen with a valid book; fall back to the search
	}
	mv := toSquare8(int(pick.sq))
	return Result{Move: mv, Score: int(pick.value), PV: []engine.Square{mv}, Book: true}, true
}

// ErrBookFile is returned for a book file that is not one this version reads.
var ErrBookFile = errors.New("ai: bad opening book file")

// bookMagic starts a book file.
const bookMagic = "RVB8\x01"

// MarshalBinary encodes the book: bookMagic, then DEFLATE-compressed: Plies, Depth, Margin,
// Full (uint16 each), the number of positions (uint32), and per position in ascending order of
// (P, O) the canonical bitboards P, O (uint64), the number of moves (uint8) and per move its
// square (uint8, row*8+col in the canonical position) and value (int16), all little-endian.
func (b *Book) MarshalBinary() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString(bookMagic)
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
		rec := le.AppendUint64(nil, k[0])
		rec = le.AppendUint64(rec, k[1])
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
	sort.Slice(keys, func(i, j int) bool {
		return keys[i][0] < keys[j][0] || keys[i][0] == keys[j][0] && keys[i][1] < keys[j][1]
	})
	return keys
}

// UnmarshalBinary decodes a book written by MarshalBinary; it fails with ErrBookFile for
// data of another format or a position that is not canonical, has no legal moves or stores an
// illegal move.
func (b *Book) UnmarshalBinary(data []byte) error {
	if !bytes.HasPrefix(data, []byte(bookMagic)) {
		return ErrBookFile
	}
	raw, err := io.ReadAll(flate.NewReader(bytes.NewReader(data[len(bookMagic):])))
	if err != nil {
		return fmt.Errorf("%w: %v", ErrBookFile, err)
	}
	le := binary.LittleEndian
	if len(raw) < 12 {
		return fmt.Errorf("%w: short header", ErrBookFile)
	}
	out := Book{Plies: int(le.Uint16(raw)), Depth: int(le.Uint16(raw[2:])), Margin: int(le.Uint16(raw[4:])),
		Full: int(le.Uint16(raw[6:]))}
	n := int(le.Uint32(raw[8:]))
	raw = raw[12:]
	out.entries = make(map[bookKey][]bookMove, n)
	for i := 0; i < n; i++ {
		if len(raw) < 17 {
			return fmt.Errorf("%w: truncated at position %d", ErrBookFile, i)
		}
		k := bookKey{le.Uint64(raw), le.Uint64(raw[8:])}
		c := int(raw[16])
		raw = raw[17:]
		if len(raw) < 3*c {
			return fmt.Errorf("%w: truncated at position %d", ErrBookFile, i)
		}
		if ck, _ := canonical8(k[0], k[1]); ck != k || k[0]&k[1] != 0 {
			return fmt.Errorf("%w: position %d is not canonical", ErrBookFile, i)
		}
		legal := moves8(k[0], k[1])
		ms := make([]bookMove, c)
		for j := range ms {
			ms[j] = bookMove{sq: raw[3*j], value: int16(le.Uint16(raw[3*j+1:]))}
			if ms[j].sq >= 64 || legal&(1<<ms[j].sq) == 0 {
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

//go:embed book8.bin
var bookFile []byte

// DefaultBook returns the embedded 8×8 opening book, loaded once; callers must not modify it.
func DefaultBook() (*Book, error) { return defaultBook() }

var defaultBook = sync.OnceValues(func() (*Book, error) {
	return loadEmbedded[Book](bookFile, "opening book")
})
