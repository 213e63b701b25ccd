package ai

import (
	"bytes"
	"context"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/reversibot/reversi/engine"
)

// TestBookSymmetriesN checks the large boards' symmetries as TestSymmetries8 checks 8×8's:
// each has an inverse, the eight are distinct, they agree with sym8 on 8×8's squares' shape,
// and they commute with the move generator.
func TestBookSymmetriesN(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for _, n := range []int{10, 12, 16} {
		bd := bookBoardFor(n).(boardNBook)
		images := map[[3]int]bool{}
		for s := 0; s < 8; s++ {
			images[[3]int{bd.symSquare(1, s), bd.symSquare(2, s), bd.symSquare(16, s)}] = true
			for sq := 0; sq < 256; sq++ {
				if sq&15 >= n || sq>>4 >= n {
					continue
				}
				if got := bd.symSquare(bd.symSquare(sq, s), bd.symInverse(s)); got != sq {
					t.Fatalf("%d×%d: symmetry %d then its inverse maps %d to %d", n, n, s, sq, got)
				}
			}
		}
		if len(images) != 8 {
			t.Fatalf("%d×%d: the 8 symmetries give %d distinct images", n, n, len(images))
		}
		for i := 0; i < 20; i++ {
			p := midgame(t, rng, n, 4+rng.IntN(30))
			k := keyN(toSetN(p.Discs(p.Side())), toSetN(p.Discs(p.Side().Opponent())))
			pl, op := k.sets()
			for s := 0; s < 8; s++ {
				sp, so := bd.symSet(pl, s), bd.symSet(op, s)
				if bd.symSet(bd.g.moves(pl, op), s) != bd.g.moves(sp, so) {
					t.Fatalf("%d×%d: symmetry %d does not commute with the move generator", n, n, s)
				}
				if c1, _ := bd.canonical(k); c1 != func() bookKey { c, _ := bd.canonical(keyN(sp, so)); return c }() {
					t.Fatalf("%d×%d: symmetric positions have different canonical forms", n, n)
				}
			}
		}
	}
	// On 8×8 the generic symmetries are sym8's, square for square.
	bd := boardNBook{geoms[8]}
	for s := 0; s < 8; s++ {
		for sq := 0; sq < 64; sq++ {
			if got, want := bd.symSquare(sq/8<<4|sq%8, s), symSquare8(sq, s); got != want/8<<4|want%8 {
				t.Fatalf("symmetry %d of square %d: generic %d, sym8 %d", s, sq, got, want)
			}
		}
	}
}

// tinyBookN builds a small 10×10 book quickly.
func tinyBookN(t testing.TB) (*Book, BookGenConfig) {
	t.Helper()
	cfg := BookGenConfig{Plies: 3, Depth: 2, Margin: 150, Full: 1, Size: 10}
	b, err := GenerateBook(context.Background(), cfg, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return b, cfg
}

// TestGenerateBookN checks a tiny large-board book: its positions are canonical with legal
// moves best first, each one's values are its search's backed up by negamax, it answers the
// same moves under every symmetry, and it survives encoding; a second run gives the same bytes.
func TestGenerateBookN(t *testing.T) {
	b, cfg := tinyBookN(t)
	if b.Len() < 4 || b.Size != 10 {
		t.Fatalf("tiny 10×10 book: %d positions, size %d", b.Len(), b.Size)
	}
	bd := b.board()
	ctx := context.Background()
	for k, ms := range b.entries {
		if ck, _ := bd.canonical(k); ck != k {
			t.Fatalf("position %x is not canonical", k)
		}
		raw, err := bd.search(ctx, cfg, k)
		if err != nil {
			t.Fatal(err)
		}
		if want := backedUp(bd, b, k, raw); !reflect.DeepEqual(ms, want) {
			t.Fatalf("position %x: book %v, generator %v", k, ms, want)
		}
		base := b.lookupKey(k)
		p, o := k.sets()
		nb := bd.(boardNBook)
		for s := 0; s < 8; s++ {
			want := map[bookMove]bool{}
			for _, m := range base {
				want[bookMove{sq: uint8(nb.symSquare(int(m.sq), s)), value: m.value}] = true
			}
			got := b.lookupKey(keyN(nb.symSet(p, s), nb.symSet(o, s)))
			if len(got) != len(want) {
				t.Fatalf("symmetry %d: %d moves, want %d", s, len(got), len(want))
			}
			for _, m := range got {
				if !want[m] {
					t.Fatalf("symmetry %d answers %v, not the image of a move of the position", s, m)
				}
			}
		}
	}
	if ms := b.Moves(engine.MustStart(10)); len(ms) != 4 {
		t.Fatalf("the 10×10 start has %d book moves, want the 4 symmetric ones: %v", len(ms), ms)
	}
	if ms := b.Moves(engine.MustStart(8)); ms != nil {
		t.Fatalf("a 10×10 book answers an 8×8 position: %v", ms)
	}
	data, err := b.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var back Book
	if err := back.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.entries, b.entries) || back.Size != 10 || back.Plies != b.Plies || back.Depth != b.Depth {
		t.Fatal("the book changed through MarshalBinary and UnmarshalBinary")
	}
	again, _ := tinyBookN(t)
	if data2, _ := again.MarshalBinary(); !bytes.Equal(data, data2) {
		t.Fatal("a second generation gave another book")
	}
	if _, err := GenerateBook(ctx, BookGenConfig{Plies: 3, Depth: 2, Margin: 150, Size: 12}, b, nil); err == nil {
		t.Fatal("a cache of another size was accepted")
	}
}

// TestEmbeddedBooksN checks the embedded large-board books: each loads with its generator's
// defaults and answers the start with the 4 symmetric moves, which level 6 plays from it at
// once, varying over seeds, and level 4 does not.
func TestEmbeddedBooksN(t *testing.T) {
	ctx := context.Background()
	for _, n := range []int{10, 12, 16} {
		b, err := DefaultBookFor(n)
		if err != nil || b == nil {
			t.Fatalf("%d×%d: no embedded book (%v)", n, n, err)
		}
		cfg := DefaultBookGenConfigN(n)
		if b.Size != n || b.Plies != cfg.Plies || b.Depth != cfg.Depth || b.Margin != cfg.Margin || b.Full != cfg.Full || b.Len() < 5 {
			t.Fatalf("%d×%d book: size %d, %d positions, plies %d depth %d margin %d full %d; want %+v", n, n, b.Size, b.Len(), b.Plies, b.Depth, b.Margin, b.Full, cfg)
		}
		start := engine.MustStart(n)
		if ms := b.Moves(start); len(ms) != 4 {
			t.Fatalf("%d×%d: the start has %d book moves, want 4", n, n, len(ms))
		}
		first := map[engine.Square]bool{}
		for seed := uint64(0); seed < 24; seed++ {
			r, err := ChooseResult(ctx, start, LevelMaster, rand.New(rand.NewPCG(seed, 3)))
			if err != nil {
				t.Fatal(err)
			}
			if !r.Book || r.Nodes != 0 {
				t.Fatalf("%d×%d: level 6 searched the start (%d nodes)", n, n, r.Nodes)
			}
			first[r.Move] = true
		}
		if len(first) != 4 {
			t.Fatalf("%d×%d: level 6 opened with %d different moves in 24 games, want 4", n, n, len(first))
		}
		if _, ok := fromBook(start, LevelClub, nil, Options{}); ok {
			t.Fatalf("%d×%d: level 4 uses the book", n, n)
		}
		if _, ok := fromBook(start, LevelMaster, nil, Options{NoBook: true}); ok {
			t.Fatalf("%d×%d: NoBook did not switch the book off", n, n)
		}
	}
	if b, err := DefaultBookFor(14); b != nil || err != nil {
		t.Fatalf("14×14 has a book (%v, %v)", b, err)
	}
}

// FuzzBookUnmarshal feeds arbitrary bytes to the book decoder: it never panics, and what it
// accepts encodes and decodes to the same book.
func FuzzBookUnmarshal(f *testing.F) {
	if data, err := bookFiles.ReadFile("book8.bin"); err == nil {
		f.Add(data)
	}
	b, _ := tinyBookN(f)
	data, err := b.MarshalBinary()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte(bookMagicN + "\x10"))
	f.Add([]byte(bookMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		var b Book
		if err := b.UnmarshalBinary(data); err != nil {
			return
		}
		again, err := b.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var c Book
		if err := c.UnmarshalBinary(again); err != nil {
			t.Fatalf("a decoded book does not decode after encoding: %v", err)
		}
		if !reflect.DeepEqual(b.entries, c.entries) || b.Size != c.Size || b.Plies != c.Plies {
			t.Fatal("a decoded book changed through encoding")
		}
	})
}
