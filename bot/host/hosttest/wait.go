package hosttest

import (
	"runtime"
	"testing"
	"time"
)

// guardFor is how long Until waits before it fails the test.
const guardFor = 20 * time.Second

// Until spins, yielding the processor and never sleeping, until cond holds, and fails the
// test with "what: never happened" when that takes more than 20 s: a failing guard for a
// state other goroutines reach, not a synchronisation tool.
func Until(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(guardFor)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: never happened", what)
		}
		runtime.Gosched()
	}
}
