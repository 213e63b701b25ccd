// Command reversiload puts a Reversi bot under load. It starts a fake Telegram Bot API server
// (package bot/telegramtest) on loopback, in its own process, and drives simulated private
// chats through it: pairs of people playing each other by invitation and people playing the
// AI, each tapping a legal move as soon as their board shows their turn (or at a shared,
// fixed rate); with -groups, also pairs of people playing in group chats (a lobby opened with
// /new, joined with its first button, one board in the group for both). The bot under load is either started in this process, one or more bot.Bot
// values over the Redis at -redis (REDIS_URL), one or more reversibot processes that this
// command starts itself (-spawn), or ones started by hand against the printed
// TELEGRAM_API_URL (-external, -targets). It prints moves per second, the latency
// percentiles of tap → answerCallbackQuery and tap → board edited, CPU use, and the errors
// seen; with -limits, under Telegram's flood limits, also the 429s and the board lag. A run is bounded by -duration and -moves; everything listens on loopback only.
//
// Usage:
//
//	reversiload [-chats N] [-ai F] [-groups G] [-duration D] [-rate R] [-bots K] [-redis URL]
//	reversiload -spawn BINARY [-procs N] [-v] -redis URL                            # reversibot processes started here
//	reversiload ... -flood [-think D]                                               # one more user floods the bot
//	reversiload ... -limits [-speedup K]                                            # under Telegram's flood limits
//	reversiload ... -pictures N [-picture-addrs M]                                  # N clients fetch the board pictures
//	reversiload -external [-addr HOST:PORT] [-redis URL] [-pids PID,...]            # one reversibot, long polling
//	reversiload -targets URL,URL [-secret S] [-addr A] [-redis URL] [-pids PID,...] # reversibot processes, webhook mode
//
// The common flags (-chats, -ai, -groups, -duration, -rate, -moves, -seed, …) apply in every mode.
//
// With -spawn, the simplest way to measure the real binary:
//
//	go build -o /tmp/reversibot ./cmd/reversibot
//	reversiload -spawn /tmp/reversibot -redis redis://127.0.0.1:6379/0 -chats 40 -duration 10s
//	reversiload -spawn /tmp/reversibot -procs 2 -redis redis://127.0.0.1:6379/0 -chats 40 -duration 10s
//
// it starts -procs processes of the binary with this command's environment plus
// TELEGRAM_API_URL and TELEGRAM_BOT_TOKEN of the fake server, REDIS_URL of -redis, a fresh
// REDIS_PREFIX (load:<random hex>:, so no update is taken for a duplicate of an earlier
// run's), METRICS_ADDR=off, LOG_LEVEL=error and, without -flood, USER_RATE=1000 and
// USER_BURST=10000 (the players tap faster than any human: a per-user budget that never
// refuses, though its cost is paid); these override the environment. One process
// long-polls (WEBHOOK_URL empty); several run in webhook mode (WEBHOOK_URL
// https://bot.invalid/hook, WEBHOOK_SECRET of -secret, LISTEN_ADDR a free loopback port)
// and this command hands them the updates round robin. Their CPU rows are those of the
// table below. Their output is kept and shown when one fails, or as it comes with -v; a
// process that ends before the run does fails the run with its last lines. At the end they
// get SIGTERM (SIGKILL 5 s later) and the run's keys are deleted from -redis. -redis must
// name a Redis server (the processes share it), on loopback.
//
// With -external, start the bot as the command says on standard error, for example:
//
//	TELEGRAM_API_URL=http://127.0.0.1:8081 TELEGRAM_BOT_TOKEN=<the printed token> \
//	REDIS_URL=redis://127.0.0.1:6379/5 reversibot
//
// (reversiload -external -addr 127.0.0.1:8081 -redis redis://127.0.0.1:6379/5 fixes the port
// and reads that Redis's CPU). The run starts once the bot polls.
//
// # Report
//
//	elapsed 8.00s, 1 bot(s), 46546 API calls (5818/s)
//	moves: 14015 people + 0 AI = 1752 moves/s; 221 games finished
//	people tap→answer: n=14020 p50=5.81ms p90=10.10ms p99=15.35ms p99.9=19.64ms max=38.29ms
//	people tap→board:  n=14015 p50=10.23ms p90=15.88ms p99=22.33ms p99.9=27.65ms max=40.97ms
//	cpu:                                        cores  per move
//	  this process (fake Bot API + players)      0.57     325µs
//	  bot pid 28672 (reversibot)                 1.06     604µs
//	  redis-server                               0.26     151µs
//	  total (of 2 cores)                         1.89    1081µs
//	redundant edits (message is not modified): 12, 0.0009 per move
//	errors: 0
//
// tap→answer is the time from a player's tap to the bot's answerCallbackQuery as the fake
// server recorded it; tap→board until every board of the game shows the move (in AI games,
// the AI's reply too), as the player saw it. The CPU table gives each process's CPU time
// over the run as cores (CPU seconds per second) and per move (applied taps; the AI's
// replies are not counted): this process (in-process mode: the bots too), each bot process
// and redis-server, so the row that nears the machine's cores names the bottleneck. Bot
// processes are those spawned, those given with -pids, or else every other process with a
// TCP connection to the fake server's port when the run starts (read from /proc/net/tcp and
// /proc/PID/fd; their CPU from /proc/PID/stat, so Linux only). Redis's figure comes from INFO cpu of
// -redis; an embedded Redis has none. A figure that cannot be had shows "-". Redundant edits
// are the edits Telegram refused as "message is not modified": each spends a chat's flood
// budget on nothing (twenty edits a minute in a group), so a run with more than
// MaxRedundantPerMove (0.05) of them a move fails; they are no errors of their own.
//
// With -spawn, -external or -targets only the fake server and the players run in this
// process, and it sets GOGC=400 (unless GOGC is set) so that its garbage collector takes less
// of the cores the bots share; in-process bots keep the default. (Spawned processes do not
// inherit that setting: reversibot picks its own GOGC unless the environment sets one.)
//
// # Flood
//
// With -flood one more user floods the bot while the chats play: it opens a game against the
// AI and taps on that board, alternately its first move (stale after the first tap) and
// garbage callback data, as fast as the bot takes updates (the fake server's queue of updates
// not yet taken is kept at 200 at most: two getUpdates batches). The bots keep their default
// per-user budget, and each player pauses -think (default 250ms with -flood, a fast human's
// pace) before each tap. The report adds the flooder's line: taps sent, taps the bot handled
// (answered other than "slow down"), "slow down" answers and taps left unanswered:
//
//	reversiload -spawn /tmp/reversibot -redis redis://127.0.0.1:6379/0 -chats 200 -flood -duration 10s
//
// # Pictures
//
// With -pictures N the bots (in this process, or spawned) serve their boards' pictures on a
// loopback PUBLIC_URL, and N clients fetch signed picture addresses, gathered from inline
// 16×16 games before the run, as fast as they are answered while the chats play (pictures.go).
// The report adds the fetches by answer and the memory of each bot process under the flood:
//
//	reversiload -spawn /tmp/reversibot -redis redis://127.0.0.1:6379/0 -chats 8 -think 250ms -pictures 16 -duration 20s
//
// # Flood limits
//
// Without -limits the fake server limits nothing and the bots do not pace their sends and
// edits (in-process bots with bot.Options.NoPace, spawned ones with PACE=off): that
// measures the bot's own throughput. With -limits the fake enforces Telegram's flood limits
// (telegramtest.DefaultFloodLimits, counted over every window as Telegram counts them: three
// calls in any second in a chat, twenty in any minute in a group, thirty in any second in
// all; a 429 whose retry_after grows when ignored), -speedup K times as fast, and the bots
// pace themselves as production does (botapi.DefaultPaceLimits over budgets shared through
// Redis: store.PaceBudgets in process, PACE_PRIVATE, PACE_GROUP, PACE_INLINE and
// PACE_GLOBAL for spawned processes, printed for -external and -targets), as fast (at
// K = 100, PACE_GROUP=20/600ms:3): the pacing counts each call from before it leaves until
// its answer came, so it needs no margin for the machine's delays. -each N ends the run once
// every kind of game played has made N moves. The report adds the limits, the 429s the fake
// gave (by chat; any 429 fails the run) and, for each kind of game, the board lag with the
// move that lagged most:
//
//	reversiload -limits -speedup 50 -chats 4 -ai 0.5 -groups 1 -duration 10s
//
// The board lag of a move is how long its board lags behind the game, timed at the fake
// server: from the player's tap that plays it (the moment the fake recorded the tap; a
// player taps only the newest board, on their turn, and only taps the bot accepted count)
// until the fake has accepted the first edit of the game's board that shows the position
// after it (the time the edit's answer leaves the fake, as the observer in front of it
// sees: an upper bound by the microseconds the fake takes to answer). In games between
// people that is every board of the game (one per player in private chats, the one board
// of a group); in an AI game it is the position after the AI's reply too (the player's
// turn again, or the end), which the bot draws in the same edit when it can: so the lag of
// an AI game bounds that of both moves from above and counts the AI's thinking (about a
// millisecond at level 1). tap→board is the same span as the player saw it, after waking
// up. Telegram's figures at -speedup 1 (issue 14): a group game whose players tap as fast
// as the boards appear proceeds at the group's budget, about one move every three seconds,
// with board lag p99 ≤ 3 s; an AI game in a private chat, with board lag p99 ≤ 1.5 s:
//
//	reversiload -limits -chats 0 -groups 1 -duration 90s
//	reversiload -limits -chats 4 -ai 1 -duration 60s
//
// The first printed, on a 2-core machine (ply 1 was tapped at about +6 s: the lobby, its
// buttons and the first board spend the group's budget too):
//
//	elapsed 90.00s, 1 bot(s), 96 API calls (1/s)
//	flood limits: the fake's at Telegram's ×1, the bots pace at ×1
//	moves: 0 people + 0 AI + 27 group = 0.3 moves/s; 0 games finished
//	group  tap→answer: n=28 p50=1.46ms p90=3.77ms p99=7.75ms p99.9=7.75ms max=7.75ms
//	group  tap→board:  n=27 p50=2999.76ms p90=3003.48ms p99=3007.88ms p99.9=3007.88ms max=3007.88ms
//	group  board lag:  n=27 p50=2999.72ms p90=3003.42ms p99=3007.62ms p99.9=3007.62ms max=3007.62ms (worst: chat -1001000000001, ply 6, tapped at +21.0s)
//	429s: 0
//
// It exits 0 after a run without errors, 1 when the run saw errors, more than 0.05 redundant
// edits a move (or, with -limits, a 429), 2 on bad flags.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Config is one load run.
type Config struct {
	Chats      int           // simulated private chats (people: two per game, AI: one)
	Groups     int           // simulated group chats, two players in each (group.go)
	AIShare    float64       // share of the chats playing the AI
	Level      int           // AI level of the AI games
	Duration   time.Duration // how long to drive load
	Moves      int64         // stop after this many moves; 0 means no limit
	Each       int64         // stop once every kind of game played has made this many moves; 0 means no such stop
	Rate       float64       // taps per second for all chats together; 0 means as fast as answered
	Bots       int           // in-process bots (ignored with External or Targets)
	RedisURL   string        // for in-process bots; "" means an embedded Redis
	AIWorkers  int           // AI searches at once per in-process bot; 0 means the bot's default
	External   bool          // a reversibot process takes updates by long polling
	Targets    []string      // webhook URLs of reversibot processes in webhook mode
	Secret     string        // their WEBHOOK_SECRET
	Addr       string        // where the fake Bot API server listens
	Seed       uint64        // seeds the players' choices
	PIDs       []int         // the bot processes whose CPU to report (-external, -targets); nil: find them
	Spawn      string        // a reversibot binary this command starts Procs processes of
	Procs      int           // how many with Spawn: 1 long-polls, more run in webhook mode
	Verbose    bool          // show the spawned processes' output as it comes
	CPUProfile string        // write a CPU profile of this process here
	MutexProf  string        // write a mutex contention profile here
	BlockProf  string        // write a blocking profile here
	Flood      bool          // one more user floods the bot with taps (flood.go)
	Think      time.Duration // each player's pause before each tap
	Limits     bool          // the fake enforces Telegram's flood limits and the bots pace (limits.go)
	Speedup    int           // with Limits: the limits run this many times as fast as Telegram's
	Pictures   int           // clients fetching the bots' board pictures (pictures.go); 0: none
	Soak       time.Duration // how often to sample the bots' RSS over the run (soak.go); 0: not at all
	PicAddrs   int           // distinct picture addresses they cycle through

	pictureAddr string // where the bots serve their pictures under Pictures (pickPictureAddr)
}

// Limits that keep a run bounded.
const (
	maxChats    = 20000
	maxDuration = 10 * time.Minute
)

// parseFlags reads the command line.
func parseFlags(args []string, stderr io.Writer) (Config, error) {
	fs := flag.NewFlagSet("reversiload", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c Config
	var targets string
	fs.IntVar(&c.Chats, "chats", 100, "simulated private chats")
	fs.IntVar(&c.Groups, "groups", 0, "simulated group chats, each with two players who play there (lobby, Join, one board)")
	fs.Float64Var(&c.AIShare, "ai", 0, "share of the chats that play the AI (0…1)")
	fs.IntVar(&c.Level, "level", 1, "AI level of the AI games")
	fs.DurationVar(&c.Duration, "duration", 10*time.Second, "how long to drive load (at most 10m)")
	fs.Int64Var(&c.Moves, "moves", 0, "stop after this many moves (0: no limit)")
	fs.Int64Var(&c.Each, "each", 0, "stop once every kind of game played (between people, against the AI, in groups) has made this many moves (0: no such stop)")
	fs.Float64Var(&c.Rate, "rate", 0, "taps per second for all chats together (0: each player taps as soon as it is their turn)")
	fs.IntVar(&c.Bots, "bots", 1, "in-process bots: 1 long-polls; more sit behind a round-robin balancer")
	fs.StringVar(&c.RedisURL, "redis", os.Getenv("REDIS_URL"), "Redis of the bots (loopback only): in-process bots use it (empty: embedded); with -external or -targets only its CPU is read")
	fs.IntVar(&c.AIWorkers, "ai-workers", 0, "AI searches at once per in-process bot (0: the bot's default)")
	fs.BoolVar(&c.External, "external", false, "drive a reversibot process long-polling the printed TELEGRAM_API_URL")
	fs.StringVar(&targets, "targets", "", "comma-separated webhook URLs (http://127.0.0.1:PORT/PATH) of reversibot processes in webhook mode")
	fs.StringVar(&c.Secret, "secret", "loadtest", "the WEBHOOK_SECRET of -targets")
	fs.StringVar(&c.Addr, "addr", "127.0.0.1:0", "listen address of the fake Bot API server (loopback)")
	fs.Uint64Var(&c.Seed, "seed", 1, "seed of the players' choices")
	fs.StringVar(&c.Spawn, "spawn", "", "start reversibot processes of this binary against the fake server and -redis, with a fresh key prefix, and stop them at the end")
	fs.IntVar(&c.Procs, "procs", 1, "reversibot processes of -spawn: 1 long-polls; more (up to 16) run in webhook mode behind a round-robin balancer")
	fs.BoolVar(&c.Verbose, "v", false, "show the output of the -spawn processes (otherwise shown only when one fails)")
	var pids string
	fs.StringVar(&pids, "pids", "", "comma-separated ids of the bot processes whose CPU to report (-external, -targets); default: those connected to the fake server")
	fs.StringVar(&c.CPUProfile, "cpuprofile", "", "write a CPU profile of this process to this file")
	fs.StringVar(&c.MutexProf, "mutexprofile", "", "write a mutex contention profile of this process to this file")
	fs.StringVar(&c.BlockProf, "blockprofile", "", "write a blocking profile of this process to this file")
	fs.BoolVar(&c.Flood, "flood", false, "one more user taps as fast as the bot takes updates while the chats play; the bots keep their default per-user budget")
	fs.DurationVar(&c.Think, "think", 0, "each player's pause before each tap (with -flood and no -rate: 250ms, a fast human's pace inside the default budget)")
	fs.BoolVar(&c.Limits, "limits", false, "the fake Bot API enforces Telegram's flood limits and the bots pace themselves; report the 429s (a run with any fails) and the board lag")
	fs.IntVar(&c.Speedup, "speedup", 1, "with -limits: the flood limits run this many times as fast as Telegram's (1…1000); the bots pace a fifth slower above 1")
	fs.IntVar(&c.Pictures, "pictures", 0, "clients fetching the bots' board pictures as fast as answered, cycling through -picture-addrs signed addresses (the picture flood)")
	fs.DurationVar(&c.Soak, "soak", 0, "sample the bots' resident memory this often (e.g. 5s) over the run and report its peak and timeline; -duration may then be up to 1h")
	fs.IntVar(&c.PicAddrs, "picture-addrs", defaultPictureAddrs, "with -pictures: distinct picture addresses, gathered from inline 16×16 games played before the run")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	thinkSet := false
	fs.Visit(func(f *flag.Flag) { thinkSet = thinkSet || f.Name == "think" })
	if c.Flood && !thinkSet && c.Rate == 0 {
		c.Think = defaultFloodThink
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if targets != "" {
		c.Targets = strings.Split(targets, ",")
	}
	var err error
	if c.PIDs, err = parsePIDs(pids); err != nil {
		return c, err
	}
	return c, c.validate()
}

// validate checks the bounds and that everything stays on loopback.
func (c Config) validate() error {
	var errs []error
	if c.Chats < 0 || c.Chats > maxChats || c.Groups < 0 || c.Groups > maxChats/2 || c.Chats+c.Groups < 1 {
		errs = append(errs, fmt.Errorf("-chats must be 0…%d and -groups 0…%d, not both 0", maxChats, maxChats/2))
	}
	if c.AIShare < 0 || c.AIShare > 1 {
		errs = append(errs, errors.New("-ai must be 0…1"))
	}
	longest := maxDuration
	if c.Soak > 0 {
		longest = maxSoakDuration
	}
	if c.Soak < 0 {
		errs = append(errs, errors.New("-soak must be a duration above 0, like 5s"))
	}
	if c.Duration <= 0 || c.Duration > longest {
		errs = append(errs, fmt.Errorf("-duration must be above 0 and at most %v (%v with -soak)", maxDuration, maxSoakDuration))
	}
	if c.Moves < 0 || c.Each < 0 || c.Rate < 0 || c.Bots < 1 || c.Bots > 16 || c.AIWorkers < 0 {
		errs = append(errs, errors.New("-moves, -each, -rate and -ai-workers must not be negative; -bots must be 1…16"))
	}
	if c.Think < 0 || c.Think > 10*time.Second {
		errs = append(errs, errors.New("-think must be 0…10s"))
	}
	if c.Speedup < 1 || c.Speedup > maxSpeedup {
		errs = append(errs, fmt.Errorf("-speedup must be 1…%d", maxSpeedup))
	} else if c.Speedup > 1 && !c.Limits {
		errs = append(errs, errors.New("-speedup needs -limits"))
	}
	errs = append(errs, c.validatePictures()...)
	if c.Level < 1 {
		errs = append(errs, errors.New("-level must be at least 1"))
	}
	if host, _, err := net.SplitHostPort(c.Addr); err != nil || !loopback(host) {
		errs = append(errs, fmt.Errorf("-addr %q must be a loopback HOST:PORT", c.Addr))
	}
	if c.RedisURL != "" {
		if u, err := url.Parse(c.RedisURL); err != nil || (u.Scheme != "unix" && !loopback(u.Hostname())) {
			errs = append(errs, errors.New("-redis must name a loopback Redis"))
		}
	}
	if len(c.PIDs) > 0 && !c.External && len(c.Targets) == 0 {
		errs = append(errs, errors.New("-pids needs -external or -targets (in-process bots are this process; spawned ones are known)"))
	}
	if c.Spawn != "" {
		if c.External || len(c.Targets) > 0 {
			errs = append(errs, errors.New("-spawn excludes -external and -targets"))
		}
		if c.RedisURL == "" {
			errs = append(errs, errors.New("-spawn needs -redis (or REDIS_URL): the processes share that Redis"))
		}
		if st, err := os.Stat(c.Spawn); err != nil || !st.Mode().IsRegular() || st.Mode().Perm()&0o111 == 0 {
			errs = append(errs, fmt.Errorf("-spawn %q: not an executable file", c.Spawn))
		}
	}
	if c.Procs < 1 || c.Procs > 16 {
		errs = append(errs, errors.New("-procs must be 1…16"))
	} else if c.Procs > 1 && c.Spawn == "" {
		errs = append(errs, errors.New("-procs needs -spawn"))
	}
	for _, t := range c.Targets {
		if u, err := url.Parse(t); err != nil || u.Scheme != "http" || !loopback(u.Hostname()) {
			errs = append(errs, fmt.Errorf("-targets %q: must be http://LOOPBACK:PORT/PATH", t))
		}
	}
	if c.External && len(c.Targets) > 0 {
		errs = append(errs, errors.New("-external and -targets exclude each other"))
	}
	return errors.Join(errs...)
}

// loopback reports whether host names this machine.
func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// run is the command without the process.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stderr, "reversiload:", err)
		}
		return 2
	}
	if (cfg.External || len(cfg.Targets) > 0 || cfg.Spawn != "") && os.Getenv("GOGC") == "" {
		// Only the fake server and the players run here: a larger heap for less of the
		// garbage collector's CPU, which the machine's bots would otherwise lose. In-process
		// bots keep the default, as they would run in production.
		debug.SetGCPercent(400)
	}
	if cfg.CPUProfile != "" {
		f, err := os.Create(cfg.CPUProfile)
		if err != nil {
			fmt.Fprintln(stderr, "reversiload:", err)
			return 1
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(stderr, "reversiload:", err)
			return 1
		}
		defer pprof.StopCPUProfile()
	}
	if cfg.MutexProf != "" {
		runtime.SetMutexProfileFraction(10)
		defer writeProfile("mutex", cfg.MutexProf, stderr)
	}
	if cfg.BlockProf != "" {
		runtime.SetBlockProfileRate(int(10 * time.Microsecond))
		defer writeProfile("block", cfg.BlockProf, stderr)
	}
	res, err := Load(ctx, cfg, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "reversiload:", err)
		return 1
	}
	res.print(stdout)
	if res.Failed() {
		return 1
	}
	return 0
}

// writeProfile writes the named runtime profile to file.
func writeProfile(name, file string, stderr io.Writer) {
	f, err := os.Create(file)
	if err == nil {
		err = pprof.Lookup(name).WriteTo(f, 0)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "reversiload:", err)
	}
}
