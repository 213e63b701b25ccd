package main

import (
	"testing"

	"github.com/reversibot/reversi/bot"
)

func TestLoadConfigDraw(t *testing.T) {
	for v, want := range map[string]int{"": bot.DefaultDrawWorkers(), "1": 1, " 4 ": 4, "64": 64} {
		c, err := LoadConfig(env(map[string]string{"TELEGRAM_BOT_TOKEN": goodToken, "DRAW_WORKERS": v}))
		if err != nil || c.DrawWorkers != want {
			t.Errorf("DRAW_WORKERS=%q: %v, %v; want %v", v, c.DrawWorkers, err, want)
		}
	}
	for _, bad := range []string{"0", "65", "-1", "two", "1.5"} {
		wantConfigError(t, map[string]string{"DRAW_WORKERS": bad})
	}
}
