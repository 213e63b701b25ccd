package main

import (
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/reversibot/reversi/aiworker"
	"github.com/reversibot/reversi/bot"
	"github.com/reversibot/reversi/bot/botapi"
)

// Config is the bot's configuration, read from the environment by LoadConfig.
type Config struct {
	Token         string // TELEGRAM_BOT_TOKEN, required
	APIURL        string // TELEGRAM_API_URL, Bot API base URL
	RedisURL      string // REDIS_URL; empty means an embedded in-memory Redis
	RedisPrefix   string // REDIS_PREFIX, the start of every key, so bots can share a Redis
	WebhookURL    string // WEBHOOK_URL; set means webhook mode
	WebhookSecret string // WEBHOOK_SECRET, required in webhook mode
	ListenAddr    string // LISTEN_ADDR, where the webhook is served
	// PublicURL is PUBLIC_URL, the public http(s) URL that reaches LISTEN_ADDR, under which the
	// bot serves the thumbnails of its inline results (bot.ThumbnailPath), the pictures
	// of inline boards (bot.PicturePath) and, over https, the Mini App
	// (bot.MiniAppPath); in webhook mode it defaults to WEBHOOK_URL's scheme and host, and
	// it is "" (none of these) otherwise.
	PublicURL string
	// MiniAppName is MINIAPP_NAME, the short name of the Mini App made in BotFather (/newapp)
	// with the URL PUBLIC_URL/app/: boards in groups and inline posts link to it.
	MiniAppName  string
	MetricsAddr  string        // METRICS_ADDR, where /metrics and /healthz are served; "off" disables; loopback by default
	LogLevel     slog.Level    // LOG_LEVEL: debug, info, warn, error
	LogFormat    string        // LOG_FORMAT: json or text
	AIWorkers    int           // AI_WORKERS: searches that may run (or, with AI_MODE=remote, wait) at once
	IdleClaim    time.Duration // IDLE_CLAIM_AFTER: how long a player may stall before the opponent may claim the game
	Role         string        // ROLE: RoleBot (talks to Telegram) or RoleWorker (runs AI searches for bots)
	AIMode       string        // AI_MODE: AILocal (searches in the bot) or AIRemote (on workers); bots only
	AIClaimAfter time.Duration // AI_CLAIM_AFTER: how long a job may stay with a worker before another takes it over
	NoBook       bool          // AI_BOOK=off: the AI searches every move, the 8×8 opening book's included

	// The intake (config_budget.go): USER_RATE and USER_BURST, each user's budget of updates
	// (zero: none); MAX_HANDLERS, updates handled at once; WEBHOOK_WAIT, how long a webhook
	// request waits for a free handler before it is answered 503.
	Budget      bot.Budget
	MaxHandlers int
	WebhookWait time.Duration

	// The pacing (config_pace.go): PACE_PRIVATE, PACE_GROUP, PACE_INLINE and PACE_GLOBAL, the
	// budgets of sends and edits that keep the bot inside Telegram's flood limits, kept in
	// Redis for every process; PACE=off turns it off (load runs only).
	Pace   botapi.PaceLimits
	NoPace bool

	// RemindAfter (config_remind.go): REMIND_AFTER, how long the player to move in a group or
	// inline game may take before a message reminds them; 0: no reminders.
	RemindAfter time.Duration

	// DrawWorkers (config_draw.go): DRAW_WORKERS, the board pictures and replays drawn at once.
	DrawWorkers int

	// StopGrace (config_stop.go): STOP_GRACE, how long a stop (SIGTERM) may take from the
	// signal to the exit.
	StopGrace time.Duration
}

// The roles and AI modes.
const (
	RoleBot    = "bot"
	RoleWorker = "worker"
	AILocal    = "local"
	AIRemote   = "remote"
)

// Defaults of the remote AI settings.
const (
	// DefaultRemoteAIWorkers is AI_WORKERS for a bot with AI_MODE=remote: its AI slots only
	// wait for workers, so it can hold many at once.
	DefaultRemoteAIWorkers = 64
	// minClaimAfter keeps AI_CLAIM_AFTER above the slowest search (2 s), so a live worker's job
	// is never taken from it.
	minClaimAfter = 3 * time.Second
)

// DefaultAPIURL is Telegram's Bot API server.
const DefaultAPIURL = "https://api.telegram.org"

var (
	secretPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,256}$`)
	// miniAppPattern is a Mini App's short name as BotFather takes it.
	miniAppPattern = regexp.MustCompile(`^[A-Za-z0-9_]{3,30}$`)
)

// DefaultMetricsAddr keeps /metrics on the loopback interface: the metrics name internal
// figures (update kinds, Redis latency) that the public side has no business reading.
const DefaultMetricsAddr = "127.0.0.1:9090"

// LoadConfig reads the configuration from getenv (os.Getenv in production) and checks every
// value. Its errors name the variable and say what a good value looks like; they never repeat the
// token.
func LoadConfig(getenv func(string) string) (Config, error) {
	c := Config{
		Token:         strings.TrimSpace(getenv("TELEGRAM_BOT_TOKEN")),
		APIURL:        strings.TrimRight(orDefault(getenv("TELEGRAM_API_URL"), DefaultAPIURL), "/"),
		RedisURL:      strings.TrimSpace(getenv("REDIS_URL")),
		RedisPrefix:   orDefault(getenv("REDIS_PREFIX"), "reversi:"),
		WebhookURL:    strings.TrimSpace(getenv("WEBHOOK_URL")),
		WebhookSecret: getenv("WEBHOOK_SECRET"),
		ListenAddr:    orDefault(getenv("LISTEN_ADDR"), ":8080"),
		PublicURL:     strings.TrimRight(strings.TrimSpace(getenv("PUBLIC_URL")), "/"),
		MiniAppName:   strings.TrimSpace(getenv("MINIAPP_NAME")),
		MetricsAddr:   orDefault(getenv("METRICS_ADDR"), DefaultMetricsAddr),
		LogFormat:     strings.ToLower(orDefault(getenv("LOG_FORMAT"), "json")),
		AIWorkers:     runtime.GOMAXPROCS(0),
		IdleClaim:     24 * time.Hour,
		Role:          strings.ToLower(orDefault(getenv("ROLE"), RoleBot)),
		AIMode:        strings.ToLower(orDefault(getenv("AI_MODE"), AILocal)),
		AIClaimAfter:  aiworker.DefaultClaimAfter,
	}
	var errs []error
	switch c.Role {
	case RoleBot:
		switch {
		case c.Token == "":
			errs = append(errs, errors.New("TELEGRAM_BOT_TOKEN is required: the token BotFather gave you"))
		default:
			if why := tokenProblem(c.Token); why != "" {
				errs = append(errs, errors.New("TELEGRAM_BOT_TOKEN is not a bot token: "+why))
			}
		}
		switch c.AIMode {
		case AILocal:
		case AIRemote:
			if c.RedisURL == "" {
				errs = append(errs, errors.New("AI_MODE=remote needs REDIS_URL: the workers must reach the same Redis (the embedded one is private to this process)"))
			}
			c.AIWorkers = DefaultRemoteAIWorkers
		default:
			errs = append(errs, fmt.Errorf("AI_MODE must be local or remote, not %q", c.AIMode))
		}
	case RoleWorker:
		if c.RedisURL == "" {
			errs = append(errs, errors.New("ROLE=worker needs REDIS_URL: the Redis the bots post their AI jobs to"))
		}
	default:
		errs = append(errs, fmt.Errorf("ROLE must be bot or worker, not %q", c.Role))
	}
	if err := checkURL("TELEGRAM_API_URL", c.APIURL); err != nil {
		errs = append(errs, err)
	}
	if c.RedisURL != "" {
		u, err := url.Parse(c.RedisURL)
		if err != nil || !strings.HasPrefix(u.Scheme, "redis") && u.Scheme != "unix" {
			errs = append(errs, errors.New("REDIS_URL must look like redis://host:6379/0 (or rediss://, redis+cluster://, redis+sentinel://, unix://); leave it empty for an embedded store"))
		}
	}
	if c.WebhookURL != "" {
		if u, err := url.Parse(c.WebhookURL); err != nil || u.Scheme != "https" || u.Host == "" {
			errs = append(errs, errors.New("WEBHOOK_URL must be an https:// URL that reaches LISTEN_ADDR"))
		}
		if !secretPattern.MatchString(c.WebhookSecret) {
			errs = append(errs, errors.New("WEBHOOK_SECRET is required in webhook mode: 1-256 characters of A-Z, a-z, 0-9, _ and -"))
		}
	}
	if c.PublicURL != "" {
		if u, err := url.Parse(c.PublicURL); err != nil || u.Scheme != "https" && u.Scheme != "http" || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
			errs = append(errs, errors.New("PUBLIC_URL must be an http(s):// URL without query that reaches LISTEN_ADDR (inline results take their thumbnails from it)"))
		}
	} else if u, err := url.Parse(c.WebhookURL); c.WebhookURL != "" && err == nil && u.Host != "" {
		c.PublicURL = u.Scheme + "://" + u.Host
	}
	if c.MiniAppName != "" && !miniAppPattern.MatchString(c.MiniAppName) {
		errs = append(errs, errors.New("MINIAPP_NAME must be the Mini App's short name from BotFather: 3-30 characters of A-Z, a-z, 0-9 and _"))
	}
	if err := c.LogLevel.UnmarshalText([]byte(orDefault(getenv("LOG_LEVEL"), "info"))); err != nil {
		errs = append(errs, fmt.Errorf("LOG_LEVEL must be debug, info, warn or error, not %q", getenv("LOG_LEVEL")))
	}
	if c.LogFormat != "json" && c.LogFormat != "text" {
		errs = append(errs, fmt.Errorf("LOG_FORMAT must be json or text, not %q", c.LogFormat))
	}
	if v := getenv("AI_WORKERS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1024 {
			errs = append(errs, fmt.Errorf("AI_WORKERS must be a whole number from 1 to 1024, not %q", v))
		}
		c.AIWorkers = n
	}
	if v := getenv("AI_CLAIM_AFTER"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < minClaimAfter || d > time.Hour {
			errs = append(errs, fmt.Errorf("AI_CLAIM_AFTER must be a duration from 3s (above the slowest search) to 1h, like 5s, not %q", v))
		}
		c.AIClaimAfter = d
	}
	switch v := getenv("AI_BOOK"); v {
	case "", "on":
	case "off":
		c.NoBook = true
	default:
		errs = append(errs, fmt.Errorf("AI_BOOK must be on or off, not %q", v))
	}
	if v := getenv("IDLE_CLAIM_AFTER"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Minute {
			errs = append(errs, fmt.Errorf("IDLE_CLAIM_AFTER must be a duration of at least 1m, like 24h, not %q", v))
		}
		c.IdleClaim = d
	}
	errs = append(errs, loadIntake(getenv, &c)...)
	errs = append(errs, loadPace(getenv, &c)...)
	errs = append(errs, loadRemind(getenv, &c)...)
	errs = append(errs, loadDraw(getenv, &c)...)
	errs = append(errs, loadStop(getenv, &c)...)
	return c, errors.Join(errs...)
}

func orDefault(v, def string) string {
	if strings.TrimSpace(v) == "" {
		return def
	}
	return strings.TrimSpace(v)
}

func checkURL(name, v string) error {
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%s must be an http(s) URL, not %q", name, v)
	}
	return nil
}
