package engine

import (
	"strings"
	"testing"
)

// TestHashTranspositions walks the 8×8 tree to depth 6 and checks that positions reached by
// different move orders hash equal while different positions (about 10^4) never collide.
func TestHashTranspositions(t *testing.T) {
	first := map[Position]string{}
	byHash := map[uint64]Position{}
	transpositions := 0
	var walk func(p Position, path string, depth int)
	walk = func(p Position, path string, depth int) {
		if prev, ok := first[p]; ok {
			transpositions++
			if q := byHash[p.Hash()]; q != p {
				t.Fatalf("%s and %s reach %v with different hashes", prev, path, p)
			}
			return // its subtree was walked already
		}
		first[p] = path
		if q, ok := byHash[p.Hash()]; ok {
			t.Fatalf("Hash collision: %v and %v", p, q)
		}
		byHash[p.Hash()] = p
		if depth == 0 {
			return
		}
		for _, m := range p.LegalMoves() {
			q, flips, err := p.Play(m)
			if err != nil {
				t.Fatal(err)
			}
			// The hash updates as ZobristDisc promises.
			h := p.Hash() ^ ZobristWhiteToMove() ^ ZobristDisc(p.Side(), m)
			for _, f := range flips.Squares() {
				h ^= ZobristDisc(p.Side(), f) ^ ZobristDisc(p.Side().Opponent(), f)
			}
			if h != q.Hash() {
				t.Fatalf("%s%v: incremental hash %x, Hash() %x", path, m, h, q.Hash())
			}
			walk(q, path+m.String(), depth-1)
		}
	}
	walk(MustStart(8), "", 6)
	if transpositions == 0 {
		t.Fatal("no transpositions found")
	}
	t.Logf("%d positions, %d transpositions", len(first), transpositions)

}

func TestHashSideAndSize(t *testing.T) {
	for size := MinSize; size <= MaxSize; size += 2 {
		p := MustStart(size)
		q, err := ParseBoard(p.BoardText(), White)
		if err != nil {
			t.Fatal(err)
		}
		if p.Hash() == q.Hash() {
			t.Errorf("%d×%d: the start hashes the same with either side to move", size, size)
		}
		if p.Hash() != MustStart(size).Hash() {
			t.Errorf("%d×%d: Hash is not stable", size, size)
		}
	}
	// The same discs (the 4×4 start on b2…c3) on boards of different sizes.
	small := MustStart(4)
	hashes := map[uint64]int{}
	for size := MinSize; size <= MaxSize; size += 2 {
		rows := make([]string, size)
		for r := range rows {
			rows[r] = strings.Repeat("-", size)
		}
		rows[1] = "-OX" + rows[1][3:]
		rows[2] = "-XO" + rows[2][3:]
		p, err := ParseBoard(strings.Join(rows, ""), Black)
		if err != nil {
			t.Fatal(err)
		}
		if p.Discs(Black) != small.Discs(Black) || p.Discs(White) != small.Discs(White) {
			t.Fatalf("%d×%d board does not hold the 4×4 start's discs", size, size)
		}
		if prev, ok := hashes[p.Hash()]; ok {
			t.Errorf("the same discs hash equal on %d×%d and %d×%d", prev, prev, size, size)
		}
		hashes[p.Hash()] = size
	}
}
