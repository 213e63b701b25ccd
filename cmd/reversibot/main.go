// Command reversibot runs the Reversi Telegram bot. It reads its configuration from the
// environment (see the README), keeps games in Redis (or an embedded in-memory Redis when
// REDIS_URL is empty), serves /metrics and /healthz, and takes updates by long polling, or by
// webhook when WEBHOOK_URL is set. SIGINT or SIGTERM stop it cleanly: no update is left half
// applied.
//
// With ROLE=worker it is an AI worker instead: it needs no token, takes the AI searches that
// bots with AI_MODE=remote post to the Redis at REDIS_URL, and answers them; run as many as the
// AI needs CPUs. A worker that dies mid-search leaves its job to the others.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/reversibot/reversi/bot"
	"github.com/reversibot/reversi/bot/metrics"
	"github.com/reversibot/reversi/bot/remoteai"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/storage"
)

// defaultGCPercent is the garbage collector's GOGC when the environment does not set one. The
// bot's live heap is a few megabytes while a busy bot allocates ~100 KB per move, so the
// default of 100 makes the collector run very often; 400 cut the bot's CPU per move by ~15%
// under reversiload for a few megabytes more of heap.
const defaultGCPercent = 400

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(defaultGCPercent)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Getenv, os.Stderr)
	stop()
	os.Exit(code)
}

// shutdownGrace bounds how long a stop waits for handlers in flight.
const shutdownGrace = 15 * time.Second

// run is the whole program without the process: it returns when ctx is cancelled (a signal) or
// start-up fails, with the exit code.
func run(ctx context.Context, getenv func(string) string, stderr io.Writer) int {
	cfg, err := LoadConfig(getenv)
	if err != nil {
		fmt.Fprintf(stderr, "reversibot: bad configuration:\n%v\n", err)
		return 2
	}
	log := newLogger(cfg, stderr)
	if err := serve(ctx, cfg, log); err != nil {
		log.Error("reversibot stopped with an error", "err", err)
		return 1
	}
	log.Info("reversibot stopped cleanly")
	return 0
}

// newLogger builds the structured logger; it never prints the token or the webhook secret.
func newLogger(cfg Config, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	var h slog.Handler = slog.NewJSONHandler(w, opts)
	if cfg.LogFormat == "text" {
		h = slog.NewTextHandler(w, opts)
	}
	return slog.New(newRedactingHandler(h, cfg.Token, cfg.WebhookSecret))
}

// serve wires storage, metrics and the bot (or, for ROLE=worker, the AI worker), and runs until
// ctx is done.
func serve(ctx context.Context, cfg Config, log *slog.Logger) error {
	m := metrics.New()
	store, err := storage.Open(ctx, cfg.RedisURL, storage.Options{Prefix: cfg.RedisPrefix, Observe: m.RedisCall})
	if err != nil {
		return fmt.Errorf("open storage: %w", err)
	}
	defer store.Close()
	if cfg.Role == RoleWorker {
		return serveWorker(ctx, cfg, log, m, store)
	}
	if store.Embedded() {
		log.Warn("REDIS_URL is empty: games live in an embedded in-memory Redis and nothing survives a restart")
	} else {
		warnMemoryRisks(ctx, store, log)
	}

	// With AI_MODE=remote the searches run on workers; the bot's AI slots only wait for them
	// (and bot.New leaves GOMAXPROCS alone, as it does for any Mover given).
	var mover game.Mover
	if cfg.AIMode == AIRemote {
		remote := remoteai.NewMover(store, remoteai.MoverOptions{Logger: log})
		defer remote.Close() // after Shutdown below: no handler waits for it any more
		mover = remote
		m.Registry().MustRegister(
			prometheus.NewCounterFunc(prometheus.CounterOpts{
				Name: "reversi_remote_ai_dropped_total",
				Help: "AI results from workers that nobody waited for any more (late, or answered twice).",
			}, func() float64 { return float64(remote.Stats().Dropped) }),
			prometheus.NewCounterFunc(prometheus.CounterOpts{
				Name: "reversi_remote_ai_malformed_total",
				Help: "Entries of this bot's AI reply stream that were not results.",
			}, func() float64 { return float64(remote.Stats().Malformed) }),
		)
		log.Info("AI searches run on workers (AI_MODE=remote)", "front", remote.Front(), "waiting_slots", cfg.AIWorkers)
	}

	b, err := bot.New(ctx, bot.Options{
		Token:     cfg.Token,
		APIURL:    cfg.APIURL,
		Store:     store,
		Logger:    log,
		Metrics:   m,
		AIWorkers: cfg.AIWorkers,
		IdleClaim: cfg.IdleClaim,
		Mover:     mover,

		Budget:      cfg.Budget,
		MaxHandlers: cfg.MaxHandlers,
		WebhookWait: cfg.WebhookWait,
	})
	if err != nil {
		return fmt.Errorf("start bot: %w", err)
	}
	if err := b.Setup(ctx); err != nil {
		log.Warn("could not register the bot's commands; continuing", "err", err)
	}

	var (
		servers []*http.Server
		runErr  error // why serving stopped, other than a signal
	)
	errc := make(chan error, 3)
	if srv, err := serveMetrics(cfg, m, store, errc, log); err != nil {
		return err
	} else if srv != nil {
		servers = append(servers, srv)
	}

	if cfg.WebhookURL != "" {
		u, _ := url.Parse(cfg.WebhookURL) // validated by LoadConfig
		path := u.Path
		if path == "" {
			path = "/"
		}
		mux := http.NewServeMux()
		mux.Handle("POST "+path, b.WebhookHandler(cfg.WebhookSecret))
		mux.Handle("GET /healthz", healthHandler(store))
		srv, err := listen(cfg.ListenAddr, mux, errc)
		if err != nil {
			return fmt.Errorf("LISTEN_ADDR: %w", err)
		}
		servers = append(servers, srv)
		if err := b.SetWebhook(ctx, cfg.WebhookURL, cfg.WebhookSecret); err != nil {
			shutdownServers(servers)
			return fmt.Errorf("set webhook: %w", err)
		}
		log.Info("taking updates by webhook", "listen", srv.Addr, "path", path)
		select {
		case <-ctx.Done():
		case runErr = <-errc:
		}
	} else {
		log.Info("taking updates by long polling")
		go func() { errc <- b.RunPolling(ctx) }()
		select {
		case <-ctx.Done():
			runErr = <-errc // polling returns once ctx is done
		case runErr = <-errc:
		}
	}

	log.Info("stopping: finishing updates in flight")
	shutdownServers(servers)
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if errors.Is(runErr, context.Canceled) {
		runErr = nil
	}
	if err := b.Shutdown(sctx); err != nil {
		runErr = errors.Join(runErr, fmt.Errorf("shutdown: %w", err))
	}
	return runErr
}

// workerDrain is how long a stopping worker lets its searches in flight finish and post their
// answers: above the slowest search (2 s).
const workerDrain = 3 * time.Second

// serveWorker runs the AI worker (ROLE=worker) until ctx is done: it answers the AI jobs that
// bots with AI_MODE=remote post, AI_WORKERS at a time, and serves /metrics and /healthz.
func serveWorker(ctx context.Context, cfg Config, log *slog.Logger, m *metrics.Metrics, store *storage.Store) error {
	jobs := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "reversi_worker_jobs_total",
		Help: "AI jobs a worker handled, by kind (move, hint) and outcome (ok, failed, expired, malformed, abandoned, unposted).",
	}, []string{"kind", "outcome"})
	w := remoteai.NewWorker(store, remoteai.WorkerOptions{
		Concurrency: cfg.AIWorkers,
		ClaimAfter:  cfg.AIClaimAfter,
		Drain:       workerDrain,
		Logger:      log,
		Observe: func(kind string, level int, outcome string, took time.Duration) {
			jobs.WithLabelValues(kind, outcome).Inc()
			if kind == storage.AIJobMove && outcome == remoteai.OutcomeOK {
				m.AIThink(strconv.Itoa(level), took)
			}
		},
	})
	busy := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "reversi_worker_busy",
		Help: "AI jobs the worker is handling now.",
	}, func() float64 { return float64(w.Busy()) })
	m.Registry().MustRegister(jobs, busy)

	errc := make(chan error, 1)
	srv, err := serveMetrics(cfg, m, store, errc, log)
	if err != nil {
		return err
	}
	log.Info("AI worker taking jobs", "worker", w.Name(), "searches", cfg.AIWorkers, "claim_after", cfg.AIClaimAfter)
	wctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		_ = w.Run(wctx) // returns nil once wctx ends
		close(done)
	}()
	var runErr error
	select {
	case <-ctx.Done():
	case runErr = <-errc:
	}
	log.Info("stopping: finishing searches in flight")
	stop()
	<-done
	if srv != nil {
		shutdownServers([]*http.Server{srv})
	}
	return runErr
}

// serveMetrics serves /metrics and /healthz on METRICS_ADDR, unless it is "off" (then it returns
// a nil server).
func serveMetrics(cfg Config, m *metrics.Metrics, store *storage.Store, errc chan<- error, log *slog.Logger) (*http.Server, error) {
	if cfg.MetricsAddr == "off" {
		return nil, nil
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.Handler())
	mux.Handle("GET /healthz", healthHandler(store))
	srv, err := listen(cfg.MetricsAddr, mux, errc)
	if err != nil {
		return nil, fmt.Errorf("METRICS_ADDR: %w", err)
	}
	log.Info("serving /metrics and /healthz", "addr", srv.Addr)
	return srv, nil
}

// Timeouts of the HTTP servers (webhook, metrics): a client that sends slowly, never finishes
// a request or keeps idle connections open cannot hold the server's connections for long.
// Telegram's webhook requests are small and answered at once; a scrape takes milliseconds.
const (
	httpReadHeaderTimeout = 10 * time.Second
	httpReadTimeout       = 30 * time.Second
	httpWriteTimeout      = 30 * time.Second
	httpIdleTimeout       = 2 * time.Minute
)

// newServer returns an HTTP server for h with the timeouts above.
func newServer(addr string, h http.Handler) *http.Server {
	return &http.Server{Addr: addr, Handler: h, ReadHeaderTimeout: httpReadHeaderTimeout,
		ReadTimeout: httpReadTimeout, WriteTimeout: httpWriteTimeout, IdleTimeout: httpIdleTimeout}
}

// listen starts an HTTP server on addr; a failure after start-up is sent to errc.
func listen(addr string, h http.Handler, errc chan<- error) (*http.Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	srv := newServer(ln.Addr().String(), h)
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			errc <- err
		}
	}()
	return srv, nil
}

func shutdownServers(servers []*http.Server) {
	ctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	for _, s := range servers {
		_ = s.Shutdown(ctx)
	}
}

// healthHandler answers 200 when Redis answers within a second, 503 otherwise.
func healthHandler(store *storage.Store) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), time.Second)
		defer cancel()
		if err := store.Ping(ctx); err != nil {
			http.Error(w, "redis: unavailable", http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintln(w, "ok")
	})
}
