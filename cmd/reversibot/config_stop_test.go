package main

import (
	"testing"
	"time"
)

func TestLoadConfigStop(t *testing.T) {
	for v, want := range map[string]time.Duration{"": DefaultStopGrace, "1s": time.Second, " 20s ": 20 * time.Second, "5m": 5 * time.Minute} {
		c, err := LoadConfig(env(map[string]string{"TELEGRAM_BOT_TOKEN": goodToken, "STOP_GRACE": v}))
		if err != nil || c.StopGrace != want {
			t.Errorf("STOP_GRACE=%q: %v, %v; want %v", v, c.StopGrace, err, want)
		}
	}
	for _, bad := range []string{"0", "500ms", "6m", "-1s", "ten"} {
		wantConfigError(t, map[string]string{"STOP_GRACE": bad})
	}
}
