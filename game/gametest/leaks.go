package gametest

import (
	"fmt"
	"net/http"
	"os"
	"testing"

	"go.uber.org/goleak"
)

// IdleHTTP ignores the goroutines of the keep-alive connections that HTTP clients other than
// http.DefaultTransport's keep open (a bot's own client) until they are closed.
var IdleHTTP = []goleak.Option{
	goleak.IgnoreAnyFunction("net/http.(*persistConn).readLoop"),
	goleak.IgnoreAnyFunction("net/http.(*persistConn).writeLoop"),
}

// VerifyTestMain runs the tests of m and exits with their code, failing the run when they
// passed but left goroutines behind. Idle connections of http.DefaultTransport are closed
// first; a go-redis client's connection reaper and connections waiting in poll are let be,
// and so is whatever opts ignore.
func VerifyTestMain(m *testing.M, opts ...goleak.Option) {
	os.Exit(CheckLeaks(m.Run(), opts...))
}

// CheckLeaks is the check of VerifyTestMain after tests that exited with code: it returns 1
// when they passed (code 0) but left goroutines behind (it prints them), else code. For a
// TestMain with work of its own between the tests and the check.
func CheckLeaks(code int, opts ...goleak.Option) int {
	if code == 0 {
		http.DefaultTransport.(*http.Transport).CloseIdleConnections()
		opts = append([]goleak.Option{
			goleak.IgnoreTopFunction("github.com/redis/go-redis/v9/internal/pool.(*ConnPool).reaper"),
			goleak.IgnoreTopFunction("internal/poll.runtime_pollWait"),
		}, opts...)
		if err := goleak.Find(opts...); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	return code
}
