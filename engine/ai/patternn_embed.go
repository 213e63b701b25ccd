package ai

import (
	_ "embed"
	"fmt"
	"sync"
)

// The embedded large-board pattern weights: one file a trained size. patternNBorrow names,
// for every large size that uses the pattern evaluation without weights of its own, the
// trained size whose weights it reads (the patterns are the same corner regions on every size
// and the phases fractions of the board, so the tables carry over; PATTERNS.md gives the
// matches that decided it).

//go:embed patterns10.bin
var patternFile10 []byte

//go:embed patterns12.bin
var patternFile12 []byte

//go:embed patterns16.bin
var patternFile16 []byte

var patternNFiles = map[int][]byte{10: patternFile10, 12: patternFile12, 16: patternFile16}

var patternNBorrow = map[int]int{}

var defaultPatternsN = sync.OnceValues(func() (map[int]*PatternWeightsN, error) {
	out := map[int]*PatternWeightsN{}
	for n, data := range patternNFiles {
		w, err := loadEmbedded[PatternWeightsN](data, fmt.Sprintf("%d×%d pattern weights", n, n))
		if err != nil {
			return nil, err
		}
		if w.Size != n {
			return nil, fmt.Errorf("ai: embedded %d×%d pattern weights: the file is of size %d", n, n, w.Size)
		}
		out[n] = w
	}
	return out, nil
})

// DefaultPatternWeightsN returns the embedded pattern weights that evaluate an n×n board
// (n > 8), loaded once, and whether that size uses the pattern evaluation at all; callers
// must not modify them. The weights are of size n or, for a size that borrows, of the size
// it borrows from (their Size says which). It fails only if an embedded file is broken.
func DefaultPatternWeightsN(n int) (*PatternWeightsN, bool, error) {
	all, err := defaultPatternsN()
	if err != nil {
		return nil, false, err
	}
	if w, ok := all[n]; ok {
		return w, true, nil
	}
	if m, ok := patternNBorrow[n]; ok {
		w, ok := all[m]
		return w, ok, nil
	}
	return nil, false, nil
}
