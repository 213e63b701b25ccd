package ai

import (
	"bytes"
	"compress/flate"
	"context"
	"io"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/reversibot/reversi/engine"
)

func TestSymmetries8(t *testing.T) {
	const asym = 1<<1 | 1<<2 | 1<<8
	seen := map[uint64]bool{}
	for s := 0; s < 8; s++ {
		seen[sym8(asym, s)] = true
		for sq := 0; sq < 64; sq++ {
			if got := symSquare8(symSquare8(sq, s), symInverse8[s]); got != sq {
				t.Fatalf("symmetry %d then its inverse %d maps %d to %d", s, symInverse8[s], sq, got)
			}
		}
	}
	if len(seen) != 8 {
		t.Fatalf("the 8 symmetries give %d distinct images", len(seen))
	}
	// Moves commute with the symmetries.
	g := randomGame8(t, 12, 3)
	p, o, _ := g.Bitboards8()
	for s := 0; s < 8; s++ {
		if sym8(moves8(p, o), s) != moves8(sym8(p, s), sym8(o, s)) {
			t.Fatalf("symmetry %d does not commute with the move generator", s)
		}
	}
}

// randomGame8 plays plies random moves from the start of 8×8.
func randomGame8(t *testing.T, plies int, seed uint64) engine.Position {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	g := engine.NewGameFrom(engine.MustStart(8))
	for i := 0; i < plies && !g.Over(); i++ {
		ms := g.Position().LegalMoves()
		if len(ms) == 0 {
			g.Play(engine.Pass)
			continue
		}
		g.Play(ms[rng.IntN(len(ms))])
	}
	return g.Position()
}

func TestEmbeddedBookLoads(t *testing.T) {
	b, err := DefaultBook()
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultBookGenConfig
	if b.Len() < 100 || b.Plies != cfg.Plies || b.Depth != cfg.Depth || b.Margin != cfg.Margin || b.Full != cfg.Full {
		t.Fatalf("embedded book: %d positions, plies %d depth %d margin %d full %d; want the generator's defaults %+v",
			b.Len(), b.Plies, b.Depth, b.Margin, b.Full, cfg)
	}
	if ms := b.Moves(engine.MustStart(8)); len(ms) != 4 {
		t.Fatalf("the start position has %d book moves, want the 4 symmetric ones: %v", len(ms), ms)
	}
}

func TestBookMovesLegal(t *testing.T) {
	b, err := DefaultBook()
	if err != nil {
		t.Fatal(err)
	}
	for k, ms := range b.entries {
		if ck, _ := canonical8(k[0], k[1]); ck != k {
			t.Fatalf("position %x/%x is not canonical", k[0], k[1])
		}
		if len(ms) == 0 {
			t.Fatalf("position %x/%x has no moves", k[0], k[1])
		}
		legal := moves8(k[0], k[1])
		for i, m := range ms {
			if legal&(1<<m.sq) == 0 {
				t.Fatalf("position %x/%x: move %v is illegal", k[0], k[1], toSquare8(int(m.sq)))
			}
			if i > 0 && m.value > ms[i-1].value {
				t.Fatalf("position %x/%x: moves not best first", k[0], k[1])
			}
		}
	}
}

func TestBookSymmetricAnswers(t *testing.T) {
	b, err := DefaultBook()
	if err != nil {
		t.Fatal(err)
	}
	for k := range b.entries {
		base := b.lookup(k[0], k[1])
		for s := 0; s < 8; s++ {
			want := map[bookMove]bool{}
			for _, m := range base {
				want[bookMove{sq: uint8(symSquare8(int(m.sq), s)), value: m.value}] = true
			}
			got := b.lookup(sym8(k[0], s), sym8(k[1], s))
			if len(got) != len(want) {
				t.Fatalf("symmetry %d of %x/%x: %d moves, want %d", s, k[0], k[1], len(got), len(want))
			}
			for _, m := range got {
				if !want[m] {
					t.Fatalf("symmetry %d of %x/%x answers %v (%d), not the image of a move of the position",
						s, k[0], k[1], toSquare8(int(m.sq)), m.value)
				}
			}
		}
	}
}

// TestGenerateBookReproduces builds a tiny book and checks it against what the generator
// computes position by position: the raw search of every position, backed up by negamax; that
// it survives encoding; that a second run, and a run resumed from a partial cache, give the
// same bytes.
func TestGenerateBookReproduces(t *testing.T) {
	cfg := BookGenConfig{Plies: 4, Depth: 3, Margin: 150, Full: 2}
	ctx := context.Background()
	b, err := GenerateBook(ctx, cfg, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if b.Len() < 10 {
		t.Fatalf("tiny book has only %d positions", b.Len())
	}
	for k, ms := range b.entries {
		raw, err := board8Book{}.search(ctx, cfg, k)
		if err != nil {
			t.Fatal(err)
		}
		want := make([]bookMove, len(raw))
		for i, m := range raw {
			want[i] = m
			f := flips8(k[0], k[1], int(m.sq))
			ck, _ := canonical8(k[1]&^f, k[0]|f|1<<m.sq)
			if child, ok := b.entries[ck]; ok {
				want[i].value = -child[0].value
			}
		}
		sortBookMoves(want)
		if !reflect.DeepEqual(ms, want) {
			t.Fatalf("position %x/%x: book %v, generator %v", k[0], k[1], ms, want)
		}
	}
	data, err := b.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var back Book
	if err := back.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.entries, b.entries) || back.Plies != b.Plies || back.Depth != b.Depth || back.Margin != b.Margin || back.Full != b.Full {
		t.Fatal("the book changed through MarshalBinary and UnmarshalBinary")
	}
	// Resume: a cache holding part of the searches, and a run stopped early, give the same book.
	cache := &Book{}
	cctx, cancel := context.WithCancel(ctx)
	_, err = GenerateBook(cctx, cfg, cache, func(searched, ply, left int) {
		if searched == 5 {
			cancel()
		}
	})
	if err == nil {
		t.Fatal("a cancelled generation returned no error")
	}
	if cache.Len() < 4 || cache.Len() >= b.Len() {
		t.Fatalf("the stopped run left %d positions in the cache", cache.Len())
	}
	again, err := GenerateBook(ctx, cfg, cache, nil)
	if err != nil {
		t.Fatal(err)
	}
	data2, err := again.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, data2) {
		t.Fatal("a resumed generation gave another book")
	}
	if _, err := GenerateBook(ctx, BookGenConfig{Plies: 4, Depth: 4, Margin: 150}, cache, nil); err == nil {
		t.Fatal("a cache of another depth was accepted")
	}
}

// TestEmbeddedBookRoundTrip checks that encoding the embedded 8×8 book gives its file back —
// the same header and, once inflated, the same records — so the format is stable across
// changes to the code around it. The compressed bytes themselves are not compared: they
// belong to the Go release's compress/flate, which may change them.
func TestEmbeddedBookRoundTrip(t *testing.T) {
	b, err := DefaultBook()
	if err != nil {
		t.Fatal(err)
	}
	data, err := b.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	file, err := bookFiles.ReadFile("book8.bin")
	if err != nil {
		t.Fatal(err)
	}
	n := len(bookMagic)
	if !bytes.Equal(data[:n], file[:n]) {
		t.Fatalf("the embedded book encodes with header %q, book8.bin has %q", data[:n], file[:n])
	}
	got, want := inflate(t, data[n:]), inflate(t, file[n:])
	if !bytes.Equal(got, want) {
		t.Fatalf("the embedded book encodes to %d bytes of records that differ from book8.bin's %d", len(got), len(want))
	}
}

func inflate(t *testing.T, data []byte) []byte {
	t.Helper()
	out, err := io.ReadAll(flate.NewReader(bytes.NewReader(data)))
	if err != nil {
		t.Fatal(err)
	}
	return out
}
