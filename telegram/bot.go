// Package telegram is the Telegram side of the Reversi bot: it turns Bot API updates (commands,
// typed moves, button taps, inline queries) into steps of a game.Service and the Service's
// results into messages, keyboards and pictures, in Russian or English.
//
// A Bot takes updates by long polling (RunPolling) or from a webhook (WebhookHandler), each
// update at most once (update ids are deduplicated through the store, so a webhook retry or
// a second process never applies an update twice). Every tap is answered before the AI
// thinks; board edits are coalesced per message (only the newest board is drawn) and a 429
// waits for retry_after instead of failing. Shutdown stops taking updates and waits for the
// ones in flight, so no update is left half-applied by this process.
//
// Every update passes the intake first (intake.go): each user's Budget of updates, counted in
// this process and then in Redis for all processes, beyond which an update gets a short "too
// fast" answer at most once per window and no other work; and a bound on the handlers running
// at once (Options.MaxHandlers), which long polling waits for and a webhook request waits
// for a short time before it is answered 503.
//
// Every Bot API call goes through package telegram/botapi (go-telegram/bot's methods, with
// retries and error kinds); getUpdates there confirms an update only once poll has taken it.
// The edits of one step share one store read.
package telegram

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/metrics"
	"github.com/reversibot/reversi/telegram/boards"
	"github.com/reversibot/reversi/telegram/botapi"
	"github.com/reversibot/reversi/telegram/i18n"
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
	// HandlerTimeout bounds the handling of one update; 0 means a minute.
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
}

// pollTimeout is the long-polling timeout asked of getUpdates.
const pollTimeout = 50 * time.Second

// maxIdleConns is how many idle connections to the Bot API the default client keeps.
const maxIdleConns = 64

// Bot is a running Telegram Reversi bot. Its methods are safe for concurrent use.
type Bot struct {
	api      *botapi.Client // every Bot API call, tried again after a 429 and where safe
	tg       *botapi.Client // api's Once view: calls made once, in steps that b.retry repeats
	token    string
	svc      *game.Service
	players  *game.Players
	dedupe   Deduper
	rates    RateLimiter
	log      *slog.Logger
	met      *metrics.Metrics
	now      func() time.Time
	timeout  time.Duration
	username string
	botID    int64

	// base is the context of handlers: it outlives RunPolling's context so that Shutdown can
	// let in-flight updates finish, and ends when Shutdown gives up waiting.
	base     context.Context
	baseStop context.CancelFunc

	mu      sync.Mutex
	closed  bool
	stopRun context.CancelFunc // ends RunPolling's loop
	wg      sync.WaitGroup     // handlers and edit workers in flight

	boards *boards.Editor // posts and edits the board messages

	// The intake (intake.go): the per-process budgets (nil: no budget), the shared budget's
	// limit, the handler slots and how long a webhook request waits for one.
	users       *userBudgets
	limit       Budget
	slots       chan struct{}
	webhookWait time.Duration
	counters    intakeCounters

	transport *http.Transport // the default client's, closed by Shutdown; nil for Options.HTTPClient
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
	b := &Bot{token: o.Token, svc: o.Service, players: o.Players, dedupe: o.Dedupe, rates: o.RateLimiter,
		log: o.Logger, met: o.Metrics, now: o.Now, timeout: o.HandlerTimeout}
	if b.log == nil {
		b.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if b.now == nil {
		b.now = time.Now
	}
	if b.timeout <= 0 {
		b.timeout = time.Minute
	}
	if o.Budget.On() {
		b.users = newUserBudgets(o.Budget)
		b.limit = o.Budget
	}
	if o.MaxHandlers <= 0 {
		o.MaxHandlers = DefaultMaxHandlers
	}
	b.slots = make(chan struct{}, o.MaxHandlers)
	b.webhookWait = o.WebhookWait
	if b.webhookWait <= 0 {
		b.webhookWait = DefaultWebhookWait
	}
	client := o.HTTPClient
	if client == nil {
		// Edits of many boards go out at once, all to one host: keep their connections open
		// for the next ones (http.DefaultTransport keeps 2 per host and closes the rest).
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = maxIdleConns
		b.transport = t
		client = &http.Client{Timeout: pollTimeout + 10*time.Second, Transport: t}
	}
	api, err := botapi.New(botapi.Options{Token: o.Token, ServerURL: o.APIURL, HTTPClient: client,
		Logger: b.log, OnError: func(method string, kind botapi.Kind) { b.met.TelegramError(method, string(kind)) }})
	if err != nil {
		return nil, fmt.Errorf("bot: %s", b.scrub(err))
	}
	b.api, b.tg = api, api.Once()
	me, err := api.GetMe(ctx)
	if err != nil {
		return nil, fmt.Errorf("bot: getMe: %s", b.scrub(err))
	}
	b.username, b.botID = me.Username, me.ID

	b.base, b.baseStop = context.WithCancel(context.WithoutCancel(ctx))
	b.boards = b.newEditor()
	return b, nil
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
// Shutdown is called (at once, returning nil, when Shutdown came first). Updates already taken are still being handled when it returns: call
// Shutdown to wait for them.
func (b *Bot) RunPolling(ctx context.Context) error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil
	}
	ctx, stop := context.WithCancel(ctx)
	b.stopRun = stop
	b.mu.Unlock()
	defer stop()
	if _, err := b.api.DeleteWebhook(ctx, &tgbot.DeleteWebhookParams{}); err != nil {
		if ctx.Err() != nil {
			return nil // stopped while starting
		}
		return fmt.Errorf("bot: deleteWebhook: %s", b.scrub(err))
	}
	b.poll(ctx)
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

// maxUpdateBody bounds the size of a webhook request body.
const maxUpdateBody = 1 << 20

// WebhookHandler returns the HTTP handler for Telegram's webhook requests. A request without
// the right X-Telegram-Bot-Api-Secret-Token gets 401 and is ignored (so an empty secret
// refuses every request: give SetWebhook and WebhookHandler the same non-empty secret); a body that is not an
// update gets 400; an update over its user's budget gets 200 and no work; anything else gets
// 200 as soon as a handler is free and is handled in the background (wait for it with
// Shutdown). When no handler is free within Options.WebhookWait, and after Shutdown, it
// answers 503 with Retry-After, so Telegram delivers the update again later.
func (b *Bot) WebhookHandler(secret string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := r.Header.Get("X-Telegram-Bot-Api-Secret-Token")
		if secret == "" || subtle.ConstantTimeCompare([]byte(got), []byte(secret)) != 1 {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		if r.Method != http.MethodPost {
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, maxUpdateBody))
		var u *models.Update
		if err == nil {
			u, err = botapi.DecodeUpdate(body)
		}
		if err != nil {
			http.Error(w, "bad update", http.StatusBadRequest)
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), b.webhookWait)
		res := b.dispatch(ctx, u)
		cancel()
		switch res {
		case closed:
			w.Header().Set("Retry-After", "1")
			http.Error(w, "shutting down", http.StatusServiceUnavailable)
			return
		case busy:
			b.counters.busy.Add(1)
			b.met.Throttled(updateKind(u), "busy")
			w.Header().Set("Retry-After", "1")
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusOK)
	})
}

// Shutdown stops taking updates and waits until the updates in flight and their edits are
// done, or ctx ends (then it cancels them and returns ctx's error). The Service is the
// caller's to close, after Shutdown.
func (b *Bot) Shutdown(ctx context.Context) error {
	b.mu.Lock()
	b.closed = true
	if b.stopRun != nil {
		b.stopRun()
	}
	b.mu.Unlock()
	done := make(chan struct{})
	go func() { b.wg.Wait(); close(done) }()
	var err error
	select {
	case <-done:
	case <-ctx.Done():
		err = ctx.Err()
		b.baseStop()
		<-done
	}
	b.baseStop()
	if b.transport != nil {
		b.transport.CloseIdleConnections()
	}
	return err
}

// ProcessUpdate handles one update and returns when it is handled (edits it caused may still
// be on their way). It is for tests and fuzzing: it bypasses the intake (no budget, no
// handler slot); it does nothing after Shutdown.
func (b *Bot) ProcessUpdate(ctx context.Context, u *models.Update) {
	if u == nil || !b.enter() {
		return
	}
	defer b.wg.Done()
	b.handle(ctx, u, nil)
}

// enter counts a new piece of work unless the bot is shut down.
func (b *Bot) enter() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return false
	}
	b.wg.Add(1)
	return true
}

// handle runs one update: shared budget (when ub, the user's per-process budget, is given),
// dedupe, route, recover, log, count.
func (b *Bot) handle(ctx context.Context, u *models.Update, ub *userBudget) {
	start := time.Now()
	kind := updateKind(u)
	ctx, cancel := context.WithTimeout(ctx, b.timeout)
	defer cancel()
	outcome, err := "ok", error(nil)
	defer func() {
		if r := recover(); r != nil {
			outcome = "error"
			err = fmt.Errorf("panic: %v", r)
			b.log.Error("panic in handler", "update", u.ID, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			b.apologize(ctx, u)
		}
		took := time.Since(start)
		b.met.Update(kind, outcome, took)
		attrs := []any{"update", u.ID, "kind", kind, "outcome", outcome, "took", took.Round(time.Microsecond)}
		if from := updateFrom(u); from != 0 {
			attrs = append(attrs, "user", from)
		}
		if err != nil {
			attrs = append(attrs, "err", b.scrub(err))
			b.log.Warn("update", attrs...)
			return
		}
		b.log.Info("update", attrs...)
	}()
	if ub != nil && b.rates != nil {
		ok, _, lerr := b.rates.AllowUpdate(ctx, ub.id, b.limit.Rate, b.limit.Per, b.limit.Burst)
		if lerr != nil {
			// Redis is down: the per-process budget still holds, and the handler will tell
			// the user what cannot be done.
			b.log.Debug("shared budget", "update", u.ID, "err", b.scrub(lerr))
		} else if !ok {
			outcome = "over_budget"
			b.overShared(ctx, u, ub)
			return
		}
	}
	if u.ID != 0 && b.dedupe != nil {
		first, ferr := b.dedupe.FirstSeen(ctx, u.ID)
		if ferr != nil {
			// Without the store nothing can be applied anyway; handle it so the user hears.
			b.log.Warn("dedupe", "update", u.ID, "err", b.scrub(ferr))
		} else if !first {
			outcome = "duplicate"
			return
		}
	}
	var handled bool
	switch {
	case u.Message != nil:
		handled, err = b.onMessage(ctx, u.Message)
	case u.CallbackQuery != nil:
		handled, err = true, b.onCallback(ctx, u.CallbackQuery)
	case u.InlineQuery != nil:
		handled, err = true, b.onInlineQuery(ctx, u.InlineQuery)
	case u.ChosenInlineResult != nil:
		handled, err = true, b.onChosenInline(ctx, u.ChosenInlineResult)
	}
	switch {
	case err != nil:
		outcome = "error"
	case !handled:
		outcome = "ignored"
	}
}

// apologize tells the user something went wrong after a panic, as far as the update allows.
func (b *Bot) apologize(ctx context.Context, u *models.Update) {
	defer func() { _ = recover() }()
	switch {
	case u.CallbackQuery != nil:
		lang := normLang(u.CallbackQuery.From.LanguageCode)
		_ = b.answer(ctx, u.CallbackQuery.ID, tr(lang, "err.internal"), true)
	case u.Message != nil && u.Message.Chat.ID != 0:
		lang := langEN
		if u.Message.From != nil {
			lang = normLang(u.Message.From.LanguageCode)
		}
		_, _ = b.sendText(ctx, u.Message.Chat.ID, tr(lang, "err.internal"), nil)
	}
}

// updateKind names the kind of update for logs and metrics.
func updateKind(u *models.Update) string {
	switch {
	case u.Message != nil:
		return "message"
	case u.CallbackQuery != nil:
		return "callback_query"
	case u.InlineQuery != nil:
		return "inline_query"
	case u.ChosenInlineResult != nil:
		return "chosen_inline_result"
	case u.EditedMessage != nil:
		return "edited_message"
	}
	return "other"
}

// updateFrom returns the id of the user who caused u, 0 when unknown.
func updateFrom(u *models.Update) int64 {
	switch {
	case u.Message != nil && u.Message.From != nil:
		return u.Message.From.ID
	case u.CallbackQuery != nil:
		return u.CallbackQuery.From.ID
	case u.InlineQuery != nil && u.InlineQuery.From != nil:
		return u.InlineQuery.From.ID
	case u.ChosenInlineResult != nil:
		return u.ChosenInlineResult.From.ID
	}
	return 0
}

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
