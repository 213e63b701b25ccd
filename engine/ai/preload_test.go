package ai

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"testing"
	"time"
)

// TestPreloadLeavesNothingToDecode plays every level on every size, from the opening (the
// books), the midgame and the last empties (level 1's check), with every evaluation, after
// Preload, in a fresh process (where nothing else has decoded yet): none of these moves may
// decode an embedded file, or the first player of a new process would wait for it.
func TestPreloadLeavesNothingToDecode(t *testing.T) {
	const child = "AI_PRELOAD_TEST_CHILD"
	if os.Getenv(child) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestPreloadLeavesNothingToDecode$", "-test.count=1")
		cmd.Env = append(os.Environ(), child+"=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("in a fresh process: %v\n%s", err, out)
		}
		return
	}
	if n := decodes.Load(); n != 0 {
		t.Fatalf("%d files decoded before Preload", n)
	}
	if err := Preload(); err != nil {
		t.Fatal(err)
	}
	if err := Preload(); err != nil {
		t.Fatal("a second Preload:", err)
	}
	before := decodes.Load()
	if before == 0 {
		t.Fatal("Preload decoded nothing")
	}
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rng := rand.New(rand.NewPCG(7, 7))
	for _, size := range []int{8, 10, 12, 16} {
		for _, empties := range []int{size*size - 4, size*size - 20, 8} {
			p := midgame(t, rng, size, size*size-4-empties)
			for _, ev := range []Eval{EvalDefault, EvalLinear, EvalPattern} {
				for l := MinLevel; l <= MaxLevel; l++ {
					name := fmt.Sprintf("%dx%d/%d-empties/level%d/%v", size, size, p.Empties(), l, ev)
					// A virtual clock keeps the searches short: the test is about what they load.
					if _, err := choose(context.Background(), p, l, rng, nodeClock(base, 100*time.Microsecond), Options{Eval: ev}); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if n := decodes.Load(); n != before {
						t.Fatalf("%s decoded %d embedded files after Preload", name, n-before)
					}
				}
			}
			if _, err := Hint(context.Background(), p); err != nil {
				t.Fatal(err)
			}
			if n := decodes.Load(); n != before {
				t.Fatalf("a hint on %dx%d decoded %d embedded files after Preload", size, size, n-before)
			}
		}
	}
}
