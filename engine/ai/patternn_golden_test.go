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

const patternNGolden = "testdata/patternsN-eval.txt"

// TestEmbeddedPatternWeightsN loads the embedded large-board pattern weights and evaluates the
// positions of testdata/patternsN-eval.txt to their stored values (go test -run
// EmbeddedPatternWeightsN -update rewrites them after a new fit).
func TestEmbeddedPatternWeightsN(t *testing.T) {
	for n := range patternNFiles {
		w, ok, err := DefaultPatternWeightsN(n)
		if err != nil || !ok || w.Size != n {
			t.Fatalf("DefaultPatternWeightsN(%d) = %v, %v, %v", n, w, ok, err)
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
			t.Errorf("%d×%d: only %d nonzero weights: the embedded weights are not a trained set", n, n, nonzero)
		}
	}
	f, err := os.Open(patternNGolden)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out strings.Builder
	checked := map[int]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<16)
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
		w, ok, err := DefaultPatternWeightsN(p.Size())
		if err != nil || !ok {
			t.Fatalf("%v: no pattern weights for size %d (%v)", p, p.Size(), err)
		}
		geo := geoms[p.Size()]
		pl, op := toSetN(p.Discs(p.Side())), toSetN(p.Discs(p.Side().Opponent()))
		got := w.eval(geo, pl, op, geo.moves(pl, op))
		fields[2] = strconv.Itoa(got)
		out.WriteString(strings.Join(fields, " ") + "\n")
		checked[p.Size()]++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for n := range patternNFiles {
		if checked[n] < 5 {
			t.Errorf("%d positions of size %d in %s, want at least 5", checked[n], n, patternNGolden)
		}
	}
	enginetest.Golden(t, patternNGolden, []byte(out.String())) // a value that changed shows as its line
}
