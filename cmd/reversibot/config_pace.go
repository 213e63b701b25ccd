package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/reversibot/reversi/bot/botapi"
)

// Bounds of the pacing settings.
const (
	maxPaceRate  = 100000
	maxPaceBurst = 1000
)

// loadPace reads the budgets that keep the bot inside Telegram's flood limits: PACE_PRIVATE
// (each private chat), PACE_GROUP (each group), PACE_INLINE (each inline message) and
// PACE_GLOBAL (the bot as a whole), each RATE[:BURST] with RATE as USER_RATE takes it (N, N/s,
// N/m or N/h) or N per a Go duration (20/600ms), or off; unset, a budget is
// botapi.DefaultPaceLimits'. RATE's span is also the budget's window (botapi.Limit): 20/m is
// never more than twenty in any minute. PACE=off turns the pacing off altogether (only for
// load runs against a fake server).
func loadPace(getenv func(string) string, c *Config) []error {
	if strings.EqualFold(strings.TrimSpace(getenv("PACE")), "off") {
		c.NoPace = true
	}
	def := botapi.DefaultPaceLimits
	var errs []error
	for _, v := range []struct {
		name string
		dst  *botapi.Limit
		def  botapi.Limit
	}{
		{"PACE_PRIVATE", &c.Pace.Private, def.Private},
		{"PACE_GROUP", &c.Pace.Group, def.Group},
		{"PACE_INLINE", &c.Pace.Inline, def.Inline},
		{"PACE_GLOBAL", &c.Pace.Global, def.Global},
	} {
		*v.dst = v.def
		raw := strings.ToLower(strings.TrimSpace(getenv(v.name)))
		if raw == "" {
			continue
		}
		l, ok := parsePace(raw, v.def.Burst)
		if !ok {
			errs = append(errs, fmt.Errorf("%s must be a budget like 20/m, 20/m:3 or 20/600ms:3 (rate 1 to %d, burst 1 to %d), or off, not %q",
				v.name, maxPaceRate, maxPaceBurst, raw))
			continue
		}
		*v.dst = l
	}
	return errs
}

// parsePace reads RATE[:BURST] or off; a budget without a burst gets burst.
func parsePace(v string, burst int) (botapi.Limit, bool) {
	if v == "off" {
		return botapi.Limit{Rate: -1}, true
	}
	rate, b, hasBurst := strings.Cut(v, ":")
	n, per, ok := parseRate(rate)
	if !ok {
		n, per, ok = parseRatePer(rate)
	}
	if !ok || n < 1 || n > maxPaceRate {
		return botapi.Limit{}, false
	}
	if hasBurst {
		var err error
		if burst, err = strconv.Atoi(strings.TrimSpace(b)); err != nil || burst < 1 || burst > maxPaceBurst {
			return botapi.Limit{}, false
		}
	}
	return botapi.Limit{Rate: n, Per: per, Burst: burst}, true
}

// parseRatePer reads N/DURATION (a Go duration from a millisecond to a day): a budget whose
// window is not a whole second, minute or hour, as a sped-up load run paces.
func parseRatePer(v string) (n int, per time.Duration, ok bool) {
	num, unit, found := strings.Cut(v, "/")
	if !found {
		return 0, 0, false
	}
	n, err := strconv.Atoi(strings.TrimSpace(num))
	if err != nil {
		return 0, 0, false
	}
	per, err = time.ParseDuration(strings.TrimSpace(unit))
	if err != nil || per < time.Millisecond || per > 24*time.Hour {
		return 0, 0, false
	}
	return n, per, true
}
