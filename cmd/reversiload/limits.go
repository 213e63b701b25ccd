package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"time"

	"github.com/reversibot/reversi/telegram/botapi"
	"github.com/reversibot/reversi/telegram/telegramtest"
)

// With -limits the fake Bot API server enforces Telegram's flood limits
// (telegramtest.DefaultFloodLimits), -speedup times as fast, and the bots pace themselves
// as production does (botapi.DefaultPaceLimits), at paceSpeedup(-speedup): in-process bots
// through telegram.Options.Pace over their store's shared budgets, spawned ones through the
// PACE_* settings. Without -limits the fake limits nothing and the bots do not pace (PACE=off),
// which measures the bot's own throughput.

// maxSpeedup bounds -speedup: at 1000 times Telegram's figures a group's budget refills every
// 3 ms, about as fine as the scheduling of a loaded machine.
const maxSpeedup = 1000

// paceSpeedup is how much faster than Telegram's figures the bots pace themselves when the
// fake's limits are k times as fast: k itself at Telegram's own figures (k = 1, as production
// runs), a fifth slower above that (as the telegram tests do), since a sped-up budget's
// margin shrinks to the scheduling jitter of a loaded machine.
func paceSpeedup(k int) int {
	if k < 2 {
		return 1
	}
	return max(1, k*4/5)
}

// floodLimits are the limits the fake enforces under cfg: Telegram's, cfg.Speedup times as
// fast.
func floodLimits(cfg Config) telegramtest.FloodLimits {
	return telegramtest.DefaultFloodLimits.Faster(cfg.Speedup)
}

// paceLimits are the budgets the bots pace themselves by under cfg.
func paceLimits(cfg Config) botapi.PaceLimits {
	return botapi.DefaultPaceLimits.Faster(paceSpeedup(cfg.Speedup))
}

// paceEnv is the PACE_* settings of a reversibot process pacing by l: each budget as
// RATE/UNIT:BURST, the form reversibot reads.
func paceEnv(l botapi.PaceLimits) map[string]string {
	return map[string]string{
		"PACE_PRIVATE": paceSetting(l.Private),
		"PACE_GROUP":   paceSetting(l.Group),
		"PACE_INLINE":  paceSetting(l.Inline),
		"PACE_GLOBAL":  paceSetting(l.Global),
	}
}

// paceSetting writes l as RATE/UNIT:BURST in the finest unit (s, m, h) in which the rate is a
// whole number, or off for no budget: Faster divides Per, so 20 a minute at k = 80 is 20 per
// 750ms, written 1600/m.
func paceSetting(l botapi.Limit) string {
	if l.Rate <= 0 || l.Per <= 0 || l.Burst <= 0 {
		return "off"
	}
	for _, u := range []struct {
		name string
		d    time.Duration
	}{{"s", time.Second}, {"m", time.Minute}, {"h", time.Hour}} {
		// rate per Per = rate*(u/Per) per u: exact when Per divides rate*u.
		if n := time.Duration(l.Rate) * u.d; n%l.Per == 0 {
			return fmt.Sprintf("%d/%s:%d", n/l.Per, u.name, l.Burst)
		}
	}
	// No exact form: round the rate per second down (pacing a little slower is safe).
	return fmt.Sprintf("%d/s:%d", max(1, int(time.Duration(l.Rate)*time.Second/l.Per)), l.Burst)
}

// envLine writes the settings of env as KEY=VALUE pairs in key order.
func envLine(env map[string]string) string {
	s := ""
	for _, k := range slices.Sorted(maps.Keys(env)) {
		if s != "" {
			s += " "
		}
		s += k + "=" + env[k]
	}
	return s
}

// TooMany is the 429s the fake server gave during a run (-limits): every one is a failure.
type TooMany struct {
	Total int
	Chats map[int64]int // by chat id (groups < 0); inline messages are not driven
}

// print writes the 429 line of the report: the total, then the chats that got them.
func (t TooMany) print(w io.Writer) {
	fmt.Fprintf(w, "429s: %d", t.Total)
	if t.Total > 0 {
		ids := slices.Sorted(maps.Keys(t.Chats))
		for i, id := range ids {
			if i == 8 {
				fmt.Fprintf(w, " …(%d chats)", len(ids))
				break
			}
			fmt.Fprintf(w, " chat %d: %d;", id, t.Chats[id])
		}
	}
	fmt.Fprintln(w)
}

// tooMany reads the fake server's count of 429s.
func tooMany(srv *telegramtest.Server) TooMany {
	st := srv.TooManyRequests()
	out := TooMany{Total: st.Total, Chats: map[int64]int{}}
	for k, n := range st.Chats {
		out.Chats[k.Chat] += n
	}
	return out
}
