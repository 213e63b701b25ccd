package main

import (
	"fmt"
	"strings"
	"time"
)

// DefaultStopGrace is STOP_GRACE unset: below the 10 s Docker gives a container between
// SIGTERM and SIGKILL when its compose file sets no stop_grace_period, so a stop ends on its
// own terms there too (compose.yaml gives the bot more than this, see there).
const DefaultStopGrace = 8 * time.Second

// Bounds of STOP_GRACE: a stop needs a moment to close the store; one that takes minutes
// holds a deployment up for nothing (what waits for budget is dropped at once anyway).
const (
	minStopGrace = time.Second
	maxStopGrace = 5 * time.Minute
)

// loadStop reads STOP_GRACE: how long a stop may take from SIGTERM (or SIGINT) to the exit,
// a duration from 1s to 5m; unset, DefaultStopGrace. The process's stop manager (Docker's
// stop_grace_period, Kubernetes' terminationGracePeriodSeconds) must give it more.
func loadStop(getenv func(string) string, c *Config) []error {
	c.StopGrace = DefaultStopGrace
	v := strings.TrimSpace(getenv("STOP_GRACE"))
	if v == "" {
		return nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < minStopGrace || d > maxStopGrace {
		return []error{fmt.Errorf("STOP_GRACE must be a duration from 1s to 5m, like 8s, not %q", v)}
	}
	c.StopGrace = d
	return nil
}
