package gametest

import (
	"bytes"
	"sync"
)

// LogBuffer is a bytes.Buffer that a logger or a process writes while a test reads it: safe
// for concurrent use. The zero value is an empty buffer ready to use.
type LogBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p to the buffer.
func (l *LogBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String returns everything written so far.
func (l *LogBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
