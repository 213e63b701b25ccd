// Package storage keeps everything the Reversi bot must remember in Redis: games (keyed by
// chat and by inline message), players with their languages, results and Elo ratings,
// leaderboards, the matchmaking queues and the marks that deduplicate Telegram updates.
//
// It is the only package that talks to Redis. Every state change is a single atomic step
// (a Lua script or a single command), so racing taps, players or bot processes can never apply
// a change twice or overwrite each other: a game update is a compare-and-set on its version.
// Everything transient carries a TTL. Keys that one step touches share a {hash tag}, so the
// store works on one Redis server, behind Sentinel, or on a Redis Cluster.
package storage

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/reversibot/reversi/game"
)

// Default TTLs used for the zero values in Options: the game's lifetimes are package game's
// (every store shares them), the rest are Redis's own.
const (
	DefaultFinishedTTL = game.DefaultFinishedTTL
	DefaultIdleTTL     = game.DefaultIdleTTL
	DefaultLobbyTTL    = game.DefaultLobbyTTL
	DefaultQueueTTL    = game.DefaultQueueTTL
	DefaultDedupeTTL   = time.Hour
	DefaultResultTTL   = game.DefaultResultTTL
	DefaultGroupTopTTL = 180 * 24 * time.Hour
)

// Options tune a Store. The zero value is ready to use.
type Options struct {
	// Prefix starts every key the store writes, so several stores (tests, bots) can share
	// one Redis database without seeing each other's keys.
	Prefix string
	// Now is the clock used for timestamps and queue deadlines; nil means time.Now.
	Now func() time.Time

	FinishedTTL time.Duration // finished games; default 24h
	IdleTTL     time.Duration // games in play without an update, and chat bindings; default 7 days
	LobbyTTL    time.Duration // games waiting for a second player; default 1h
	QueueTTL    time.Duration // matchmaking queue entries; default 10 min
	DedupeTTL   time.Duration // update_id marks; default 1h
	// ResultTTL keeps the marks that make RecordResult idempotent; default 48h. A game's result
	// is recorded by the step that finished it (RecordResult again only repeats that call), and
	// never after its record expires (FinishedTTL), so a mark need not outlive the record long.
	ResultTTL   time.Duration
	GroupTopTTL time.Duration // a group's leaderboard after its last rated game; default 180 days
	AsideTTL    time.Duration // game records SetAside moved out of play; default 30 days

	// NewID draws the id of each new game: ten letters and digits (game.ValidID), drawn again
	// when taken. Nil means random; tests set it to give ids a shape they need.
	NewID func() string

	// Observe, when set, is told the latency and error of every Redis command or pipeline the
	// store sends (pipelines are named "pipeline"), for metrics.
	Observe func(command string, took time.Duration, err error)
}

func (o *Options) fill() {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&o.FinishedTTL, DefaultFinishedTTL)
	def(&o.IdleTTL, DefaultIdleTTL)
	def(&o.LobbyTTL, DefaultLobbyTTL)
	def(&o.QueueTTL, DefaultQueueTTL)
	def(&o.DedupeTTL, DefaultDedupeTTL)
	def(&o.ResultTTL, DefaultResultTTL)
	def(&o.GroupTopTTL, DefaultGroupTopTTL)
	def(&o.AsideTTL, DefaultAsideTTL)
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.NewID == nil {
		o.NewID = newID
	}
}

// Store is the bot's Redis storage. It is safe for concurrent use.
type Store struct {
	rdb  redis.UniversalClient
	opt  Options
	mini *miniredis.Miniredis // embedded server, nil otherwise
	tick func()               // stops the embedded server's clock (FollowWallClock)
	own  bool                 // Close closes rdb
	k    keys
}

// Store is the Redis implementation of every store of package game, by concern: games
// (games.go, start.go, finish.go, aside.go, invitations.go, drawings.go, migrate.go), players
// (players.go, notices.go), matchmaking (queue.go, requeue.go), offers and reminders
// (offers.go, reminders.go), reviews (reviews.go), AI jobs (aijobs.go), and leases (lease.go).
var (
	_ game.Store         = (*Store)(nil)
	_ game.Games         = (*Store)(nil)
	_ game.GameStyles    = (*Store)(nil)
	_ game.Invitations   = (*Store)(nil)
	_ game.PlayerStore   = (*Store)(nil)
	_ game.Matchmaking   = (*Store)(nil)
	_ game.OfferExpiries = (*Store)(nil)
	_ game.Reminders     = (*Store)(nil)
	_ game.Reviews       = (*Store)(nil)
	_ game.Leases        = (*Store)(nil)
)

// New returns a Store over an existing client, which the caller keeps and closes.
func New(client redis.UniversalClient, opts Options) *Store {
	opts.fill()
	if opts.Observe != nil {
		client.AddHook(observeHook{opts.Observe})
	}
	return &Store{rdb: client, opt: opts, k: keys{p: opts.Prefix}}
}

// observeHook reports each command's latency to Options.Observe.
type observeHook struct {
	observe func(command string, took time.Duration, err error)
}

func (h observeHook) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h observeHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		start := time.Now()
		err := next(ctx, cmd)
		h.observe(cmd.Name(), time.Since(start), ignoreNil(err))
		return err
	}
}

func (h observeHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		start := time.Now()
		err := next(ctx, cmds)
		h.observe("pipeline", time.Since(start), ignoreNil(err))
		return err
	}
}

// ignoreNil treats redis.Nil (a missing key) and NOSCRIPT (a script the client then loads) as
// success.
func ignoreNil(err error) error {
	if errors.Is(err, redis.Nil) || (err != nil && strings.HasPrefix(err.Error(), "NOSCRIPT")) {
		return nil
	}
	return err
}

// Open connects to the Redis at url and checks that it answers. An empty url starts an
// embedded in-memory Redis (nothing survives Close; its keys expire as time passes, see
// FollowWallClock) and Embedded reports true.
//
// The url forms (the query parameters of go-redis's ParseURL apply to all of them):
//
//	redis://[user:pass@]host:port[/db]    one server (rediss:// for TLS, unix:///path.sock)
//	redis+cluster://host:port?addr=host2:port2&addr=…   Redis Cluster (rediss+cluster:// for TLS)
//	redis://host:port?master_name=NAME&addr=host2:port2 Sentinel (redis+sentinel:// also works)
//
// A failure to connect wraps ErrUnavailable.
func Open(ctx context.Context, url string, opts Options) (*Store, error) {
	var (
		client redis.UniversalClient
		mini   *miniredis.Miniredis
	)
	if url == "" {
		mini = miniredis.NewMiniRedis()
		if err := mini.Start(); err != nil {
			return nil, fmt.Errorf("storage: start embedded redis: %w", err)
		}
		client = redis.NewClient(&redis.Options{Addr: mini.Addr()})
	} else {
		var err error
		if client, err = NewClient(url); err != nil {
			return nil, err
		}
	}
	s := New(client, opts)
	s.mini, s.own = mini, true
	if mini != nil {
		s.tick = FollowWallClock(mini)
	}
	if err := s.Ping(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// Defaults NewClient applies unless the URL sets dial_timeout or max_retry_backoff: a bot must
// tell a player within a Telegram callback's few seconds that Redis is down, so connection
// attempts and retries give up sooner than go-redis's defaults (5 s, 512 ms).
const (
	defaultDialTimeout     = time.Second
	defaultMaxRetryBackoff = 100 * time.Millisecond
)

// failFast applies the fail-fast defaults to the options the URL's query q leaves unset, and
// makes the client honour its callers' context deadlines on the socket (go-redis otherwise
// waits out its read timeout, 3 s, and then retries): a caller that bounds a call it can do
// without (a board style, a dedupe mark, on a Cluster node that was lost) gets its answer,
// or its error, by its deadline.
func failFast(q url.Values, dialTimeout, maxRetryBackoff *time.Duration, contextTimeout *bool) {
	*contextTimeout = true
	if !q.Has("dial_timeout") {
		*dialTimeout = defaultDialTimeout
	}
	if !q.Has("max_retry_backoff") {
		*maxRetryBackoff = defaultMaxRetryBackoff
	}
}

// NewClient returns a go-redis client for url, in the forms Open documents. It does not
// connect; the caller closes the client.
func NewClient(rawURL string) (redis.UniversalClient, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("storage: REDIS_URL: %w", err)
	}
	scheme, mode, _ := strings.Cut(u.Scheme, "+")
	q := u.Query()
	if mode == "" && q.Has("master_name") {
		mode = "sentinel"
	}
	u.Scheme = scheme
	switch mode {
	case "":
		o, err := redis.ParseURL(u.String())
		if err != nil {
			return nil, fmt.Errorf("storage: REDIS_URL: %w", err)
		}
		failFast(q, &o.DialTimeout, &o.MaxRetryBackoff, &o.ContextTimeoutEnabled)
		return redis.NewClient(o), nil
	case "cluster":
		o, err := redis.ParseClusterURL(u.String())
		if err != nil {
			return nil, fmt.Errorf("storage: REDIS_URL: %w", err)
		}
		failFast(q, &o.DialTimeout, &o.MaxRetryBackoff, &o.ContextTimeoutEnabled)
		return newClusterClient(o), nil
	case "sentinel":
		o, err := redis.ParseFailoverURL(u.String())
		if err != nil {
			return nil, fmt.Errorf("storage: REDIS_URL: %w", err)
		}
		if o.MasterName == "" {
			return nil, fmt.Errorf("storage: REDIS_URL: sentinel needs master_name")
		}
		failFast(q, &o.DialTimeout, &o.MaxRetryBackoff, &o.ContextTimeoutEnabled)
		return redis.NewFailoverClient(o), nil
	}
	return nil, fmt.Errorf("storage: REDIS_URL: unknown scheme %q", u.Scheme+"+"+mode)
}

// Close releases the connections Open made and stops an embedded Redis. For a Store made
// by New it does nothing: the caller owns the client.
func (s *Store) Close() error {
	var err error
	if s.own {
		err = s.rdb.Close()
	}
	if s.tick != nil {
		s.tick()
	}
	if s.mini != nil {
		s.mini.Close()
	}
	return err
}

// Ping checks that Redis answers; a failure wraps ErrUnavailable.
func (s *Store) Ping(ctx context.Context) error {
	return wrap("ping", s.rdb.Ping(ctx).Err())
}

// Embedded reports whether the store runs on an embedded in-memory Redis (Open with an empty
// url), whose data is lost on Close.
func (s *Store) Embedded() bool { return s.mini != nil }

// Client returns the underlying Redis client, for tests and diagnostics.
func (s *Store) Client() redis.UniversalClient { return s.rdb }

func (s *Store) now() time.Time { return s.opt.Now() }

// wrap turns a go-redis error into the store's: nil stays nil, redis.Nil becomes ErrNotFound,
// connection failures and "not serving now" replies wrap ErrUnavailable, anything else is
// returned with the operation's name.
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, redis.Nil) {
		return fmt.Errorf("storage: %s: %w", op, game.ErrNotFound)
	}
	if unavailable(err) {
		return fmt.Errorf("storage: %s: %w: %w", op, game.ErrUnavailable, err)
	}
	return fmt.Errorf("storage: %s: %w", op, err)
}

func unavailable(err error) bool {
	var rerr redis.Error
	if !errors.As(err, &rerr) {
		// Not a reply from a server: network, pool, timeout, closed client.
		return true
	}
	// OOM: a full server under maxmemory-policy noeviction refuses writes until memory is freed.
	for _, p := range []string{"LOADING", "READONLY", "MASTERDOWN", "CLUSTERDOWN", "TRYAGAIN", "BUSY", "OOM"} {
		if redis.HasErrorPrefix(err, p) {
			return true
		}
	}
	return false
}

// keys builds every key name; the part in braces is the Redis Cluster hash tag.
//
// Games and their bindings share the tag {g}, so they all live in one Cluster slot and one
// script can write a game and bind its chats together, after checking those chats' current
// games (start.go). One slot costs no real throughput: a bot's game traffic is bounded by Telegram's
// limits (about 30 messages a second per bot, one a second per chat), far below what one
// Redis node serves, and a Cluster still gives fail-over. (Keys of the earlier layout,
// g:{ID}, c:{chat}, i:{inline}, are not read: no deployment has them.)
//
//	P {g}g:ID            string  game record (codec.go)
//	P {g}g:ID:aside      string  a game record SetAside took out of play, AsideTTL (aside.go)
//	P {g}c:CHAT          string  game ID bound to a chat
//	P {g}i:INLINE        string  game ID bound to an inline message
//	P {g}rm:ID           string  ID of the rematch of finished game ID, as long as that game's
//	                             record (start.go, finish.go)
//	P {g}rv:ID           string  the review of finished game ID, as long as its record (reviews.go)
//	P {g}u:USER          zset    the user's lobbies and finished games, capped (usercap.go)
//	P {g}mg:CHAT         string  the supergroup group CHAT became, its game moved (migrate.go)
//	P iv:{USER}:NONCE    string  the inline message an invitation opened (invitations.go)
//	P iv:{USER}          zset    the nonces of the user's claimed invitations, capped
//	P cl:{chatID}        string  a chat's language
//	P db:{BLOCK}         string  dedupe bitmap of update_ids BLOCK*128000 on, one bit each (dedupe.go)
//	P {p}u:USER          hash    profile: n name, lg lang, w l d r, a<level>w/l/d
//	P {p}top             zset    global leaderboard, score = rating
//	P {p}top:CHAT        zset    a group's leaderboard
//	P {p}res:ID          string  RecordResult done for game ID: "rb nb rw nw", the ratings before
//	                             and after of a rated game between people, else "1"
//	P {p}rs:USER         zset    the games whose result marks the user has, capped (usercap.go)
//	P {mm}q:SIZE         zset    matchmaking queue for a size, score = deadline (ms)
//	P {mm}w:USER         string  "SIZE:" + encoded Waiter, TTL = QueueTTL + game.QueueGrace
//	P {mm}r:TOKEN        string  the opponent one Enqueue call took, TTL 1 min (for retries)
//	P {ai}jobs           stream  AI jobs, consumer group "workers" (aijobs.go)
//	P air:{FRONT}        stream  AI results for one front, TTL AIReplyTTL after the last
//	P rl:{USER}          string  a user's update budget (GCRA time, ratelimit.go), TTL until full
//	P ls:{NAME}          string  a lease's holder token, TTL = the lease's (lease.go)
//	P pc:{KEY}:tat       string  an outgoing send/edit budget of a chat or the bot: its GCRA
//	                             time (µs, pace.go), TTL until full
//	P pc:{KEY}:log       zset    that budget's calls, by when each ended (pace.go), TTL its
//	                             longest window + 1 min after the last call
//	P pc:{KEY}:hold      string  a 429's hold on that budget, TTL = retry_after (pace.go)
//	P dw:{MSG}           hash    what board message MSG shows: game, version, content hash,
//	                             a busy edit's wish; TTL game.DrawingsTTL (drawings.go)
//	P dw:{MSG}:l         string  the token of the edit of MSG on its way, TTL its lease
type keys struct{ p string }

func (k keys) gamePrefix() string             { return k.p + "{g}g:" }
func (k keys) game(id string) string          { return k.gamePrefix() + id }
func (k keys) chat(chatID int64) string       { return k.p + "{g}c:" + itoa(chatID) }
func (k keys) inline(id string) string        { return k.p + "{g}i:" + id }
func (k keys) rematch(id string) string       { return k.p + "{g}rm:" + id }
func (k keys) chatLang(chatID int64) string   { return k.p + "cl:{" + itoa(chatID) + "}" }
func (k keys) turnNotice(userID int64) string { return k.p + "tn:{" + itoa(userID) + "}" }
func (k keys) dedupeBlock(b int64) string     { return k.p + "db:{" + itoa(b) + "}" }
func (k keys) userPrefix() string             { return k.p + "{p}u:" }
func (k keys) user(id int64) string           { return k.userPrefix() + itoa(id) }
func (k keys) top(chatID int64) string {
	if chatID == 0 {
		return k.p + "{p}top"
	}
	return k.p + "{p}top:" + itoa(chatID)
}
func (k keys) result(gameID string) string     { return k.resultPrefix() + gameID }
func (k keys) resultPrefix() string            { return k.p + "{p}res:" }
func (k keys) queue(size int) string           { return k.queuePrefix() + strconv.Itoa(size) }
func (k keys) queuePrefix() string             { return k.p + "{mm}q:" }
func (k keys) waiterPrefix() string            { return k.p + "{mm}w:" }
func (k keys) waiter(userID int64) string      { return k.waiterPrefix() + itoa(userID) }
func (k keys) enqueueCall(token string) string { return k.p + "{mm}r:" + token }
func (k keys) aiJobs() string                  { return k.p + "{ai}jobs" }
func (k keys) aiReplies(front string) string   { return k.p + "air:{" + front + "}" }

// aside extends the game's key, so it keeps that key's hash tag whatever the layout.
func (k keys) aside(id string) string { return k.game(id) + ":aside" }

func itoa(v int64) string { return strconv.FormatInt(v, 10) }
