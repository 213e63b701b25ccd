package ai

import (
	"sync/atomic"

	"github.com/reversibot/reversi/engine"
)

// decodes counts the embedded files decoded so far (weights and books): Preload's test
// checks that no move chosen after it decodes one.
var decodes atomic.Int64

// Preload decodes every embedded table the levels read (the evaluation weights of every size
// and the opening books) now rather than on the first move that needs each. Decoding takes
// tens of milliseconds, more than levels 1–3 may spend on a move, so a server calls Preload at
// start and its first player does not wait for it. Later calls cost nothing. It fails only if
// an embedded file is broken.
func Preload() error {
	if _, err := tablesForEval(EvalPattern); err != nil {
		return err
	}
	for n := engine.MinSize; n <= engine.MaxSize; n++ {
		if !engine.ValidSize(n) {
			continue
		}
		if _, err := DefaultBookFor(n); err != nil {
			return err
		}
	}
	return nil
}
