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
// A Bot only wires. New builds the handlers of the updates (commands, taps, inline mode;
// handler.go), each given the few dependencies it uses (core: the Service, the people, the
// messenger of tg.go, the metrics; and the parts it asks things of), and the long-running
// parts (Parts: the turn reminders, the rematch offers' expiries, the search sweeper, the
// reviews and replays, the pictures and their drawing workers), of which it starts none:
// cmd/reversibot's Main starts them once the Bot is built and stops them around its Shutdown
// (Parts.Stop); tests and tools that run a whole bot in-process get the same from Start.
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
	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/bot/i18n"
	"github.com/reversibot/reversi/bot/optional"
	"github.com/reversibot/reversi/bot/pictures"
	"github.com/reversibot/reversi/bot/present"
	"github.com/reversibot/reversi/engine"
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
	// PublicURL is the public base URL (https://host[/prefix]) under which Pictures.Thumbnails,
	// Pictures.Handler and the Mini App (MiniAppPath) are served: inline results then show a
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
	// RemindPoll is how often the Bot looks for reminders due (TurnReminders) and rematch
	// offers to expire (OfferExpiries); 0 means DefaultRemindPoll.
	RemindPoll time.Duration
	// Offers keeps the rematch offers due to expire for every process (storage.Store), so
	// that an offer nobody answers says so on its boards by itself (see offers.go); nil:
	// an offer is found expired only when somebody taps it.
	Offers Offers
	// DrawWorkers bounds the pictures (Pictures.Handler) and replays drawn at once; more wait
	// in a short queue or are refused (package pictures). 0 means DefaultDrawWorkers.
	DrawWorkers int
	// OnDraw, when not nil, is called on a drawing worker's goroutine before each drawing
	// (cmd/reversibot lowers the thread's priority there, as for the AI). The workers live
	// from Pictures.Start to Pictures.Stop.
	OnDraw func()
	// PictureCache bounds the bytes of the drawn pictures the bot keeps for Pictures.Handler;
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

// Bot is a Telegram Reversi bot: it wires its parts (New) and takes updates (RunPolling or
// WebhookHandler) until Shutdown. Its long-running parts (Parts) are its owner's to start
// and stop. Its methods are safe for concurrent use.
type Bot struct {
	*core      // the Service, the people, the messenger, the metrics: the handlers' too
	*afterWork // the work the steps leave behind them, which Shutdown waits for
	links      // the public addresses of the pictures and thumbnails

	in      *Intake  // takes the updates and runs each through the middlewares to the handler
	play    *play    // the steps the handlers share (the Mini App's moves take them too)
	parts   Parts    // the long-running parts, for the Bot's owner to start and stop
	miniApp *MiniApp // the Mini App's games (webapp.Games)

	miniAppName string           // Options.MiniAppName
	onChange    func(*game.Game) // Options.OnGameChange; nil for none

	// stopping is closed by StopWaitingForBudget: from then on nothing waits for the flood
	// limits' budget (botapi.ErrStopping).
	stopping     chan struct{}
	stoppingOnce sync.Once

	transport *http.Transport // the default client's, closed by Shutdown; nil for Options.HTTPClient
}

// New connects to the Bot API (getMe, for the bot's username) and returns a Bot ready to
// Setup and run, with its parts (Parts) built and none of them started. It fails when the
// token is empty, the Service or Players missing, or getMe fails.
func New(ctx context.Context, o Options) (*Bot, error) {
	if strings.TrimSpace(o.Token) == "" {
		return nil, errors.New("bot: empty token")
	}
	if o.Service == nil || o.Players == nil {
		return nil, errors.New("bot: no game service or players")
	}
	log, now := o.Logger, o.Now
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if now == nil {
		now = time.Now
	}
	guard := optional.New(log)
	if o.OptionalTimeout > 0 {
		guard = guard.WithTiming(o.OptionalTimeout, optional.DefaultRest, nil)
	}
	msgr := &messenger{log: log, redactor: redactor{token: o.Token}}
	c := &core{svc: o.Service, styles: styles{players: o.Players, optional: guard}, messenger: msgr,
		met: o.Metrics, now: now}
	b := &Bot{core: c, afterWork: newAfterWork(ctx),
		miniAppName: strings.TrimSpace(o.MiniAppName), onChange: o.OnGameChange,
		stopping: make(chan struct{})}

	// The parts.
	publicURL := strings.TrimRight(strings.TrimSpace(o.PublicURL), "/")
	pics := pictures.New(pictures.Options{Token: o.Token, PublicURL: publicURL, Games: o.Service,
		Logger: log, Redact: msgr.scrub, Workers: o.DrawWorkers, OnDraw: o.OnDraw, CacheBytes: o.PictureCache})
	b.links = links{publicURL: publicURL, pics: pics}
	b.parts = Parts{
		Reminders: newTurnReminders(c, o.Reminders, o.RemindAfter, o.RemindPoll, b.afterWork),
		Offers:    newOfferExpiries(c, o.Offers, o.RemindPoll, b.base, b.refresh),
		Searches:  newSweeper(c, o.SearchSweep, b.base),
		Reviews:   newReviews(c, b.afterWork, pics),
		Pictures:  pics,
	}

	// The handlers.
	pacer := newPacer(o, guard, b.stopping, o.Metrics)
	b.play = &play{core: c, after: b.afterWork, pacer: pacer, reminders: b.parts.Reminders,
		reviews: b.parts.Reviews, changed: b.changed}
	h := newHandler(handlerDeps{after: b.afterWork, play: b.play, reviews: b.parts.Reviews,
		offers: b.parts.Offers, sign: callback.NewSigner(callbackKey(o.Token)), links: b.links,
		finish: b.finish})

	// The Bot API client, the intake and the board Editor.
	client := o.HTTPClient
	if client == nil {
		// Edits of many boards go out at once, all to one host: keep their connections open
		// for the next ones (http.DefaultTransport keeps 2 per host and closes the rest).
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = maxIdleConns
		b.transport = t
		client = &http.Client{Timeout: clientTimeout, Transport: t}
	}
	api, err := botapi.New(botapi.Options{Token: o.Token, ServerURL: o.APIURL, HTTPClient: client,
		Logger: log, OnError: func(method string, kind botapi.Kind) { c.met.TelegramError(method, string(kind)) },
		Pacer: pacer, OnMigrate: h.migrated, Stop: b.stopping})
	if err != nil {
		return nil, fmt.Errorf("bot: %s", c.scrub(err))
	}
	msgr.api, msgr.tg = api, api.Once()
	b.in = newBotIntake(ctx, o, c, h.route)
	b.miniApp = newMiniApp(o.Service, o.Players, b.in.budget.allow, b.play, o.Metrics)
	me, err := api.GetMe(ctx)
	if err != nil {
		return nil, fmt.Errorf("bot: getMe: %s", c.scrub(err))
	}
	c.username = me.Username
	drawings := o.Drawings
	if drawings != nil {
		drawings = guardedDrawings{record: drawings, guard: guard}
	}
	// The Editor draws a board as present.BoardHinted does, in the style styleUser and
	// styleOf say, and records a posted board through the Service; it runs its edits as the
	// work after the steps, so that Shutdown waits for them.
	msgr.boards = boards.New(boards.Options{API: api, Once: msgr.tg, Reader: o.Service,
		Content: func(g *game.Game, eg *engine.Game, ref game.MessageRef, style game.Style, hint engine.Square) (boards.Content, error) {
			c, err := present.BoardHinted(g, eg, ref, 0, style, hint)
			return b.finish(g, ref, c), err
		},
		StyleUser: styleUser, StyleOf: c.styleOf, AddBoard: o.Service.AddBoard,
		Logger: log, Context: b.base, Work: &b.wg, Pacer: pacer, Drawings: drawings})
	return b, nil
}

// newPacer returns the Pacer of o's budgets (shared through o.PaceBudgets when set, with
// this process's own as a fallback), nil with o.NoPace. It stops waiting once
// stop is closed (StopWaitingForBudget).
func newPacer(o Options, guard *optional.Guard, stop <-chan struct{}, met *metrics.Metrics) *botapi.Pacer {
	if o.NoPace {
		return nil
	}
	budgets := o.PaceBudgets
	if budgets != nil {
		budgets = botapi.NewFallbackBudgets(budgets, botapi.NewLocalBudgets(nil), guard)
	}
	return botapi.NewPacer(botapi.PaceOptions{Limits: o.Pace, Budgets: budgets, Stop: stop,
		OnWait: func(kind botapi.PaceKind, d time.Duration) { met.PaceWait(kind.String(), d) }})
}

// newBotIntake builds the intake of o's limits, whose handlers' contexts carry ctx's values
// and whose middlewares lead each update to route:
// the log line and the metrics (outermost, so they see every outcome), the handler's
// deadline, the recovery from a panic (inside the deadline, so the apology has one), the
// budget shared by all processes (when o.Budget is on), and dedupe last, so that an update
// over the budget costs no dedupe mark.
func newBotIntake(ctx context.Context, o Options, c *core, route UpdateHandler) *Intake {
	timeout := o.HandlerTimeout
	if timeout <= 0 {
		timeout = DefaultHandlerTimeout
	}
	ms := []UpdateMiddleware{logUpdates(c.log, c.scrub), countUpdates(c.met), withTimeout(timeout),
		recoverPanics(c.log, c.apologize)}
	var g *budget
	if o.Budget.On() {
		g = newBudget(o.Budget, o.RateLimiter, tooFastNotice(c.tg), c.now, c.log, c.met, c.scrub)
		g.optional = c.optional
		ms = append(ms, g.middleware)
	}
	if o.Dedupe != nil {
		ms = append(ms, dedupe(o.Dedupe, c.optional))
	}
	return newIntake(intakeConfig{Source: c.api, Handler: route, Middlewares: ms, Budget: g,
		MaxHandlers: o.MaxHandlers, WebhookWait: o.WebhookWait, Logger: c.log, Metrics: c.met,
		Redact: c.scrub, Base: ctx})
}

// Parts returns the Bot's long-running parts, for its owner to start once it is built and
// to stop around Shutdown (Parts.Start, Parts.Stop).
func (b *Bot) Parts() Parts { return b.parts }

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
	st := DrawStats{Stats: b.parts.Pictures.Stats()}
	st.ReplaysQueued, st.ReplaysDropped = b.parts.Reviews.replays.stats()
	return st
}

// ProcessUpdate handles one update and returns when it is handled (edits it caused may still
// be on their way). It is for tests and fuzzing: it bypasses the intake's admission (no
// budget, no handler slot) but not its middlewares; it does nothing after Shutdown.
func (b *Bot) ProcessUpdate(ctx context.Context, u *models.Update) { b.in.Process(ctx, u) }
