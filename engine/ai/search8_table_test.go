package ai

import "testing"

// TestMidTableKeepsDeepEntries checks the midgame table's replacement: in a bucket, a new
// position replaces the entry searched less deep, and a position already there is updated in
// place rather than stored twice.
func TestMidTableKeepsDeepEntries(t *testing.T) {
	s := newSearcher8(&config{tableBits: 10}, nil)
	const h = 0 // every position below goes to the same bucket
	entry := func(p uint64, depth int8) midEntry {
		return midEntry{p: p, o: 1, lo: -5, hi: 5, depth: depth, move: 3, used: true}
	}
	deep, shallow1, shallow2 := uint64(1<<10), uint64(1<<20), uint64(1<<30)
	s.midStore(h, entry(deep, 9))
	s.midStore(h, entry(shallow1, 1))
	s.midStore(h, entry(shallow2, 2))
	if e := s.midProbe(deep, 1, h); e == nil || e.depth != 9 {
		t.Fatalf("the depth-9 entry was replaced by shallower ones: %+v", e)
	}
	if e := s.midProbe(shallow2, 1, h); e == nil || e.depth != 2 {
		t.Fatalf("the newest shallow entry is missing: %+v", e)
	}
	if e := s.midProbe(shallow1, 1, h); e != nil {
		t.Fatalf("three positions in a two-slot bucket: %+v", e)
	}
	s.midStore(h, entry(shallow2, 4))
	if e := s.midProbe(deep, 1, h); e == nil || e.depth != 9 {
		t.Fatalf("updating a position evicted another: %+v", e)
	}
	if e := s.midProbe(shallow2, 1, h); e == nil || e.depth != 4 {
		t.Fatalf("the update of a stored position was lost: %+v", e)
	}
	if e := s.midProbe(shallow1, 2, h); e != nil {
		t.Fatalf("a probe matched a different position: %+v", e)
	}
}
