// Package metrics holds the bot's Prometheus metrics: what an operator watches to see the bot
// is alive and busy. A nil *Metrics is valid and records nothing, so tests need not set one up.
package metrics

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics records the bot's counters and timings in its own registry.
type Metrics struct {
	registry      *prometheus.Registry
	updates       *prometheus.CounterVec
	updateSeconds *prometheus.HistogramVec
	moves         *prometheus.CounterVec
	gamesStarted  *prometheus.CounterVec
	gamesFinished *prometheus.CounterVec
	aiThink       *prometheus.HistogramVec
	telegramErrs  *prometheus.CounterVec
	redisSeconds  *prometheus.HistogramVec
	throttled     *prometheus.CounterVec
	paceWait      *prometheus.HistogramVec
	handlers      prometheus.Gauge
}

// New creates the metrics, registered (with the Go runtime and process collectors) in a fresh
// registry that Handler serves.
func New() *Metrics {
	m := &Metrics{
		registry: prometheus.NewRegistry(),
		updates: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "reversi_updates_total", Help: "Telegram updates handled, by type and outcome.",
		}, []string{"type", "outcome"}),
		updateSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "reversi_update_duration_seconds", Help: "Time to handle one update, by type.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		}, []string{"type"}),
		moves: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "reversi_moves_total", Help: "Moves played, by who played them (human or ai).",
		}, []string{"by"}),
		gamesStarted: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "reversi_games_started_total", Help: "Games started, by flow (ai, invite, group, inline, match).",
		}, []string{"flow"}),
		gamesFinished: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "reversi_games_finished_total", Help: "Games finished, by flow and how they ended.",
		}, []string{"flow", "reason"}),
		aiThink: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "reversi_ai_think_seconds", Help: "Time the AI took to choose a move, by level.",
			Buckets: []float64{.001, .005, .01, .025, .05, .1, .25, .5, 1, 2, 4},
		}, []string{"level"}),
		telegramErrs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "reversi_telegram_errors_total", Help: "Failed Bot API calls, by method and kind.",
		}, []string{"method", "kind"}),
		redisSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "reversi_redis_duration_seconds", Help: "Redis command latency, by command and outcome.",
			Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .5},
		}, []string{"command", "outcome"}),
		throttled: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "reversi_updates_throttled_total",
			Help: "Updates refused by the intake, by type and reason (budget: this process's per-user budget; shared_budget: the one in Redis; busy: a webhook request that found no free handler).",
		}, []string{"type", "reason"}),
		paceWait: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "reversi_pace_wait_seconds",
			Help:    "Time a send or edit waited for its chat's and the bot's budget under Telegram's flood limits, by kind (turn: a board whose player is to move; board; info).",
			Buckets: []float64{.001, .01, .05, .1, .25, .5, 1, 2, 3, 5, 10, 30},
		}, []string{"kind"}),
		handlers: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "reversi_handlers_running", Help: "Updates being handled now (bounded by MAX_HANDLERS).",
		}),
	}
	m.registry.MustRegister(m.updates, m.updateSeconds, m.moves, m.gamesStarted, m.gamesFinished,
		m.aiThink, m.telegramErrs, m.redisSeconds, m.throttled, m.paceWait, m.handlers,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	if m == nil {
		return http.NotFoundHandler()
	}
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{Registry: m.registry})
}

// Registry returns the registry the metrics live in, for tests and extra collectors.
func (m *Metrics) Registry() *prometheus.Registry { return m.registry }

// Update records one handled update of the given type ("message", "callback_query", …) and its
// outcome ("ok", "error", "duplicate", "ignored").
func (m *Metrics) Update(kind, outcome string, took time.Duration) {
	if m == nil {
		return
	}
	m.updates.WithLabelValues(kind, outcome).Inc()
	m.updateSeconds.WithLabelValues(kind).Observe(took.Seconds())
}

// Throttled records an update that the intake refused, by type and reason ("budget",
// "shared_budget", "busy").
func (m *Metrics) Throttled(kind, reason string) {
	if m != nil {
		m.throttled.WithLabelValues(kind, reason).Inc()
	}
}

// HandlerRunning records handlers starting (d > 0) or ending (d < 0).
func (m *Metrics) HandlerRunning(d int) {
	if m != nil {
		m.handlers.Add(float64(d))
	}
}

// Move records a move played by "human" or "ai".
func (m *Metrics) Move(by string) {
	if m != nil {
		m.moves.WithLabelValues(by).Inc()
	}
}

// GameStarted records a game that started in the given flow.
func (m *Metrics) GameStarted(flow string) {
	if m != nil {
		m.gamesStarted.WithLabelValues(flow).Inc()
	}
}

// GameFinished records a game that ended in the given flow for the given reason
// ("normal", "resign", "timeout", "abandoned").
func (m *Metrics) GameFinished(flow, reason string) {
	if m != nil {
		m.gamesFinished.WithLabelValues(flow, reason).Inc()
	}
}

// AIThink records how long the AI of a level took for one move.
func (m *Metrics) AIThink(level string, took time.Duration) {
	if m != nil {
		m.aiThink.WithLabelValues(level).Observe(took.Seconds())
	}
}

// TelegramError records a failed Bot API call: kind is "too_many_requests", "forbidden",
// "bad_request", "not_modified", "server" or "network".
func (m *Metrics) TelegramError(method, kind string) {
	if m != nil {
		m.telegramErrs.WithLabelValues(method, kind).Inc()
	}
}

// PaceWait records how long a send or edit of the kind ("turn", "board" or "info") waited for
// its budget.
func (m *Metrics) PaceWait(kind string, took time.Duration) {
	if m != nil {
		m.paceWait.WithLabelValues(kind).Observe(took.Seconds())
	}
}

// RedisCall records the latency of one Redis command (or pipeline) and whether it failed.
func (m *Metrics) RedisCall(command string, took time.Duration, err error) {
	if m == nil {
		return
	}
	outcome := "ok"
	if err != nil {
		outcome = "error"
	}
	m.redisSeconds.WithLabelValues(command, outcome).Observe(took.Seconds())
}
