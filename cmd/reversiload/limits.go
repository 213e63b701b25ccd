package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"time"

	"github.com/reversibot/reversi/bot/botapi"
	"github.com/reversibot/reversi/bot/telegramtest"
)

// With -limits the fake Bot API server enforces Telegram's flood limits
// (telegramtest.DefaultFloodLimits, counted over every window), -speedup times as fast, and
// the bots pace themselves as production does (botapi.DefaultPaceLimits), as fast: in-process
// bots through bot.Options.Pace over their store's shared budgets, spawned ones through
// the PACE_* settings. The pacing needs no margin of time below the fake's limits: a call
// counts in the bots' budgets from before it leaves until its answer came, so however late
// it reaches the fake it falls in every window the fake counts it in. Without -limits the fake
// limits nothing and the bots do not pace (PACE=off), which measures the bot's own throughput.

// maxSpeedup bounds -speedup: at 1000 times Telegram's figures a group's minute lasts 60 ms,
// about as fine as the scheduling of a loaded machine.
const maxSpeedup = 1000

// floodLimits are the limits the fake enforces under cfg: Telegram's, cfg.Speedup times as
// fast.
func floodLimits(cfg Config) telegramtest.FloodLimits {
	return telegramtest.DefaultFloodLimits.Faster(cfg.Speedup)
}

// paceLimits are the budgets the bots pace themselves by under cfg: production's, as fast as
// the fake's limits.
func paceLimits(cfg Config) botapi.PaceLimits {
	return botapi.DefaultPaceLimits.Faster(cfg.Speedup)
}

// paceEnv is the PACE_* settings of a reversibot process pacing by l: each budget as
// RATE/SPAN:BURST, the form reversibot reads.
func paceEnv(l botapi.PaceLimits) map[string]string {
	return map[string]string{
		"PACE_PRIVATE": paceSetting(l.Private),
		"PACE_GROUP":   paceSetting(l.Group),
		"PACE_INLINE":  paceSetting(l.Inline),
		"PACE_GLOBAL":  paceSetting(l.Global),
	}
}

// paceSetting writes l as RATE/SPAN:BURST, or off for no budget. The span is Per itself, since
// it is also the budget's window (botapi.Limit): s, m or h when Per is one, else a Go duration
// (Faster divides Per, so twenty a minute at k = 100 is 20/600ms).
func paceSetting(l botapi.Limit) string {
	if l.Rate <= 0 || l.Per <= 0 || l.Burst <= 0 {
		return "off"
	}
	span := map[time.Duration]string{time.Second: "s", time.Minute: "m", time.Hour: "h"}[l.Per]
	if span == "" {
		span = l.Per.String()
	}
	return fmt.Sprintf("%d/%s:%d", l.Rate, span, l.Burst)
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
