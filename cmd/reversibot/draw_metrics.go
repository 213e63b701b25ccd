package main

import "github.com/prometheus/client_golang/prometheus"

// registerDrawing exports the counters of the bot's drawing workers and picture cache
// (bot.Bot.Drawing).
func (m *Main) registerDrawing() {
	b := m.Bot
	m.Metrics.Registry().MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "reversi_draws_running",
			Help: "Board pictures and replays being drawn now (at most DRAW_WORKERS).",
		}, func() float64 { return float64(b.Drawing().Running) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "reversi_draws_waiting",
			Help: "Board pictures and replays waiting for a drawing worker.",
		}, func() float64 { return float64(b.Drawing().Waiting) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "reversi_draws_total",
			Help: "Board pictures and replays drawn.",
		}, func() float64 { return float64(b.Drawing().Drawn) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "reversi_draws_refused_total",
			Help: "Drawings refused because their queue was full: pictures answered 503, replays not sent.",
		}, func() float64 { return float64(b.Drawing().Refused) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "reversi_replays_queued",
			Help: "Finished games whose replays wait to be drawn and sent.",
		}, func() float64 { return float64(b.Drawing().ReplaysQueued) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "reversi_replays_dropped_total",
			Help: "Replays dropped, the oldest first, because too many games ended at once.",
		}, func() float64 { return float64(b.Drawing().ReplaysDropped) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "reversi_picture_cache_bytes",
			Help: "Bytes of the drawn board pictures kept for PUBLIC_URL/pic/.",
		}, func() float64 { return float64(b.Drawing().CacheBytes) }),
	)
}
