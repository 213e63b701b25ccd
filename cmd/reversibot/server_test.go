package main

import (
	"net/http"
	"testing"
)

// Every phase of a request has a bound, so a slow or idle client cannot hold the webhook's or
// the metrics server's connections (slowloris).
func TestServersBoundEveryPhase(t *testing.T) {
	srv := newServer("127.0.0.1:0", http.NotFoundHandler())
	for name, d := range map[string]int64{
		"ReadHeaderTimeout": int64(srv.ReadHeaderTimeout),
		"ReadTimeout":       int64(srv.ReadTimeout),
		"WriteTimeout":      int64(srv.WriteTimeout),
		"IdleTimeout":       int64(srv.IdleTimeout),
	} {
		if d <= 0 {
			t.Errorf("%s = %d, want a bound", name, d)
		}
	}
}
