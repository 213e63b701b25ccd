package main

import (
	"testing"
	"time"

	"github.com/reversibot/reversi/bot"
)

func TestLoadConfigRemind(t *testing.T) {
	for v, want := range map[string]time.Duration{
		"": bot.DefaultRemindAfter, "30m": 30 * time.Minute, "off": 0, "OFF": 0, "0": 0, " 1m ": time.Minute,
	} {
		c, err := LoadConfig(env(map[string]string{"TELEGRAM_BOT_TOKEN": goodToken, "REMIND_AFTER": v}))
		if err != nil || c.RemindAfter != want {
			t.Errorf("REMIND_AFTER=%q: %v, %v; want %v", v, c.RemindAfter, err, want)
		}
	}
	for _, bad := range []string{"10s", "25h", "soon", "-5m"} {
		wantConfigError(t, map[string]string{"REMIND_AFTER": bad})
	}
}
