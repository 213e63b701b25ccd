package main

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/reversibot/reversi/bot"
	"github.com/reversibot/reversi/bot/e2e"
	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/engine/ai"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/storage"
)

// Load runs one load test as cfg says and returns what it measured. Progress and the bots'
// warnings go to logw. It fails when the setup fails (a port, Redis, the bot's start);
// errors during the run are counted in the Result.
func Load(ctx context.Context, cfg Config, logw io.Writer) (Result, error) {
	if err := cfg.validate(); err != nil {
		return Result{}, err
	}
	var fakeOpts []telegramtest.ServerOption
	if cfg.Limits {
		fakeOpts = append(fakeOpts, telegramtest.WithFloodLimits(floodLimits(cfg)))
	}
	srv, err := telegramtest.Listen(fakeOpts...)
	if err != nil {
		return Result{}, err
	}
	defer srv.Close()
	obs := newObserver(srv)
	obs.swallowWebhook = len(cfg.Targets) > 0 || (cfg.Spawn != "" && cfg.Procs > 1)
	var clock *boardClock // times the board edits under -limits
	if cfg.Limits {
		clock = newBoardClock(srv)
		obs.edited = clock.edited
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return Result{}, fmt.Errorf("listen %s: %w", cfg.Addr, err)
	}
	hs := &http.Server{Handler: obs, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	defer hs.Close()
	apiURL := "http://" + ln.Addr().String()

	var (
		redisStore *storage.Store // the bots' Redis, for its CPU figures; nil when unknown
		stopBots   func()
		bots       []proc // the bot processes, in -external and -targets modes
	)
	external := cfg.External || len(cfg.Targets) > 0 || cfg.Spawn != ""
	targets := cfg.Targets
	if err := pickPictureAddr(&cfg); err != nil {
		return Result{}, err
	}
	var f *fleet
	if cfg.Spawn != "" {
		if f, ctx, err = spawn(ctx, cfg, apiURL, srv.Token(), logw); err != nil {
			return Result{}, err
		}
		defer f.stop(logw) // after the balancer stops, before the fake server closes
		targets, cfg.PIDs = f.targets(), f.pids()
	}
	if external {
		stopBots, err = waitExternal(ctx, cfg, targets, srv, obs, apiURL, logw)
	} else {
		redisStore, stopBots, err = startBots(ctx, cfg, apiURL, logw)
	}
	if err != nil {
		return Result{}, err
	}
	defer stopBots()
	if external {
		if bots, err = botProcs(cfg, ln.Addr().(*net.TCPAddr).Port); err != nil {
			fmt.Fprintln(logw, "reversiload: no CPU figures of the bots:", err)
		}
		if cfg.RedisURL != "" {
			if redisStore, err = storage.Open(ctx, cfg.RedisURL, storage.Options{}); err != nil {
				fmt.Fprintln(logw, "reversiload: no CPU figure of Redis:", err)
			} else {
				defer redisStore.Close()
			}
		}
	}

	var picPaths []string
	picGames := 0
	if cfg.Pictures > 0 {
		if picPaths, picGames, err = newDriver(srv).gatherPictures(ctx, cfg.PicAddrs); err != nil {
			return Result{}, err
		}
	}

	runCtx, cancel := context.WithTimeout(ctx, cfg.Duration)
	defer cancel()
	d := newDriver(srv)
	d.clock = clock
	d.level, d.pace, d.budget, d.stopAll = cfg.Level, newPacer(cfg.Rate), cfg.Moves, cancel
	d.think = thinker(cfg.Think)
	if cfg.Limits {
		// A player's wait may take several of a group's budget intervals (a game's end and
		// the next lobby and board in one group): ten of them, on top of the usual bound.
		g := floodLimits(cfg).PerGroup
		d.step += 10 * g.Per / time.Duration(g.N)
	}

	aiChats := int(float64(cfg.Chats)*cfg.AIShare + 0.5)
	pairs := (cfg.Chats - aiChats) / 2
	d.each = cfg.Each
	for kind, n := range map[string]int{"people": pairs, "ai": aiChats, "group": cfg.Groups} {
		if n > 0 {
			d.kinds = append(d.kinds, kind)
		}
	}
	cpu0, redis0, bots0, start := cpuTime(), redisCPU(redisStore), botsCPU(bots), time.Now()
	d.start = start
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
	for i := range cfg.Groups {
		a := srv.NewUser(fmt.Sprintf("GA%d", i), "en")
		b := srv.NewUser(fmt.Sprintf("GB%d", i), "en")
		g := srv.NewGroup(fmt.Sprintf("Load %d", i), a, b)
		rng := rand.New(rand.NewPCG(cfg.Seed, uint64(pairs+aiChats+i)))
		wg.Go(func() { d.group(runCtx, g, a, b, rng) })
	}
	flood := floodRun(runCtx, cfg, d, &wg)
	pictures := pictureRun(runCtx, cfg, d, picPaths, pictureBases(cfg, f), picGames, cfg.PIDs, &wg)
	soak := soakRun(runCtx, cfg, cfg.PIDs, &wg)
	wg.Wait()
	elapsed := time.Since(start)
	var exited *exitError
	if errors.As(context.Cause(ctx), &exited) {
		return Result{}, exited
	}
	res := Result{Elapsed: elapsed, PeopleMoves: d.peopleMoves.Load(), AIMoves: d.aiMoves.Load(), GroupMoves: d.groupMoves.Load(),
		Games: d.games.Load(), Errors: d.errorCounts(), CPU: cpuTime() - cpu0, Bots: max(cfg.Bots, len(targets)),
		InProcess: !external, Ack: map[string]Summary{}, Board: map[string]Summary{}, Flood: flood(),
		Pictures: pictures(), Soak: soak()}
	if cfg.Limits {
		res.Limits = &LimitStats{Speedup: cfg.Speedup, PaceSpeedup: cfg.Speedup, TooMany: tooMany(srv),
			Lag: map[string]Summary{}, Worst: d.worstLags()}
		for _, k := range gameKinds {
			res.Limits.Lag[k] = d.lag[k].summary()
		}
	}
	if cfg.External || (cfg.Spawn != "" && cfg.Procs == 1) {
		res.Bots = 1
	}
	if r0, r1 := redis0, redisCPU(redisStore); r0 > 0 && r1 >= r0 {
		res.RedisCPU = r1 - r0
	}
	for i, b1 := range botsCPU(bots) {
		if b0 := bots0[i]; b0.CPU >= 0 && b1.CPU >= b0.CPU {
			b1.CPU -= b0.CPU
			res.BotCPU = append(res.BotCPU, b1)
		}
	}
	for _, k := range gameKinds {
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

// startBots starts cfg.Bots bots in this process over one Redis (an embedded one when
// cfg.RedisURL is empty): one long-polls the fake server; several sit behind an e2e.Balancer
// that hands the updates round robin to their webhook handlers. Each bot has a connection
// pool of its own, as a process would. It returns the first bot's store and a stop function
// that waits for the bots' work and deletes the run's keys.
func startBots(ctx context.Context, cfg Config, apiURL string, logw io.Writer) (*storage.Store, func(), error) {
	var b [6]byte
	_, _ = crand.Read(b[:])
	opts := storage.Options{Prefix: "load:" + hex.EncodeToString(b[:]) + ":"}
	first, err := storage.Open(ctx, cfg.RedisURL, opts)
	if err != nil {
		return nil, nil, fmt.Errorf("redis: %w", err)
	}
	if first.Embedded() {
		fmt.Fprintln(logw, "reversiload: no -redis/REDIS_URL: the bots use an embedded Redis (figures are not those of a real Redis)")
	}
	stores := []*storage.Store{first}
	cleanup := func() {
		sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if !first.Embedded() {
			if _, err := first.DeleteAll(sctx); err != nil {
				fmt.Fprintln(logw, "reversiload: delete the run's keys:", err)
			}
		}
		for i := len(stores) - 1; i >= 0; i-- { // the first last: it owns an embedded server
			stores[i].Close()
		}
	}
	log := slog.New(slog.NewTextHandler(logw, &slog.HandlerOptions{Level: slog.LevelError}))
	var bots []*bot.Running
	var services []func() // close the bots' Services, after the bots
	closeServices := func() {
		for _, c := range services {
			c()
		}
	}
	for i := range cfg.Bots {
		st := first
		if i > 0 {
			if first.Embedded() {
				st = storage.New(first.Client(), opts) // one embedded server for all
			} else if st, err = storage.Open(ctx, cfg.RedisURL, opts); err != nil {
				cleanup()
				return nil, nil, fmt.Errorf("redis: %w", err)
			}
			stores = append(stores, st)
		}
		budget := wideBudget
		if cfg.Flood {
			budget = bot.DefaultBudget
		}
		// Each bot runs the real AI on AIWorkers workers of its own, with processors of their
		// own (as cmd/reversibot gives them).
		pool := game.NewAIPool(cfg.AIWorkers, 0)
		if want := runtime.NumCPU() + pool.Workers(); runtime.GOMAXPROCS(0) < want {
			runtime.GOMAXPROCS(want)
		}
		svc := game.New(game.Config{Store: st, Mover: &ai.Player{}, Pool: pool, Logger: log.With("bot", i)})
		services = append(services, func() { svc.Close(); pool.Close() })
		opts := bot.Options{Token: telegramtest.DefaultToken, APIURL: apiURL,
			Service: svc, Players: game.NewPlayers(st), Dedupe: st, RateLimiter: st, Drawings: st,
			Logger: log.With("bot", i), Budget: budget,
			NoPace:    true, // the fake sets no flood limits: measure the bot's own pace
			PublicURL: cfg.picturePublicURL()}
		if cfg.Limits { // pace as production does, over budgets shared through Redis
			opts.NoPace, opts.Pace, opts.PaceBudgets = false, paceLimits(cfg), st.PaceBudgets()
		}
		bt, err := bot.Start(ctx, opts)
		if err != nil {
			closeServices()
			cleanup()
			return nil, nil, err
		}
		bots = append(bots, bt)
	}
	if err := bots[0].Setup(ctx); err != nil {
		closeServices()
		cleanup()
		return nil, nil, err
	}
	stopPictures, err := servePictures(cfg, bots[0])
	if err != nil {
		closeServices()
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
		bal := &e2e.Balancer{APIURL: apiURL, Token: telegramtest.DefaultToken, Targets: targets, Secret: cfg.Secret,
			Parallel: webhookConnections}
		go func() {
			defer close(done)
			if err := bal.Run(runCtx); err != nil {
				fmt.Fprintln(logw, "reversiload: balancer:", err)
			}
		}()
	}
	stop := func() {
		stopPictures()
		cancel()
		<-done
		sctx, c2 := context.WithTimeout(context.Background(), 30*time.Second)
		defer c2()
		for _, bt := range bots {
			_ = bt.Shutdown(sctx)
		}
		closeServices()
		cleanup()
	}
	return first, stop, nil
}

// webhookConnections is how many webhook deliveries the balancer keeps in flight: Telegram's
// default max_connections for a webhook.
const webhookConnections = 40

// waitExternal waits until the reversibot processes are there: one long-polling (no
// targets), or every webhook process of targets, which the load command then feeds through
// an e2e.Balancer. Unless this command spawned them, it first prints how to start them
// against the fake server.
func waitExternal(ctx context.Context, cfg Config, targets []string, srv *telegramtest.Server, obs *observer, apiURL string, logw io.Writer) (func(), error) {
	want := max(1, len(targets))
	if cfg.Spawn == "" {
		fmt.Fprintf(logw, "reversiload: start %d reversibot process(es) with TELEGRAM_API_URL=%s TELEGRAM_BOT_TOKEN=%s", want, apiURL, srv.Token())
		if cfg.Limits {
			fmt.Fprintf(logw, " %s (the fake enforces the flood limits ×%d)", envLine(paceEnv(paceLimits(cfg))), cfg.Speedup)
		} else {
			fmt.Fprint(logw, " PACE=off (the fake limits nothing)")
		}
		if len(targets) > 0 {
			fmt.Fprintf(logw, " WEBHOOK_SECRET=%s and WEBHOOK_URL/LISTEN_ADDR matching -targets (the load command delivers the updates)", cfg.Secret)
		}
		fmt.Fprintln(logw)
	}
	wctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	var err error
	if len(targets) > 0 {
		for err == nil { // every process listens before it calls setWebhook
			n, ch := obs.webhookCalls()
			if n >= want {
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
		var exited *exitError
		if errors.As(context.Cause(wctx), &exited) {
			return nil, exited
		}
		return nil, fmt.Errorf("waiting for the bot process(es): %w", err)
	}
	if len(targets) == 0 {
		return func() {}, nil
	}
	var handlers []http.Handler
	for _, t := range targets {
		handlers = append(handlers, forward(t))
	}
	bal := &e2e.Balancer{APIURL: apiURL, Token: srv.Token(), Targets: handlers, Secret: cfg.Secret,
		Parallel: webhookConnections}
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

// cpuTime is the CPU time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// redisCPU is the CPU time the Redis server of s has used, 0 when unknown.
func redisCPU(s *storage.Store) time.Duration {
	if s == nil {
		return 0
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	d, err := s.ServerCPU(ctx)
	if err != nil {
		return 0
	}
	return d
}

// botProcs returns the bot processes of a run: those of -pids, or else those connected to
// the fake Bot API server's port.
func botProcs(cfg Config, port int) ([]proc, error) {
	pids := cfg.PIDs
	if len(pids) == 0 {
		var err error
		if pids, err = peers(port); err != nil {
			return nil, err
		}
		if len(pids) == 0 {
			return nil, fmt.Errorf("no process connected to port %d; name them with -pids", port)
		}
	}
	var out []proc
	for _, pid := range pids {
		name, _, err := procCPU(pid)
		if err != nil {
			return out, fmt.Errorf("process %d: %w", pid, err)
		}
		out = append(out, proc{PID: pid, Name: name})
	}
	return out, nil
}

// botsCPU reads the CPU time of each of ps; -1 for one that cannot be read (it ended).
func botsCPU(ps []proc) []ProcCPU {
	out := make([]ProcCPU, len(ps))
	for i, p := range ps {
		out[i] = ProcCPU{PID: p.PID, Name: p.Name, CPU: -1}
		if _, d, err := procCPU(p.PID); err == nil {
			out[i].CPU = d
		}
	}
	return out
}
