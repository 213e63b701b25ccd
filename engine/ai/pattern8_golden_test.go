package ai

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/engine/enginetest"
)

const patternGolden = "testdata/patterns8-eval.txt"

// TestEmbeddedPatternWeights loads the embedded pattern weights and evaluates the positions of
// testdata/patterns8-eval.txt to their stored values (go test -run EmbeddedPattern -update
// rewrites them after a new fit).
func TestEmbeddedPatternWeights(t *testing.T) {
	w, err := DefaultPatternWeights8()
	if err != nil {
		t.Fatal(err)
	}
	nonzero := 0
	for _, ph := range w.Phase {
		for _, v := range ph {
			if v != 0 {
				nonzero++
			}
		}
	}
	if nonzero < 10000 {
		t.Errorf("only %d nonzero weights: the embedded weights are not a trained set", nonzero)
	}
	f, err := os.Open(patternGolden)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out strings.Builder
	checked := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		fields := strings.Fields(line)
		if len(fields) < 3 || strings.HasPrefix(line, "#") {
			out.WriteString(line + "\n")
			continue
		}
		p, err := engine.ParsePosition(fields[0] + " " + fields[1])
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if _, err := strconv.Atoi(fields[2]); err != nil { // the stored value
			t.Fatalf("%s: %v", line, err)
		}
		pl, op, _ := p.Bitboards8()
		got := w.eval(pl, op, moves8(pl, op))
		fields[2] = strconv.Itoa(got)
		out.WriteString(strings.Join(fields, " ") + "\n")
		checked++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if checked < 5 {
		t.Fatalf("%d positions in %s, want at least 5", checked, patternGolden)
	}
	enginetest.Golden(t, patternGolden, []byte(out.String())) // a value that changed shows as its line
}
