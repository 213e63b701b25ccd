package main

import (
	"bytes"
	"log/slog"
	"runtime/pprof"
)

// maxStuckDump bounds the goroutine dump logStuck writes.
const maxStuckDump = 64 << 10

// logStuck writes to log, when a stop has run out of grace, the stacks of the goroutines still
// running (bounded), so the operator sees what the stop was waiting for.
func logStuck(log *slog.Logger) {
	var b bytes.Buffer
	_ = pprof.Lookup("goroutine").WriteTo(&b, 1) // a bytes.Buffer does not fail
	dump := b.String()
	if len(dump) > maxStuckDump {
		dump = dump[:maxStuckDump] + "\n…"
	}
	log.Warn("stop ran out of grace: still running", "goroutines", dump)
}
