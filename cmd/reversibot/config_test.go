package main

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/reversibot/reversi/bot"
	"github.com/reversibot/reversi/bot/botapi"
)

const goodToken = "123456:AAbbCCddEEffGGhhIIjjKKllMMnn"

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestLoadConfigDefaults(t *testing.T) {
	c, err := LoadConfig(env(map[string]string{"TELEGRAM_BOT_TOKEN": goodToken}))
	if err != nil {
		t.Fatalf("LoadConfig = %v, want no error", err)
	}
	if c.APIURL != DefaultAPIURL || c.ListenAddr != ":8080" || c.MetricsAddr != "127.0.0.1:9090" || c.LogFormat != "json" ||
		c.AIWorkers < 1 || c.IdleClaim != 24*time.Hour || c.WebhookURL != "" || c.RedisURL != "" {
		t.Errorf("defaults = %+v", c)
	}
}

func TestLoadConfigRejectsBadValues(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"no token", map[string]string{}, "TELEGRAM_BOT_TOKEN is required"},
		{"bad token", map[string]string{"TELEGRAM_BOT_TOKEN": "secret-ish-value"}, "is not a bot token: it has no colon"},
		{"short token", map[string]string{"TELEGRAM_BOT_TOKEN": "123456:ABC"}, "3 characters long"},
		{"bad api url", map[string]string{"TELEGRAM_BOT_TOKEN": goodToken, "TELEGRAM_API_URL": "ftp://x"}, "TELEGRAM_API_URL"},
		{"bad redis", map[string]string{"TELEGRAM_BOT_TOKEN": goodToken, "REDIS_URL": "mysql://x"}, "REDIS_URL"},
		{"webhook without secret", map[string]string{"TELEGRAM_BOT_TOKEN": goodToken, "WEBHOOK_URL": "https://example.org/hook"}, "WEBHOOK_SECRET is required"},
		{"webhook not https", map[string]string{"TELEGRAM_BOT_TOKEN": goodToken, "WEBHOOK_URL": "http://example.org/hook", "WEBHOOK_SECRET": "s3cret"}, "WEBHOOK_URL must be an https"},
		{"bad level", map[string]string{"TELEGRAM_BOT_TOKEN": goodToken, "LOG_LEVEL": "loud"}, "LOG_LEVEL"},
		{"bad public url", map[string]string{"TELEGRAM_BOT_TOKEN": goodToken, "PUBLIC_URL": "ftp://x"}, "PUBLIC_URL must be"},
		{"public url without host", map[string]string{"TELEGRAM_BOT_TOKEN": goodToken, "PUBLIC_URL": "https://"}, "PUBLIC_URL must be"},
		{"bad format", map[string]string{"TELEGRAM_BOT_TOKEN": goodToken, "LOG_FORMAT": "xml"}, "LOG_FORMAT"},
		{"bad workers", map[string]string{"TELEGRAM_BOT_TOKEN": goodToken, "AI_WORKERS": "0"}, "AI_WORKERS"},
		{"bad idle", map[string]string{"TELEGRAM_BOT_TOKEN": goodToken, "IDLE_CLAIM_AFTER": "5s"}, "IDLE_CLAIM_AFTER"},
		{"bad role", map[string]string{"TELEGRAM_BOT_TOKEN": goodToken, "ROLE": "both"}, "ROLE must be bot or worker"},
		{"bad ai mode", map[string]string{"TELEGRAM_BOT_TOKEN": goodToken, "AI_MODE": "cloud"}, "AI_MODE must be local or remote"},
		{"remote ai on embedded redis", map[string]string{"TELEGRAM_BOT_TOKEN": goodToken, "AI_MODE": "remote"}, "AI_MODE=remote needs REDIS_URL"},
		{"worker on embedded redis", map[string]string{"ROLE": "worker"}, "ROLE=worker needs REDIS_URL"},
		{"claim too soon", map[string]string{"TELEGRAM_BOT_TOKEN": goodToken, "AI_CLAIM_AFTER": "1s"}, "AI_CLAIM_AFTER"},
		{"claim not a duration", map[string]string{"ROLE": "worker", "REDIS_URL": "redis://r:6379", "AI_CLAIM_AFTER": "5"}, "AI_CLAIM_AFTER"},
		{"worker bad workers", map[string]string{"ROLE": "worker", "REDIS_URL": "redis://r:6379", "AI_WORKERS": "-2"}, "AI_WORKERS"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadConfig(env(tt.env))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("LoadConfig error = %v, want one mentioning %q", err, tt.want)
			}
			if tok := tt.env["TELEGRAM_BOT_TOKEN"]; tok != "" && strings.Contains(err.Error(), tok) {
				t.Errorf("error %q repeats the token", err)
			}
		})
	}
}

func TestLoadConfigWebhookMode(t *testing.T) {
	c, err := LoadConfig(env(map[string]string{
		"TELEGRAM_BOT_TOKEN": goodToken, "WEBHOOK_URL": "https://bot.example.org/tg", "WEBHOOK_SECRET": "abc_DEF-123",
		"LISTEN_ADDR": "127.0.0.1:8443", "LOG_LEVEL": "debug", "AI_WORKERS": "3", "IDLE_CLAIM_AFTER": "2h",
		"TELEGRAM_API_URL": "http://127.0.0.1:8081/",
	}))
	if err != nil {
		t.Fatalf("LoadConfig = %v", err)
	}
	if c.ListenAddr != "127.0.0.1:8443" || c.AIWorkers != 3 || c.IdleClaim != 2*time.Hour || c.APIURL != "http://127.0.0.1:8081" {
		t.Errorf("config = %+v", c)
	}
	// The webhook's host serves the inline thumbnails unless PUBLIC_URL says otherwise.
	if c.PublicURL != "https://bot.example.org" {
		t.Errorf("PublicURL = %q, want the webhook's scheme and host", c.PublicURL)
	}
}

func TestLoadConfigPublicURL(t *testing.T) {
	c, err := LoadConfig(env(map[string]string{"TELEGRAM_BOT_TOKEN": goodToken, "PUBLIC_URL": "https://cdn.example.org/reversi/"}))
	if err != nil || c.PublicURL != "https://cdn.example.org/reversi" {
		t.Fatalf("LoadConfig = %q, %v", c.PublicURL, err)
	}
	if c, _ := LoadConfig(env(map[string]string{"TELEGRAM_BOT_TOKEN": goodToken})); c.PublicURL != "" {
		t.Errorf("long polling without PUBLIC_URL has PublicURL %q", c.PublicURL)
	}
}

func TestLoadConfigRoles(t *testing.T) {
	c, err := LoadConfig(env(map[string]string{"TELEGRAM_BOT_TOKEN": goodToken}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Role != RoleBot || c.AIMode != AILocal || c.AIClaimAfter != 5*time.Second || c.AIWorkers != runtime.GOMAXPROCS(0) {
		t.Errorf("defaults: role %q, AI mode %q, claim after %v, AI workers %d; want bot, local, 5s, GOMAXPROCS",
			c.Role, c.AIMode, c.AIClaimAfter, c.AIWorkers)
	}

	// A remote-AI bot's slots only wait: many by default, AI_WORKERS still wins.
	c, err = LoadConfig(env(map[string]string{"TELEGRAM_BOT_TOKEN": goodToken, "AI_MODE": "Remote", "REDIS_URL": "redis://r:6379/0"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.AIMode != AIRemote || c.AIWorkers != DefaultRemoteAIWorkers {
		t.Errorf("remote bot: AI mode %q, AI workers %d; want remote, %d", c.AIMode, c.AIWorkers, DefaultRemoteAIWorkers)
	}
	c, err = LoadConfig(env(map[string]string{"TELEGRAM_BOT_TOKEN": goodToken, "AI_MODE": "remote", "REDIS_URL": "redis://r:6379/0", "AI_WORKERS": "200"}))
	if err != nil || c.AIWorkers != 200 {
		t.Errorf("remote bot with AI_WORKERS=200: %d, %v", c.AIWorkers, err)
	}

	// A worker needs no token; AI_WORKERS is its searches at once.
	c, err = LoadConfig(env(map[string]string{"ROLE": "worker", "REDIS_URL": "redis://r:6379/0", "AI_WORKERS": "3", "AI_CLAIM_AFTER": "10s"}))
	if err != nil {
		t.Fatalf("worker config: %v", err)
	}
	if c.Role != RoleWorker || c.AIWorkers != 3 || c.AIClaimAfter != 10*time.Second {
		t.Errorf("worker config = %+v", c)
	}
}

func TestLoadConfigIntake(t *testing.T) {
	c, err := LoadConfig(env(map[string]string{"TELEGRAM_BOT_TOKEN": goodToken}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Budget != bot.DefaultBudget || c.MaxHandlers != bot.DefaultMaxHandlers || c.WebhookWait != bot.DefaultWebhookWait {
		t.Errorf("defaults: budget %+v, max handlers %d, webhook wait %v", c.Budget, c.MaxHandlers, c.WebhookWait)
	}
	c, err = LoadConfig(env(map[string]string{"TELEGRAM_BOT_TOKEN": goodToken, "USER_RATE": "120/m", "USER_BURST": "30",
		"MAX_HANDLERS": "64", "WEBHOOK_WAIT": "500ms"}))
	if err != nil {
		t.Fatal(err)
	}
	want := bot.Budget{Rate: 120, Per: time.Minute, Burst: 30}
	if c.Budget != want || c.MaxHandlers != 64 || c.WebhookWait != 500*time.Millisecond {
		t.Errorf("set: budget %+v (want %+v), max handlers %d, webhook wait %v", c.Budget, want, c.MaxHandlers, c.WebhookWait)
	}
	c, err = LoadConfig(env(map[string]string{"TELEGRAM_BOT_TOKEN": goodToken, "USER_RATE": "off"}))
	if err != nil || c.Budget.On() {
		t.Errorf("USER_RATE=off: budget %+v, %v; want none", c.Budget, err)
	}
	for _, bad := range []map[string]string{
		{"USER_RATE": "0"}, {"USER_RATE": "5/d"}, {"USER_RATE": "fast"}, {"USER_RATE": "5000"},
		{"USER_BURST": "0"}, {"USER_BURST": "x"}, {"MAX_HANDLERS": "0"}, {"WEBHOOK_WAIT": "2m"}, {"WEBHOOK_WAIT": "1ms"},
	} {
		wantConfigError(t, bad)
	}
}

func TestLoadConfigPace(t *testing.T) {
	c, err := LoadConfig(env(map[string]string{"TELEGRAM_BOT_TOKEN": goodToken}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Pace != botapi.DefaultPaceLimits || c.NoPace {
		t.Errorf("defaults: pace %+v, off %v; want Telegram's figures, on", c.Pace, c.NoPace)
	}
	c, err = LoadConfig(env(map[string]string{"TELEGRAM_BOT_TOKEN": goodToken, "PACE_PRIVATE": "2/s",
		"PACE_GROUP": "30/m:4", "PACE_INLINE": "20/600ms:3", "PACE_GLOBAL": "1000/m:50"}))
	if err != nil {
		t.Fatal(err)
	}
	want := botapi.PaceLimits{Private: botapi.Limit{Rate: 2, Per: time.Second, Burst: botapi.DefaultPaceLimits.Private.Burst},
		Group: botapi.Limit{Rate: 30, Per: time.Minute, Burst: 4}, Inline: botapi.Limit{Rate: 20, Per: 600 * time.Millisecond, Burst: 3},
		Global: botapi.Limit{Rate: 1000, Per: time.Minute, Burst: 50}}
	if c.Pace != want {
		t.Errorf("set: pace %+v, want %+v", c.Pace, want)
	}
	if c, err = LoadConfig(env(map[string]string{"TELEGRAM_BOT_TOKEN": goodToken, "PACE_INLINE": "off"})); err != nil || c.Pace.Inline != (botapi.Limit{Rate: -1}) {
		t.Errorf("PACE_INLINE=off: %+v, %v", c.Pace.Inline, err)
	}
	if c, err = LoadConfig(env(map[string]string{"TELEGRAM_BOT_TOKEN": goodToken, "PACE": "off"})); err != nil || !c.NoPace {
		t.Errorf("PACE=off: off %v, %v", c.NoPace, err)
	}
	for _, bad := range []map[string]string{
		{"PACE_PRIVATE": "0"}, {"PACE_GROUP": "20/d"}, {"PACE_INLINE": "20/m:0"}, {"PACE_GLOBAL": "fast"},
		{"PACE_GROUP": "20/m:x"}, {"PACE_PRIVATE": "200000"}, {"PACE_GROUP": "20/0s"}, {"PACE_GROUP": "20/48h"},
	} {
		wantConfigError(t, bad)
	}
}

// wantConfigError checks that LoadConfig with a good token and the one bad setting refuses it
// with an error that names the variable.
func wantConfigError(t *testing.T, bad map[string]string) {
	t.Helper()
	var name string
	for k := range bad {
		name = k
	}
	bad["TELEGRAM_BOT_TOKEN"] = goodToken
	if _, err := LoadConfig(env(bad)); err == nil || !strings.Contains(err.Error(), name) {
		t.Errorf("LoadConfig(%s=%q) error = %v, want one naming %s", name, bad[name], err, name)
	}
}

// AI_BOOK=off makes the AI search its opening moves too; anything but on or off is refused.
func TestLoadConfigBook(t *testing.T) {
	for v, want := range map[string]bool{"": false, "on": false, "off": true} {
		c, err := LoadConfig(env(map[string]string{"TELEGRAM_BOT_TOKEN": goodToken, "AI_BOOK": v}))
		if err != nil || c.NoBook != want {
			t.Errorf("AI_BOOK=%q: NoBook %v, %v; want %v", v, c.NoBook, err, want)
		}
	}
	wantConfigError(t, map[string]string{"AI_BOOK": "maybe"})
}
