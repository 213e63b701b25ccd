package render

import (
	"sync/atomic"

	"github.com/reversibot/reversi/engine"
)

// drawn counts the board assets and move labels drawn so far: Preload's test checks that a
// picture after it draws none.
var drawn atomic.Int64

// preloadLabels is how many move labels of each kind Preload draws per size: more legal moves
// than this are rare, and a label drawn on demand costs about a millisecond.
const preloadLabels = 32

// Preload draws now what the pictures of the given board sizes are made of (the empty board,
// the discs and markers, the first move labels, the fonts) rather than on the first picture
// of each size, which would take a player's request 0.1–0.4 s longer. Invalid sizes are
// skipped; later calls cost little.
func Preload(sizes []int) {
	face()
	plotFonts()
	for _, n := range sizes {
		if !engine.ValidSize(n) {
			continue
		}
		a := assetsFor(n)
		for k := spriteHintBlack; k <= spriteSuggestWhite; k++ {
			for i := range preloadLabels {
				a.labelSprite(k, i)
			}
		}
	}
}
