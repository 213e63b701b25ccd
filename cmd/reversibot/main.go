// Command reversibot runs the Reversi Telegram bot. It reads its configuration from the
// environment (see the README), keeps games in Redis (or an embedded in-memory Redis when
// REDIS_URL is empty), serves /metrics and /healthz, and takes updates by long polling, or by
// webhook when WEBHOOK_URL is set. With PUBLIC_URL (or, in webhook mode, by default) it
// serves the thumbnails of its inline results on LISTEN_ADDR. SIGINT or SIGTERM stop it
// cleanly: no update is left half applied.
//
// With ROLE=worker it is an AI worker instead: it needs no token, takes the AI searches that
// bots with AI_MODE=remote post to the Redis at REDIS_URL, and answers them; run as many as the
// AI needs CPUs. A worker that dies mid-search leaves its job to the others.
//
// The process is tuned here and nowhere else: GOGC and the Go memory limit (main,
// memlimit.go), GOMAXPROCS raised for the AI's and the drawing's workers (addProcs) and their
// threads' low priority (backgroundThread, the OnSearch of the bot's ai.Player and the
// bot's OnDraw).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/reversibot/reversi/aiworker"
	"github.com/reversibot/reversi/bot"
	"github.com/reversibot/reversi/engine/ai"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/metrics"
	"github.com/reversibot/reversi/render"
	"github.com/reversibot/reversi/storage"
	"github.com/reversibot/reversi/webapp"
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
	mem := memoryLimitFor(os.Getenv, os.DirFS("/")).apply()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Getenv, os.Stderr, mem)
	stop()
	os.Exit(code)
}

// run is the whole program without the process (whose memory limit is mem): it returns when
// ctx is cancelled (a signal) or start-up fails, with the exit code.
func run(ctx context.Context, getenv func(string) string, stderr io.Writer, mem memoryLimit) int {
	cfg, err := LoadConfig(getenv)
	if err != nil {
		fmt.Fprintf(stderr, "reversibot: bad configuration:\n%v\n", err)
		return 2
	}
	log := newLogger(cfg, stderr)
	mem.log(log)
	m := NewMain(cfg, log)
	err = m.Run(ctx)
	if err == nil {
		err = m.Wait(ctx)
		if m.Worker != nil {
			log.Info("stopping: finishing searches in flight", "grace", cfg.StopGrace.String())
		} else {
			log.Info("stopping: finishing updates in flight", "grace", cfg.StopGrace.String())
		}
	}
	if cerr := m.closeWithin(cfg.StopGrace + stopOverrun); cerr != nil {
		err = errors.Join(err, cerr)
	}
	if err != nil {
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

// Main is the whole program as a value, so that a test can start it in-process: Run wires
// storage, metrics and the bot (or, for ROLE=worker, the AI worker) and starts serving; Wait
// blocks while it serves; Close stops it cleanly, letting the updates (or searches) in flight
// finish. The fields are set by Run and may be read once it returned nil.
type Main struct {
	Config  Config
	Log     *slog.Logger
	Metrics *metrics.Metrics
	Store   *storage.Store
	// Service hosts the games and Players keeps what is known of people, over Store; nil for
	// ROLE=worker.
	Service *game.Service
	Players *game.Players
	// Bot is the Telegram side and Parts its long-running parts (turn reminders, offers'
	// expiries, the search sweeper, reviews and replays, pictures), which Run starts and
	// Close stops around the bot's shutdown; nil for ROLE=worker.
	Bot   *bot.Bot
	Parts bot.Parts
	// Worker answers AI jobs; nil unless ROLE=worker.
	Worker *aiworker.Worker

	remote  *aiworker.Mover               // AI_MODE=remote's mover, closed after the bot
	pool    *game.AIPool                  // the Service's AI slots, closed after the bot
	reviews *game.AIPool                  // AI_MODE=remote: the pool of reviews, closed after the bot
	servers []*http.Server                // webhook and metrics, shut down first
	app     atomic.Pointer[webapp.Server] // the Mini App's server, with PUBLIC_URL; its watches end before the servers
	failed  chan error                    // failures after start-up: a server, polling
	stop    context.CancelFunc
	done    chan struct{} // closed when polling or the worker has returned
}

// NewMain returns a Main for cfg that logs to log; nothing runs before Run.
func NewMain(cfg Config, log *slog.Logger) *Main {
	return &Main{Config: cfg, Log: log, failed: make(chan error, 4)}
}

// Run opens the store and starts the program the configuration describes. It returns once
// updates (or AI jobs) are being taken, or with the reason start-up failed; call Close in
// both cases. ctx bounds start-up only: Close ends the program.
func (m *Main) Run(ctx context.Context) error {
	cfg, log := m.Config, m.Log
	m.Metrics = metrics.New()
	store, err := storage.Open(ctx, cfg.RedisURL, storage.Options{Prefix: cfg.RedisPrefix, Observe: m.Metrics.RedisCall})
	if err != nil {
		return fmt.Errorf("open storage: %w", err)
	}
	m.Store = store
	go m.preload(cfg.Role != RoleWorker)
	if cfg.Role == RoleWorker {
		return m.runWorker()
	}
	if store.Embedded() {
		log.Warn("REDIS_URL is empty: games live in an embedded in-memory Redis and nothing survives a restart")
	} else {
		warnMemoryRisks(ctx, store, log)
	}

	// With AI_MODE=remote the searches run on workers and the bot's AI slots only wait for
	// them; otherwise they run here, at background priority, with processors of their own.
	m.pool = game.NewAIPool(cfg.AIWorkers, 0)
	reviews := m.pool // games' reviews run as idle work on the AI's workers
	var mover game.Mover
	if cfg.AIMode == AIRemote {
		m.remote = aiworker.NewMover(store, aiworker.MoverOptions{Logger: log})
		mover = m.remote
		m.registerRemoteAI()
		m.reviews = game.NewAIPool(runtime.GOMAXPROCS(0), 0) // the AI's slots only wait
		reviews = m.reviews
		addProcs(cfg.DrawWorkers)
	} else {
		mover = &ai.Player{OnSearch: backgroundThread, NoBook: cfg.NoBook}
		addProcs(m.pool.Workers() + cfg.DrawWorkers)
	}
	m.Service = game.New(game.Config{Store: store, Mover: mover, Pool: m.pool, ReviewPool: reviews,
		OnReviewStep: backgroundThread, IdleAfter: cfg.IdleClaim, Logger: log})
	m.Players = game.NewPlayers(store)

	b, err := bot.New(ctx, bot.Options{
		Token:       cfg.Token,
		APIURL:      cfg.APIURL,
		Service:     m.Service,
		Players:     m.Players,
		Dedupe:      store,
		RateLimiter: store,
		Logger:      log,
		Metrics:     m.Metrics,

		Budget:      cfg.Budget,
		MaxHandlers: cfg.MaxHandlers,
		WebhookWait: cfg.WebhookWait,

		Pace:        cfg.Pace,
		PaceBudgets: store.PaceBudgets(),
		Drawings:    store,
		NoPace:      cfg.NoPace,

		Reminders:   store,
		Offers:      store,
		RemindAfter: cfg.RemindAfter,
		PublicURL:   cfg.PublicURL,
		MiniAppName: cfg.MiniAppName,
		DrawWorkers: cfg.DrawWorkers,
		OnDraw:      backgroundThread,
		OnGameChange: func(g *game.Game) {
			if app := m.app.Load(); app != nil {
				app.Changed(g) // wakes the Mini App pages that show g
			}
		},
	})
	if err != nil {
		return fmt.Errorf("start bot: %w", err)
	}
	m.Bot, m.Parts = b, b.Parts()
	m.Parts.Start()
	m.registerDrawing()
	if cfg.PublicURL != "" {
		app, err := webapp.New(webapp.Options{Token: cfg.Token, Games: b.MiniApp(), Logger: log})
		if err != nil {
			return fmt.Errorf("start the Mini App: %w", err)
		}
		m.app.Store(app)
	}
	if err := b.Setup(ctx); err != nil {
		log.Warn("could not register the bot's commands; continuing", "err", err)
	}
	if err := m.serveMetrics(); err != nil {
		return err
	}
	if cfg.WebhookURL != "" {
		return m.serveWebhook(ctx)
	}
	if cfg.PublicURL != "" {
		// No webhook server to share: LISTEN_ADDR serves the thumbnails alone.
		srv, err := m.serveListenAddr(http.NewServeMux())
		if err != nil {
			return err
		}
		log.Info("serving inline thumbnails", "listen", srv.Addr, "public", cfg.PublicURL)
	}
	log.Info("taking updates by long polling")
	pctx, stop := context.WithCancel(context.Background())
	m.stop, m.done = stop, make(chan struct{})
	go func() {
		defer close(m.done)
		if err := b.RunPolling(pctx); err != nil && !errors.Is(err, context.Canceled) {
			m.failed <- err
		}
	}()
	return nil
}

// registerRemoteAI exports the remote mover's counters.
func (m *Main) registerRemoteAI() {
	remote := m.remote
	m.Metrics.Registry().MustRegister(
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "reversi_remote_ai_dropped_total",
			Help: "AI results from workers that nobody waited for any more (late, or answered twice).",
		}, func() float64 { return float64(remote.Stats().Dropped) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "reversi_remote_ai_malformed_total",
			Help: "Entries of this bot's AI reply stream that were not results.",
		}, func() float64 { return float64(remote.Stats().Malformed) }),
	)
	m.Log.Info("AI searches run on workers (AI_MODE=remote)", "front", remote.Front(), "waiting_slots", m.Config.AIWorkers)
}

// serveListenAddr serves mux on LISTEN_ADDR with /healthz and the inline thumbnails added,
// until Close.
func (m *Main) serveListenAddr(mux *http.ServeMux) (*http.Server, error) {
	mux.Handle("GET /healthz", healthHandler(m.Store))
	m.serveThumbnails(mux)
	srv, err := listen(m.Config.ListenAddr, mux, m.failed)
	if err != nil {
		return nil, fmt.Errorf("LISTEN_ADDR: %w", err)
	}
	m.servers = append(m.servers, srv)
	return srv, nil
}

// serveWebhook serves the webhook on LISTEN_ADDR and tells Telegram where it is.
func (m *Main) serveWebhook(ctx context.Context) error {
	cfg := m.Config
	u, _ := url.Parse(cfg.WebhookURL) // validated by LoadConfig
	path := u.Path
	if path == "" {
		path = "/"
	}
	mux := http.NewServeMux()
	mux.Handle("POST "+path, m.Bot.WebhookHandler(cfg.WebhookSecret))
	srv, err := m.serveListenAddr(mux)
	if err != nil {
		return err
	}
	if err := m.Bot.SetWebhook(ctx, cfg.WebhookURL, cfg.WebhookSecret); err != nil {
		return fmt.Errorf("set webhook: %w", err)
	}
	m.Log.Info("taking updates by webhook", "listen", srv.Addr, "path", path)
	return nil
}

// serveThumbnails mounts on mux under PUBLIC_URL's path, when PUBLIC_URL is set, what Telegram
// and its clients fetch from there: the inline thumbnails, the boards' pictures and the Mini
// App (a proxy that forwards PUBLIC_URL to LISTEN_ADDR keeps the path).
func (m *Main) serveThumbnails(mux *http.ServeMux) {
	if m.Config.PublicURL == "" {
		return
	}
	prefix := ""
	if u, err := url.Parse(m.Config.PublicURL); err == nil { // validated by LoadConfig
		prefix = strings.TrimRight(u.Path, "/")
	}
	mux.Handle("GET "+prefix+bot.ThumbnailPath, http.StripPrefix(prefix, m.Parts.Pictures.Thumbnails()))
	mux.Handle("GET "+prefix+bot.PicturePath, http.StripPrefix(prefix, m.Parts.Pictures.Handler()))
	if app := m.app.Load(); app != nil {
		appPath := prefix + strings.TrimSuffix(bot.MiniAppPath, "/")
		mux.Handle(appPath+"/", http.StripPrefix(appPath, app.Handler()))
		mux.Handle(appPath, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			to := appPath + "/"
			if r.URL.RawQuery != "" {
				to += "?" + r.URL.RawQuery // the game the page is to show
			}
			http.Redirect(w, r, to, http.StatusMovedPermanently)
		}))
	}
}

// Wait blocks until ctx is done (nil) or the program fails after start-up (that failure).
func (m *Main) Wait(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return nil
	case err := <-m.failed:
		return err
	}
}

// Close stops what Run started, in order, within Config.StopGrace (see stop.go): no new
// updates (servers, polling), the updates or searches in flight finished (given all of the
// grace but stopReserve, and cut short after it), then the remote AI and the store. It is
// safe after a failed Run.
func (m *Main) Close() error {
	deadline := time.Now().Add(m.stopGrace() - stopReserve(m.stopGrace()))
	if app := m.app.Swap(nil); app != nil {
		app.Close() // its held watches answer now, so the servers need not wait for them
	}
	shutdownServers(m.servers, deadline)
	m.servers = nil
	if m.stop != nil {
		m.stop()
		<-m.done
		m.stop = nil
	}
	var err error
	if m.Bot != nil {
		if serr := m.stopBot(deadline); serr != nil {
			err = fmt.Errorf("shutdown: %w", serr)
		}
		m.Bot, m.Parts = nil, bot.Parts{}
	}
	if m.Service != nil {
		m.Service.Close() // after Shutdown: no handler calls it any more
		m.pool.Close()
		if m.reviews != nil {
			m.reviews.Close()
		}
		m.Service, m.Players, m.pool, m.reviews = nil, nil, nil, nil
	}
	if m.remote != nil {
		m.remote.Close() // after Shutdown: no handler waits for it any more
		m.remote = nil
	}
	if m.Store != nil {
		m.Store.Close()
		m.Store = nil
	}
	return err
}

// workerDrain is how long a stopping worker lets its searches in flight finish and post their
// answers: above the slowest search (2 s).
const workerDrain = 3 * time.Second

// preload decodes the AI's embedded tables and, when pictures is set, draws the parts of the
// board pictures, while the program starts: left to the first move and the first picture of
// each size, they would keep that player waiting 0.05–0.4 s. Requests that come sooner wait
// for what they need, as they would have without it.
func (m *Main) preload(pictures bool) {
	start := time.Now()
	if err := ai.Preload(); err != nil {
		m.Log.Error("the AI's embedded tables are broken", "err", err)
		return
	}
	if pictures {
		render.Preload(game.Sizes)
	}
	m.Log.Info("preloaded the AI's tables", "pictures", pictures, "ms", time.Since(start).Milliseconds())
}

// runWorker starts the AI worker (ROLE=worker): it answers the AI jobs that bots with
// AI_MODE=remote post, AI_WORKERS at a time, and serves /metrics and /healthz.
func (m *Main) runWorker() error {
	cfg, log := m.Config, m.Log
	jobs := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "reversi_worker_jobs_total",
		Help: "AI jobs a worker handled, by kind (move, hint) and outcome (ok, failed, expired, malformed, abandoned, unposted).",
	}, []string{"kind", "outcome"})
	searcher := ai.NewPlayer(rand.Uint64())
	searcher.NoBook = cfg.NoBook
	w := aiworker.NewWorker(m.Store, aiworker.WorkerOptions{
		Searcher:    searcher,
		Concurrency: cfg.AIWorkers,
		ClaimAfter:  cfg.AIClaimAfter,
		Drain:       workerDrain,
		Logger:      log,
		Observe: func(kind string, level int, outcome string, took time.Duration) {
			jobs.WithLabelValues(kind, outcome).Inc()
			if kind == game.AIJobMove && outcome == aiworker.OutcomeOK {
				m.Metrics.AIThink(strconv.Itoa(level), took)
			}
		},
	})
	busy := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "reversi_worker_busy",
		Help: "AI jobs the worker is handling now.",
	}, func() float64 { return float64(w.Busy()) })
	m.Metrics.Registry().MustRegister(jobs, busy)
	m.Worker = w

	if err := m.serveMetrics(); err != nil {
		return err
	}
	log.Info("AI worker taking jobs", "worker", w.Name(), "searches", cfg.AIWorkers, "claim_after", cfg.AIClaimAfter)
	wctx, stop := context.WithCancel(context.Background())
	m.stop, m.done = stop, make(chan struct{})
	go func() {
		defer close(m.done)
		_ = w.Run(wctx) // returns nil once wctx ends
	}()
	return nil
}

// serveMetrics serves /metrics and /healthz on METRICS_ADDR, unless it is "off".
func (m *Main) serveMetrics() error {
	if m.Config.MetricsAddr == "off" {
		return nil
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.Metrics.Handler())
	mux.Handle("GET /healthz", healthHandler(m.Store))
	srv, err := listen(m.Config.MetricsAddr, mux, m.failed)
	if err != nil {
		return fmt.Errorf("METRICS_ADDR: %w", err)
	}
	m.servers = append(m.servers, srv)
	m.Log.Info("serving /metrics and /healthz", "addr", srv.Addr)
	return nil
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

// shutdownServers stops the servers taking requests and lets the requests in flight finish
// until deadline.
func shutdownServers(servers []*http.Server, deadline time.Time) {
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
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
