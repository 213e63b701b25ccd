package engine

import "testing"

// TestTag: a position's tag is its own (equal positions, equal tags), within 1…MaxTag, and
// tells apart the positions of the first plies of 8×8 (about 10^4) and the side to move.
func TestTag(t *testing.T) {
	seen := map[uint64]Position{}
	var walk func(p Position, depth int)
	walk = func(p Position, depth int) {
		tag := p.Tag()
		if tag == 0 || tag > MaxTag {
			t.Fatalf("Tag(%v) = %d, out of 1…%d", p, tag, uint64(MaxTag))
		}
		if q, ok := seen[tag]; ok && q != p {
			t.Fatalf("%v and %v share the tag %d", p, q, tag)
		}
		seen[tag] = p
		if depth == 0 {
			return
		}
		for _, m := range p.LegalMoves() {
			q, _, err := p.Play(m)
			if err != nil {
				t.Fatal(err)
			}
			walk(q, depth-1)
		}
	}
	start := MustStart(8)
	walk(start, 6)
	if len(seen) < 5000 {
		t.Fatalf("walked %d positions, want thousands", len(seen))
	}
	other := start
	other.side = White
	if other.Tag() == start.Tag() {
		t.Errorf("the side to move does not change the tag")
	}
}
