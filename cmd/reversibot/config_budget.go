package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/reversibot/reversi/bot"
)

// Bounds of the intake settings.
const (
	maxUserRate    = 1000
	maxUserBurst   = 10000
	maxMaxHandlers = 100000
	minWebhookWait = 10 * time.Millisecond
	maxWebhookWait = 50 * time.Second // Telegram gives a webhook request 60 s
)

// loadIntake reads the per-user budget and the bound on handlers: USER_RATE (N, N/s, N/m or
// N/h; "off" for no budget), USER_BURST, MAX_HANDLERS and WEBHOOK_WAIT, with the bot's
// defaults.
func loadIntake(getenv func(string) string, c *Config) []error {
	c.Budget = bot.DefaultBudget
	c.MaxHandlers = bot.DefaultMaxHandlers
	c.WebhookWait = bot.DefaultWebhookWait
	var errs []error
	if v := strings.ToLower(strings.TrimSpace(getenv("USER_RATE"))); v == "off" {
		c.Budget = bot.Budget{}
	} else if v != "" {
		n, per, ok := parseRate(v)
		if !ok || n < 1 || n > maxUserRate {
			errs = append(errs, fmt.Errorf("USER_RATE must be updates per user like 5 (per second), 5/s, 120/m or 1000/h (1 to %d), or off, not %q", maxUserRate, v))
		}
		c.Budget.Rate, c.Budget.Per = n, per
	}
	if v := strings.TrimSpace(getenv("USER_BURST")); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxUserBurst {
			errs = append(errs, fmt.Errorf("USER_BURST must be a whole number from 1 to %d, not %q", maxUserBurst, v))
		}
		if c.Budget.On() || err != nil {
			c.Budget.Burst = n
		}
	}
	if v := strings.TrimSpace(getenv("MAX_HANDLERS")); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxMaxHandlers {
			errs = append(errs, fmt.Errorf("MAX_HANDLERS must be a whole number from 1 to %d, not %q", maxMaxHandlers, v))
		}
		c.MaxHandlers = n
	}
	if v := strings.TrimSpace(getenv("WEBHOOK_WAIT")); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < minWebhookWait || d > maxWebhookWait {
			errs = append(errs, fmt.Errorf("WEBHOOK_WAIT must be a duration from 10ms to 50s, like 2s, not %q", v))
		}
		c.WebhookWait = d
	}
	return errs
}

// parseRate reads N, N/s, N/m or N/h.
func parseRate(v string) (n int, per time.Duration, ok bool) {
	num, unit, _ := strings.Cut(v, "/")
	n, err := strconv.Atoi(strings.TrimSpace(num))
	if err != nil {
		return 0, 0, false
	}
	switch strings.TrimSpace(unit) {
	case "", "s":
		return n, time.Second, true
	case "m":
		return n, time.Minute, true
	case "h":
		return n, time.Hour, true
	}
	return 0, 0, false
}
