package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/reversibot/reversi/bot"
)

// Bounds of REMIND_AFTER: a reminder sooner than a minute nags, and one later than a day comes
// after the opponent may already claim the game (IDLE_CLAIM_AFTER's default).
const (
	minRemindAfter = time.Minute
	maxRemindAfter = 24 * time.Hour
)

// loadRemind reads REMIND_AFTER: how long the player to move in a group or inline game may
// take before a message that mentions them reminds them (bot.Options.RemindAfter), a
// duration from 1m to 24h, bot.DefaultRemindAfter when unset, "off" (or 0) for none.
func loadRemind(getenv func(string) string, c *Config) []error {
	c.RemindAfter = bot.DefaultRemindAfter
	v := strings.ToLower(strings.TrimSpace(getenv("REMIND_AFTER")))
	switch v {
	case "":
		return nil
	case "off", "0":
		c.RemindAfter = 0
		return nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < minRemindAfter || d > maxRemindAfter {
		return []error{fmt.Errorf("REMIND_AFTER must be a duration from 1m to 24h, like 10m, or off, not %q", v)}
	}
	c.RemindAfter = d
	return nil
}
