package ai

import (
	_ "embed"
	"fmt"
	"sync"
)

// The embedded large-board pattern weights: one file a trained size, each fitted to that
// size's own games (another size's weights were measured to play worse: PATTERNS.md).

//go:embed patterns10.bin
var patternFile10 []byte

//go:embed patterns12.bin
var patternFile12 []byte

//go:embed patterns16.bin
var patternFile16 []byte

var patternNFiles = map[int][]byte{10: patternFile10, 12: patternFile12, 16: patternFile16}

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
// (n > 8), loaded once, and whether that size has any (and so uses the pattern evaluation at
// all); callers must not modify them. It fails only if an embedded file is broken.
func DefaultPatternWeightsN(n int) (*PatternWeightsN, bool, error) {
	all, err := defaultPatternsN()
	if err != nil {
		return nil, false, err
	}
	w, ok := all[n]
	return w, ok, nil
}
