package main

import (
	"bufio"
	"bytes"
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/reversibot/reversi/bot"
	"github.com/reversibot/reversi/bot/e2e"
	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/storage"
)

// Load runs one load test as cfg says and returns what it measured. Progress and the bots'
// warnings go to logw. It fails when the setup fails (a port, Redis, the bot's start);
// errors during the run are counted in the Result.
func Load(ctx context.Context, cfg Config, logw io.Writer) (Result, error) {
	if err := cfg.validate(); err != nil {
		return Result{}, err
	}
	srv, err := telegramtest.Listen()
	if err != nil {
		return Result{}, err
	}
	defer srv.Close()
	obs := newObserver(srv)
	obs.swallowWebhook = len(cfg.Targets) > 0
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return Result{}, fmt.Errorf("listen %s: %w", cfg.Addr, err)
	}
	hs := &http.Server{Handler: obs, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	defer hs.Close()
	apiURL := "http://" + ln.Addr().String()

	var (
		redisClient redis.UniversalClient // the bots' Redis, for its CPU figures
		stopBots    func()
	)
	switch {
	case cfg.External || len(cfg.Targets) > 0:
		stopBots, err = waitExternal(ctx, cfg, srv, obs, apiURL, logw)
	default:
		redisClient, stopBots, err = startBots(ctx, cfg, apiURL, logw)
	}
	if err != nil {
		return Result{}, err
	}
	defer stopBots()

	runCtx, cancel := context.WithTimeout(ctx, cfg.Duration)
	defer cancel()
	d := newDriver(srv, obs.note)
	d.level, d.pace, d.budget, d.stopAll = cfg.Level, newPacer(cfg.Rate), cfg.Moves, cancel

	aiChats := int(float64(cfg.Chats)*cfg.AIShare + 0.5)
	pairs := (cfg.Chats - aiChats) / 2
	cpu0, redis0, start := cpuTime(), redisCPU(redisClient), time.Now()
	var wg sync.WaitGroup
	for i := range pairs {
		a := srv.NewUser(fmt.Sprintf("A%d", i), "en")
		b := srv.NewUser(fmt.Sprintf("B%d", i), "en")
		rng := rand.New(rand.NewPCG(cfg.Seed, uint64(i)))
		wg.Go(func() { d.people(runCtx, a, b, rng) })
	}
	for i := range aiChats {
		u := srv.NewUser(fmt.Sprintf("S%d", i), "en")
		rng := rand.New(rand.NewPCG(cfg.Seed, uint64(pairs+i)))
		wg.Go(func() { d.ai(runCtx, u, rng) })
	}
	wg.Wait()
	elapsed := time.Since(start)
	res := Result{Elapsed: elapsed, PeopleMoves: d.peopleMoves.Load(), AIMoves: d.aiMoves.Load(),
		Games: d.games.Load(), Errors: d.errorCounts(), CPU: cpuTime() - cpu0, Bots: max(cfg.Bots, len(cfg.Targets)),
		Ack: map[string]Summary{}, Board: map[string]Summary{}}
	if cfg.External {
		res.Bots = 1
	}
	if redisClient != nil {
		if r1 := redisCPU(redisClient); r1 > 0 {
			res.RedisCPU = r1 - redis0
		}
	}
	for _, k := range []string{"people", "ai"} {
		res.Ack[k], res.Board[k] = d.ack[k].summary(), d.board[k].summary()
	}
	failed, calls := obs.failures()
	res.APICalls = calls
	for k, v := range failed {
		if strings.HasPrefix(k, "getupdates ") {
			continue // a long poll ended by the run's end or a second poller
		}
		res.Errors["api "+k] += v
	}
	return res, nil
}

// startBots starts cfg.Bots bots in this process over one Redis: one long-polls the fake
// server; several sit behind an e2e.Balancer that hands the updates round robin to their
// webhook handlers. It returns the Redis client (nil when embedded) and a stop function that
// waits for the bots' work and deletes the run's keys.
func startBots(ctx context.Context, cfg Config, apiURL string, logw io.Writer) (redis.UniversalClient, func(), error) {
	url := cfg.RedisURL
	var cleanups []func()
	cleanup := func() {
		for i := len(cleanups) - 1; i >= 0; i-- {
			cleanups[i]()
		}
	}
	embedded := url == ""
	if embedded {
		m := miniredis.NewMiniRedis()
		if err := m.Start(); err != nil {
			return nil, nil, err
		}
		cleanups = append(cleanups, m.Close)
		url = "redis://" + m.Addr()
		fmt.Fprintln(logw, "reversiload: no -redis/REDIS_URL: the bots use an embedded Redis (figures are not those of a real Redis)")
	}
	var b [6]byte
	_, _ = crand.Read(b[:])
	prefix := "load:" + hex.EncodeToString(b[:]) + ":"
	log := slog.New(slog.NewTextHandler(logw, &slog.HandlerOptions{Level: slog.LevelError}))
	var bots []*bot.Bot
	var first redis.UniversalClient
	for i := range cfg.Bots {
		client, err := storage.NewClient(url)
		if err != nil {
			cleanup()
			return nil, nil, err
		}
		cleanups = append(cleanups, func() { client.Close() })
		if first == nil {
			first = client
			cleanups = append(cleanups, func() { deletePrefix(client, prefix) })
		}
		st := storage.New(client, storage.Options{Prefix: prefix})
		if err := st.Ping(ctx); err != nil {
			cleanup()
			return nil, nil, fmt.Errorf("redis: %w", err)
		}
		bt, err := bot.New(ctx, bot.Options{Token: telegramtest.DefaultToken, APIURL: apiURL, Store: st,
			Logger: log.With("bot", i), AIWorkers: cfg.AIWorkers})
		if err != nil {
			cleanup()
			return nil, nil, err
		}
		bots = append(bots, bt)
	}
	if err := bots[0].Setup(ctx); err != nil {
		cleanup()
		return nil, nil, err
	}
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	if len(bots) == 1 {
		go func() {
			defer close(done)
			if err := bots[0].RunPolling(runCtx); err != nil {
				fmt.Fprintln(logw, "reversiload: polling:", err)
			}
		}()
	} else {
		var targets []http.Handler
		for _, bt := range bots {
			targets = append(targets, bt.WebhookHandler(cfg.Secret))
		}
		bal := &e2e.Balancer{APIURL: apiURL, Token: telegramtest.DefaultToken, Targets: targets, Secret: cfg.Secret}
		go func() {
			defer close(done)
			if err := bal.Run(runCtx); err != nil {
				fmt.Fprintln(logw, "reversiload: balancer:", err)
			}
		}()
	}
	stop := func() {
		cancel()
		<-done
		sctx, c2 := context.WithTimeout(context.Background(), 30*time.Second)
		defer c2()
		for _, bt := range bots {
			_ = bt.Shutdown(sctx)
		}
		cleanup()
	}
	if embedded {
		return nil, stop, nil
	}
	return first, stop, nil
}

// waitExternal prints how to point reversibot processes at the fake server and waits until
// they are there: one long-polling (External), or every webhook process of Targets, which
// the load command then feeds through an e2e.Balancer.
func waitExternal(ctx context.Context, cfg Config, srv *telegramtest.Server, obs *observer, apiURL string, logw io.Writer) (func(), error) {
	want := 1
	if len(cfg.Targets) > 0 {
		want = len(cfg.Targets)
	}
	fmt.Fprintf(logw, "reversiload: start %d reversibot process(es) with TELEGRAM_API_URL=%s TELEGRAM_BOT_TOKEN=%s", want, apiURL, srv.Token())
	if len(cfg.Targets) > 0 {
		fmt.Fprintf(logw, " WEBHOOK_SECRET=%s and WEBHOOK_URL/LISTEN_ADDR matching -targets (the load command delivers the updates)", cfg.Secret)
	}
	fmt.Fprintln(logw)
	wctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	var err error
	if len(cfg.Targets) > 0 {
		for err == nil { // every process listens before it calls setWebhook
			n, _, ch := obs.note.watch(webhookKey)
			if n >= int64(want) {
				break
			}
			select {
			case <-ch:
			case <-wctx.Done():
				err = wctx.Err()
			}
		}
	} else {
		err = srv.WaitFor(wctx, func(v telegramtest.View) bool { return v.Calls("getUpdates") >= 1 })
	}
	if err != nil {
		return nil, fmt.Errorf("waiting for the bot process(es): %w", err)
	}
	if len(cfg.Targets) == 0 {
		return func() {}, nil
	}
	var targets []http.Handler
	for _, t := range cfg.Targets {
		targets = append(targets, forward(t))
	}
	bal := &e2e.Balancer{APIURL: apiURL, Token: srv.Token(), Targets: targets, Secret: cfg.Secret}
	runCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := bal.Run(runCtx); err != nil {
			fmt.Fprintln(logw, "reversiload: balancer:", err)
		}
	}()
	return func() { stop(); <-done }, nil
}

// forwardClient posts updates to webhook processes.
var forwardClient = &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 64}}

// forward is a handler that posts the request's body and secret header to target and answers
// with target's status.
func forward(target string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, "read", http.StatusBadRequest)
			return
		}
		req, err := http.NewRequestWithContext(r.Context(), http.MethodPost, target, bytes.NewReader(body))
		if err != nil {
			http.Error(w, "target", http.StatusBadGateway)
			return
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(e2e.SecretHeader, r.Header.Get(e2e.SecretHeader))
		resp, err := forwardClient.Do(req)
		if err != nil {
			http.Error(w, "target down", http.StatusBadGateway)
			return
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		w.WriteHeader(resp.StatusCode)
	})
}

// deletePrefix removes the run's keys.
func deletePrefix(c redis.UniversalClient, prefix string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	iter := c.Scan(ctx, 0, prefix+"*", 1000).Iterator()
	for iter.Next(ctx) {
		c.Unlink(ctx, iter.Val())
	}
}

// cpuTime is the CPU time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// redisCPU is the CPU time the Redis server has used (INFO cpu), 0 when unknown.
func redisCPU(c redis.UniversalClient) time.Duration {
	if c == nil {
		return 0
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	info, err := c.Info(ctx, "cpu").Result()
	if err != nil {
		return 0
	}
	return parseRedisCPU(info)
}

// parseRedisCPU adds used_cpu_sys and used_cpu_user of an INFO cpu answer.
func parseRedisCPU(info string) time.Duration {
	var total float64
	sc := bufio.NewScanner(strings.NewReader(info))
	for sc.Scan() {
		k, v, ok := strings.Cut(strings.TrimSpace(sc.Text()), ":")
		if !ok || (k != "used_cpu_sys" && k != "used_cpu_user") {
			continue
		}
		if f, err := strconv.ParseFloat(v, 64); err == nil && f >= 0 && f < 1e12 {
			total += f
		}
	}
	return time.Duration(total * float64(time.Second))
}
