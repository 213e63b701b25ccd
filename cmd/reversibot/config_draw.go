package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/reversibot/reversi/bot"
)

// maxDrawWorkers bounds DRAW_WORKERS: each drawing holds a few megabytes while it runs.
const maxDrawWorkers = 64

// loadDraw reads DRAW_WORKERS: how many board pictures (served at PUBLIC_URL/pic/) and replays
// the bot draws at once, 1…64; unset, bot.DefaultDrawWorkers (half the CPUs, at least
// one).
func loadDraw(getenv func(string) string, c *Config) []error {
	c.DrawWorkers = bot.DefaultDrawWorkers()
	v := strings.TrimSpace(getenv("DRAW_WORKERS"))
	if v == "" {
		return nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > maxDrawWorkers {
		return []error{fmt.Errorf("DRAW_WORKERS must be a whole number from 1 to %d, not %q", maxDrawWorkers, v)}
	}
	c.DrawWorkers = n
	return nil
}
