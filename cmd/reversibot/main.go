// Command reversibot runs the Reversi Telegram bot. It reads its configuration from the
// environment (see the README), keeps games in Redis (or an embedded in-memory Redis when
// REDIS_URL is empty), serves /metrics and /healthz, and takes updates by long polling, or by
// webhook when WEBHOOK_URL is set. SIGINT or SIGTERM stop it cleanly: no update is left half
// applied.
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
	"syscall"
	"time"

	"github.com/reversibot/reversi/bot"
	"github.com/reversibot/reversi/bot/metrics"
	"github.com/reversibot/reversi/storage"
)

func main() {
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

// serve wires storage, metrics and the bot, and runs until ctx is done.
func serve(ctx context.Context, cfg Config, log *slog.Logger) error {
	m := metrics.New()
	store, err := storage.Open(ctx, cfg.RedisURL, storage.Options{Prefix: cfg.RedisPrefix, Observe: m.RedisCall})
	if err != nil {
		return fmt.Errorf("open storage: %w", err)
	}
	defer store.Close()
	if store.Embedded() {
		log.Warn("REDIS_URL is empty: games live in an embedded in-memory Redis and nothing survives a restart")
	}

	b, err := bot.New(ctx, bot.Options{
		Token:     cfg.Token,
		APIURL:    cfg.APIURL,
		Store:     store,
		Logger:    log,
		Metrics:   m,
		AIWorkers: cfg.AIWorkers,
		IdleClaim: cfg.IdleClaim,
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
	if cfg.MetricsAddr != "off" {
		mux := http.NewServeMux()
		mux.Handle("GET /metrics", m.Handler())
		mux.Handle("GET /healthz", healthHandler(store))
		srv, err := listen(cfg.MetricsAddr, mux, errc)
		if err != nil {
			return fmt.Errorf("METRICS_ADDR: %w", err)
		}
		log.Info("serving /metrics and /healthz", "addr", srv.Addr)
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

// listen starts an HTTP server on addr; a failure after start-up is sent to errc.
func listen(addr string, h http.Handler, errc chan<- error) (*http.Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Addr: ln.Addr().String(), Handler: h, ReadHeaderTimeout: 10 * time.Second}
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
