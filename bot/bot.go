// Package bot is the Telegram side of the Reversi bot: it turns Bot API updates (commands,
// typed moves, button taps, inline queries) into steps of a game.Service and the Service's
// results into messages, keyboards and pictures, in Russian or English.
//
// A Bot takes updates by long polling (RunPolling) or from a webhook (WebhookHandler), each
// update at most once (update ids are deduplicated through the store, so a webhook retry or
// a second process never applies an update twice). Every tap is answered as soon as its board
// goes out, or after 300 ms with what happened when Telegram's flood limits hold the board back
// (the AI thinks meanwhile); every send and edit is paced inside those limits (botapi.Pacer),
// board edits are coalesced per message (only the newest board is drawn) and a 429 that still
// comes waits for retry_after instead of failing. Shutdown stops taking updates and waits for the
// ones in flight, so no update is left half-applied by this process.
//
// Every update passes the Intake first (intake.go): each user's Budget of updates, counted in
// this process and then in Redis for all processes, beyond which an update gets a short "too
// fast" answer at most once per window and no other work; and a bound on the handlers running
// at once (Options.MaxHandlers), which long polling waits for and a webhook request waits
// for a short time before it is answered 503. On a handler, the update goes through the
// middlewares (log, metrics, timeout, recover, shared budget, dedupe; one file each) to the
// handler (handler.go), which gives it to the commands, the taps or the inline mode.
//
// Every Bot API call goes through package bot/botapi (go-telegram/bot's methods, with
// retries and error kinds); getUpdates there confirms an update only once poll has taken it.
// The edits of one step share one store read.
package bot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/boards"
	"github.com/reversibot/reversi/bot/botapi"
	"github.com/reversibot/reversi/bot/i18n"
	"github.com/reversibot/reversi/bot/optional"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/metrics"
)

// Options configures a Bot. Token, Service and Players are required.
type Options struct {
	// Token is the bot's token from BotFather. It never appears in logs.
	Token string
	// APIURL is the Bot API server's base URL; "" means Telegram's.
	APIURL string
	// Service hosts the games: the Bot turns updates into its steps. The caller makes it
	// (with its AI and its pool) and closes it after Shutdown.
	Service *game.Service
	// Players keeps what is known of people: profiles, languages, styles, leaderboards.
	Players *game.Players
	// Dedupe drops the updates seen before, by any process sharing it; nil drops none.
	Dedupe Deduper
	// RateLimiter keeps the Budget shared by every process; nil counts it in this process only.
	RateLimiter RateLimiter
	// Logger gets one line per handled update with its outcome; nil discards.
	Logger *slog.Logger
	// Metrics records counters and timings; nil records nothing.
	Metrics *metrics.Metrics
	// HTTPClient makes the Bot API requests; nil means a client with sensible timeouts that
	// keeps up to 64 idle connections to the Bot API (closed by Shutdown).
	HTTPClient *http.Client
	// Now is the clock (invitations, budgets); nil means time.Now. The Service has its own.
	Now func() time.Time
	// HandlerTimeout bounds the handling of one update; 0 means DefaultHandlerTimeout.
	HandlerTimeout time.Duration
	// Budget limits the updates of each user (see Budget); the zero value sets no limit
	// (cmd/reversibot sets DefaultBudget unless told otherwise).
	Budget Budget
	// MaxHandlers bounds the updates handled at once; 0 means DefaultMaxHandlers.
	MaxHandlers int
	// WebhookWait is how long a webhook request waits for a free handler before it is
	// answered 503 (Telegram then delivers the update again later); 0 means
	// DefaultWebhookWait.
	WebhookWait time.Duration
	// Pace are the budgets that keep the bot's sends and edits inside Telegram's flood
	// limits (botapi.Pacer); zero fields are botapi.DefaultPaceLimits'.
	Pace botapi.PaceLimits
	// PaceBudgets count the Pace budgets for every process that shares them
	// (storage.PaceBudgets); nil counts them in this process only.
	PaceBudgets botapi.Budgets
	// Drawings records what each board message shows for every process that draws into it
	// (storage.Store), so that two processes never draw a board older than one already sent,
	// nor send one it shows already (boards.Options.Drawings); nil keeps no record, which
	// one process alone does without.
	Drawings game.Drawings
	// PublicURL is the public base URL (https://host[/prefix]) under which ThumbnailHandler,
	// PictureHandler and the Mini App (MiniAppPath) are served: inline results then show a
	// thumbnail of the board they offer, inline posts of large boards show pictures, and, on
	// https, boards in play offer the Mini App. "" means none of these (and no large boards
	// in inline posts).
	PublicURL string
	// MiniAppName is the short name of the bot's Mini App in BotFather (/newapp, its URL
	// PublicURL + MiniAppPath): boards in groups and inline posts link to it
	// (t.me/<bot>/<name>?startapp=<game>), since Telegram allows web_app buttons in private
	// chats only. "" puts no Mini App link there. Private chats get the web_app button
	// whenever PublicURL is an https:// address.
	MiniAppName string
	// OnGameChange is called after every step this process makes in a game (a move, the
	// AI's reply, a join, an end, ...), with the game as stored, for example to wake the
	// Mini App pages that show it; it must return quickly. nil: nothing is called.
	OnGameChange func(*game.Game)
	// SearchSweep is how often the bot looks for matchmaking searches that ended by
	// themselves, to tell their people; 0 means DefaultSearchSweep, a negative value never.
	SearchSweep time.Duration
	// NoPace sends and edits as fast as the steps come, leaving Telegram's 429s to slow
	// the bot: for load runs that measure the bot's own throughput, never for a bot on
	// Telegram.
	NoPace bool
	// Reminders keeps the turn reminders of group and inline games for every process
	// (storage.Store); nil sends none (see remind.go).
	Reminders Reminders
	// RemindAfter is how long the player to move in a group or inline game may take before a
	// message reminds them; 0 sends no reminders (cmd/reversibot's default is
	// DefaultRemindAfter).
	RemindAfter time.Duration
	// RemindPoll is how often the Bot looks for reminders due and rematch offers to expire;
	// 0 means DefaultRemindPoll.
	RemindPoll time.Duration
	// Offers keeps the rematch offers due to expire for every process (storage.Store), so
	// that an offer nobody answers says so on its boards by itself (see offers.go); nil:
	// an offer is found expired only when somebody taps it.
	Offers Offers
	// DrawWorkers bounds the pictures (PictureHandler) and replays drawn at once; more wait
	// in a short queue or are refused (draw.go). 0 means DefaultDrawWorkers.
	DrawWorkers int
	// OnDraw, when not nil, is called on a drawing worker's goroutine before each drawing
	// (cmd/reversibot lowers the thread's priority there, as for the AI). The workers live
	// until Shutdown.
	OnDraw func()
	// PictureCache bounds the bytes of the drawn pictures the bot keeps for PictureHandler;
	// 0 means DefaultPictureCache.
	PictureCache int64
	// OptionalTimeout bounds each store call a step can do without (styles, languages, dedupe,
	// the shared budgets; see package optional): past it the step goes on with its default
	// (pacing by this process's own budgets). 0 means optional.DefaultTimeout, which a healthy
	// Redis never comes near; tests of the shared budgets on a loaded machine, where the race
	// detector can stall a goroutine that long, give it more.
	OptionalTimeout time.Duration
}

// The default HTTP client: how many idle connections to the Bot API it keeps, and how long it
// gives a request (a long poll's pollTimeout and a margin).
const (
	maxIdleConns  = 64
	clientTimeout = pollTimeout + 10*time.Second
)

// Bot is a running Telegram Reversi bot. Its methods are safe for concurrent use.
type Bot struct {
	api      *botapi.Client // every Bot API call, tried again after a 429 and where safe
	tg       *botapi.Client // api's Once view: calls made once, in steps that b.retry repeats
	token    string
	svc      *game.Service
	players  *game.Players
	log      *slog.Logger
	met      *metrics.Metrics
	now      func() time.Time
	username string
	botID    int64

	publicURL   string           // Options.PublicURL without a trailing slash; "" for none
	thumbs      thumbnails       // the inline results' thumbnails, drawn once
	miniAppName string           // Options.MiniAppName
	onChange    func(*game.Game) // Options.OnGameChange; nil for none
	pics        *pictures        // the boards' pictures served to inline messages
	draw        *drawer          // draws the pictures and the replays, a few at a time
	replays     *replays         // the replays of finished games waiting to be drawn and sent
	miniApp     *MiniApp         // the Mini App's games (webapp.Games)

	in *Intake // takes the updates and runs each through the middlewares to route

	// base is the context of the work that handlers leave behind (board edits, their checks,
	// AI replies): it outlives the handlers so that Shutdown can let that work finish, and
	// ends when Shutdown gives up waiting.
	base     context.Context
	baseStop context.CancelFunc
	// extras is cancelled when Shutdown starts: what nobody waits on (a review in flight, a
	// replay on its way) gives up at once rather than hold the shutdown (see replays.go).
	extras     context.Context
	extrasStop context.CancelFunc

	mu     sync.Mutex
	closed bool           // Shutdown has begun
	wg     sync.WaitGroup // edit workers, board checks and the work of goAfter in flight
	work   map[string]int // goAfter's work in flight, by name (see Pending)
	// stopping is closed by StopWaitingForBudget (dropping says it was): from then on
	// nothing waits for the flood limits' budget (botapi.ErrStopping).
	stopping chan struct{}
	dropping bool

	boards   *boards.Editor // posts and edits the board messages
	pacer    *botapi.Pacer  // keeps api's sends and edits and the Editor's inside the flood limits; nil: none
	drawings game.Drawings  // Options.Drawings, for the Editor; nil: none
	// optional runs the store calls a step can do without (styles, languages, dedupe, the
	// shared budget, pacing): bounded, skipped for a while after one fails, logged once.
	optional *optional.Guard

	transport *http.Transport // the default client's, closed by Shutdown; nil for Options.HTTPClient

	reminders   Reminders     // the turn reminders due; nil: none (remind.go)
	remindAfter time.Duration // how long a turn goes before its reminder
	offers      Offers        // the rematch offers due to expire; nil: none (offers.go)
	remindStop  chan struct{} // closed to end the loop of reminders and offers; nil without one
	remindOnce  sync.Once     // closes remindStop
	// The sweeper of ended searches (searches.go): closing sweepStop stops it, sweepDone is
	// closed when it has stopped; both nil when it does not run.
	sweepStop chan struct{}
	sweepDone chan struct{}
	sweepOnce sync.Once
}

// New connects to the Bot API (getMe, for the bot's username) and returns a Bot ready to
// Setup and run. It fails when the token is empty, the Service or Players missing, or getMe
// fails.
func New(ctx context.Context, o Options) (*Bot, error) {
	if strings.TrimSpace(o.Token) == "" {
		return nil, errors.New("bot: empty token")
	}
	if o.Service == nil || o.Players == nil {
		return nil, errors.New("bot: no game service or players")
	}
	b := &Bot{token: o.Token, svc: o.Service, players: o.Players, log: o.Logger, met: o.Metrics, now: o.Now,
		reminders: o.Reminders, remindAfter: o.RemindAfter, offers: o.Offers,
		drawings:    o.Drawings,
		publicURL:   strings.TrimRight(strings.TrimSpace(o.PublicURL), "/"),
		miniAppName: strings.TrimSpace(o.MiniAppName), onChange: o.OnGameChange,
		work: map[string]int{}, stopping: make(chan struct{})}
	workers, cache := o.DrawWorkers, o.PictureCache
	if workers <= 0 {
		workers = DefaultDrawWorkers()
	}
	if cache <= 0 {
		cache = DefaultPictureCache
	}
	b.draw = newDrawer(workers, o.OnDraw)
	b.pics = newPictures(o.Token, cache, b.draw)
	if b.log == nil {
		b.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if b.now == nil {
		b.now = time.Now
	}
	b.optional = optional.New(b.log)
	if o.OptionalTimeout > 0 {
		b.optional = b.optional.WithTiming(o.OptionalTimeout, optional.DefaultRest, nil)
	}
	if b.drawings != nil {
		b.drawings = guardedDrawings{record: b.drawings, guard: b.optional}
	}
	client := o.HTTPClient
	if client == nil {
		// Edits of many boards go out at once, all to one host: keep their connections open
		// for the next ones (http.DefaultTransport keeps 2 per host and closes the rest).
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = maxIdleConns
		b.transport = t
		client = &http.Client{Timeout: clientTimeout, Transport: t}
	}
	if !o.NoPace {
		budgets := o.PaceBudgets
		if budgets != nil {
			budgets = botapi.NewFallbackBudgets(budgets, botapi.NewLocalBudgets(nil), b.optional)
		}
		b.pacer = botapi.NewPacer(botapi.PaceOptions{Limits: o.Pace, Budgets: budgets, Stop: b.stopping,
			OnWait: func(kind botapi.PaceKind, d time.Duration) { b.met.PaceWait(kind.String(), d) }})
	}
	api, err := botapi.New(botapi.Options{Token: o.Token, ServerURL: o.APIURL, HTTPClient: client,
		Logger: b.log, OnError: func(method string, kind botapi.Kind) { b.met.TelegramError(method, string(kind)) },
		Pacer: b.pacer, OnMigrate: b.migrated, Stop: b.stopping})
	if err != nil {
		return nil, fmt.Errorf("bot: %s", b.scrub(err))
	}
	b.api, b.tg = api, api.Once()
	b.in = b.newIntake(ctx, o)
	me, err := api.GetMe(ctx)
	if err != nil {
		return nil, fmt.Errorf("bot: getMe: %s", b.scrub(err))
	}
	b.username, b.botID = me.Username, me.ID

	b.base, b.baseStop = context.WithCancel(context.WithoutCancel(ctx))
	b.extras, b.extrasStop = context.WithCancel(b.base)
	b.replays = newReplays(workers, replayQueue, func(run func()) bool {
		if !b.startWork(workReplay) {
			return false
		}
		go func() {
			defer b.endWork(workReplay)
			run()
		}()
		return true
	}, b.replay, b.extras, b.log)
	b.boards = b.newEditor()
	b.miniApp = newMiniApp(b.svc, b.players, b.in.budget.allow, &play{bot: b}, b.met)
	b.startReminders(o.RemindPoll)
	switch {
	case o.SearchSweep == 0:
		b.startSweeper(DefaultSearchSweep)
	case o.SearchSweep > 0:
		b.startSweeper(o.SearchSweep)
	}
	return b, nil
}

// newIntake builds the intake of o's limits, whose handlers' contexts carry ctx's values and
// whose middlewares lead each update to the route of b's handler:
// the log line and the metrics (outermost, so they see every outcome), the handler's
// deadline, the recovery from a panic (inside the deadline, so the apology has one), the
// budget shared by all processes (when o.Budget is on), and dedupe last, so that an update
// over the budget costs no dedupe mark.
func (b *Bot) newIntake(ctx context.Context, o Options) *Intake {
	timeout := o.HandlerTimeout
	if timeout <= 0 {
		timeout = DefaultHandlerTimeout
	}
	ms := []Middleware{logUpdates(b.log, b.scrub), countUpdates(b.met), withTimeout(timeout),
		recoverPanics(b.log, b.apologize)}
	var g *budget
	if o.Budget.On() {
		g = newBudget(o.Budget, o.RateLimiter, tooFastNotice(b.tg), b.now, b.log, b.met, b.scrub)
		g.optional = b.optional
		ms = append(ms, g.middleware)
	}
	if o.Dedupe != nil {
		ms = append(ms, dedupe(o.Dedupe, b.optional))
	}
	return newIntake(intakeConfig{Source: b.api, Handler: newHandler(b).route, Middlewares: ms, Budget: g,
		MaxHandlers: o.MaxHandlers, WebhookWait: o.WebhookWait, Logger: b.log, Metrics: b.met,
		Redact: b.scrub, Base: ctx})
}

// Username returns the bot's username as getMe reported it.
func (b *Bot) Username() string { return b.username }

// Setup registers the bot's commands with Telegram: English for the default scope and every
// language, Russian for language_code ru.
func (b *Bot) Setup(ctx context.Context) error {
	for _, lang := range []string{"", langRU} {
		src := i18n.Commands(langEN)
		if lang != "" {
			src = i18n.Commands(lang)
		}
		cmds := make([]models.BotCommand, 0, len(src))
		for _, c := range src {
			cmds = append(cmds, models.BotCommand{Command: c.Command, Description: c.Description})
		}
		_, err := b.api.SetMyCommands(ctx, &tgbot.SetMyCommandsParams{Commands: cmds,
			Scope: &models.BotCommandScopeDefault{}, LanguageCode: lang})
		if err != nil {
			return fmt.Errorf("bot: setMyCommands %q: %s", lang, b.scrub(err))
		}
	}
	return nil
}

// RunPolling deletes any webhook, then takes updates by long polling until ctx is done or
// Shutdown is called (at once, returning nil, when Shutdown came first). Updates already
// taken are still being handled when it returns: call Shutdown to wait for them.
func (b *Bot) RunPolling(ctx context.Context) error {
	if err := b.in.Poll(ctx); err != nil {
		return fmt.Errorf("bot: deleteWebhook: %s", b.scrub(err))
	}
	return nil
}

// SetWebhook asks Telegram to deliver updates to url with the secret token, which
// WebhookHandler then checks.
func (b *Bot) SetWebhook(ctx context.Context, url, secret string) error {
	_, err := b.api.SetWebhook(ctx, &tgbot.SetWebhookParams{URL: url, SecretToken: secret,
		AllowedUpdates: allowedUpdates})
	if err != nil {
		return fmt.Errorf("bot: setWebhook: %s", b.scrub(err))
	}
	return nil
}

// WebhookHandler returns the HTTP handler for Telegram's webhook requests (see
// Intake.Webhook): 401 without the right secret (an empty secret refuses every request: give
// SetWebhook and WebhookHandler the same non-empty secret), 400 for a body that is not an
// update, 503 with Retry-After when no handler is free within Options.WebhookWait or after
// Shutdown, 200 otherwise (the update is handled in the background: wait for it with
// Shutdown).
func (b *Bot) WebhookHandler(secret string) http.Handler { return b.in.Webhook(secret) }

// Intake returns the intake's counters, for tests, load tools and metrics.
func (b *Bot) Intake() IntakeStats { return b.in.Stats() }

// Drawing returns the counters of the drawing workers and the picture cache, for tests,
// load tools and metrics.
func (b *Bot) Drawing() DrawStats {
	st := b.draw.stats()
	st.ReplaysQueued, st.ReplaysDropped = b.replays.stats()
	st.CacheBytes, st.CacheCap, st.CachedCount = b.pics.cache.size()
	return st
}

// everyTick calls do every interval until stop is closed or the bot's base context ends: the
// body of the bot's timed loops (reminders and offers, the search sweeper).
func (b *Bot) everyTick(interval time.Duration, stop <-chan struct{}, do func()) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-b.base.Done():
			return
		case <-t.C:
			do()
		}
	}
}

// goAfter runs work, named what (a work* constant: it names the work in the log of a stop
// that waits for it), in a goroutine of its own, with a context from the bot's base bounded
// by timeout, unless the bot is shutting down: for what a step leaves to do after its handler
// (notices, reminders). Shutdown waits for it.
func (b *Bot) goAfter(what string, timeout time.Duration, work func(ctx context.Context)) {
	if !b.startWork(what) {
		return
	}
	go func() {
		defer b.endWork(what)
		ctx, cancel := context.WithTimeout(b.base, timeout)
		defer cancel()
		work(ctx)
	}()
}

// ProcessUpdate handles one update and returns when it is handled (edits it caused may still
// be on their way). It is for tests and fuzzing: it bypasses the intake's admission (no
// budget, no handler slot) but not its middlewares; it does nothing after Shutdown.
func (b *Bot) ProcessUpdate(ctx context.Context, u *models.Update) { b.in.Process(ctx, u) }

// scrub returns err's text with the token blanked out: the library's errors can carry the
// request URL, which holds the token.
func (b *Bot) scrub(err error) string {
	if err == nil {
		return ""
	}
	s := err.Error()
	if b.token != "" {
		s = strings.ReplaceAll(s, b.token, "***")
	}
	return s
}
