package gametest

import (
	"runtime"
	"testing"
	"time"
)

// guardFor is how long Until and Receive wait before they fail the test.
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

// Receive returns the next value sent on ch, and fails the test with failure when none comes
// within 20 s (a failing guard).
func Receive[T any](t testing.TB, ch <-chan T, failure string) T {
	t.Helper()
	timer := time.NewTimer(guardFor)
	defer timer.Stop()
	select {
	case v := <-ch:
		return v
	case <-timer.C:
		t.Fatal(failure)
		var zero T
		return zero
	}
}
