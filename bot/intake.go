package bot

import (
	"context"
	"crypto/subtle"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/botapi"
	"github.com/reversibot/reversi/metrics"
)

// UpdateHandler handles one update. It is go-telegram/bot's HandlerFunc without its *tgbot.Bot
// parameter: every Bot API call of this package goes through botapi.Client (retries, error
// kinds), the library's Bot is that client's business, and long polling, the webhook and
// ProcessUpdate have none to pass.
type UpdateHandler func(ctx context.Context, u *models.Update)

// UpdateMiddleware wraps an UpdateHandler with one cross-cutting step, in go-telegram/bot's shape.
type UpdateMiddleware func(next UpdateHandler) UpdateHandler

// chain returns h wrapped in ms, the first outermost (go-telegram/bot's order).
func chain(h UpdateHandler, ms ...UpdateMiddleware) UpdateHandler {
	for i := len(ms) - 1; i >= 0; i-- {
		h = ms[i](h)
	}
	return h
}

// Defaults of the intake's options.
const (
	DefaultMaxHandlers = 256
	DefaultWebhookWait = 2 * time.Second
)

// Timeouts and waits of the intake.
const (
	// pollTimeout is the long-polling timeout asked of getUpdates (less a second, so the
	// reply comes before the HTTP client gives up; see clientTimeout).
	pollTimeout = 50 * time.Second
	// firstPollBackoff and maxPollBackoff are the waits after a failed getUpdates: the first,
	// and the most.
	firstPollBackoff = 100 * time.Millisecond
	maxPollBackoff   = 5 * time.Second
	// noticeTimeout bounds the sending of one answer to an update over budget ("slow down",
	// "too fast"); it is not retried.
	noticeTimeout = 5 * time.Second
	// busyRetryAfter is the Retry-After of a webhook request answered 503.
	busyRetryAfter = "1"
)

// maxUpdateBody bounds the size of a webhook request body.
const maxUpdateBody = 1 << 20

// allowedUpdates are the kinds of update the bot asks Telegram for.
var allowedUpdates = []string{"message", "callback_query", "inline_query", "chosen_inline_result"}

// updateSource is where long polling takes updates from (botapi.Client).
type updateSource interface {
	DeleteWebhook(ctx context.Context, p *tgbot.DeleteWebhookParams) (bool, error)
	GetUpdates(ctx context.Context, p botapi.GetUpdatesParams) ([]*models.Update, int64, error)
}

// intakeConfig configures an Intake.
type intakeConfig struct {
	Source      updateSource       // long polling; nil when only the webhook is used
	Handler     UpdateHandler      // the handler every admitted update reaches
	Middlewares []UpdateMiddleware // around Handler, the first outermost
	// Budget is the per-process half of the users' budgets, checked before an update takes a
	// handler slot (its shared half is one of Middlewares); nil: no budget.
	Budget      *budget
	MaxHandlers int           // 0 means DefaultMaxHandlers
	WebhookWait time.Duration // 0 means DefaultWebhookWait
	Logger      *slog.Logger  // not nil
	Metrics     *metrics.Metrics
	Redact      func(error) string // an error's text without secrets, for the log
	Clock       botapi.Clock       // times the poll loop's rests; nil means the real time
	// Base is the parent of the handlers' contexts, for its values (its end is not theirs:
	// Shutdown ends them); nil means context.Background().
	Base context.Context
}

// An Intake takes updates, by long polling (Poll) or from Telegram's webhook requests
// (Webhook), and feeds each through its middlewares to the handler, on a handler goroutine.
// Before an update takes a handler, the user's budget in this process is checked (no I/O, no
// goroutine: an update over it is dropped, or answered when the user is due an answer: a tap
// "slow down" once per Budget.TapNoticeEvery, a private message "too fast" once per
// Budget.NoticeEvery; an admitted update counts against its user's Budget.InFlight while it
// works, not while it waits for a chat's pacing); then it waits for a handler slot (at most
// MaxHandlers run at once; long polling waits for one before it takes more updates, a webhook
// request waits WebhookWait and is then answered 503 so that Telegram delivers it again
// later). Shutdown stops taking updates and waits for the ones in flight. Its methods are
// safe for concurrent use.
type Intake struct {
	src    updateSource
	handle UpdateHandler // Handler inside Middlewares
	budget *budget
	slots  chan struct{}
	wait   time.Duration
	log    *slog.Logger
	met    *metrics.Metrics
	redact func(error) string
	clock  botapi.Clock // times the poll loop's rests

	// base is the context of handlers: it outlives Poll's and a webhook request's context so
	// that Shutdown can let in-flight updates finish, and ends when Shutdown gives up waiting.
	base     context.Context
	baseStop context.CancelFunc

	mu       sync.Mutex
	closed   bool
	stopPoll context.CancelFunc // ends Poll's loop
	wg       sync.WaitGroup     // handlers in flight

	counters intakeCounters
}

// newIntake returns an Intake for c, taking no updates until Poll or Webhook is called.
func newIntake(c intakeConfig) *Intake {
	if c.MaxHandlers <= 0 {
		c.MaxHandlers = DefaultMaxHandlers
	}
	if c.WebhookWait <= 0 {
		c.WebhookWait = DefaultWebhookWait
	}
	if c.Redact == nil {
		c.Redact = func(err error) string { return err.Error() }
	}
	in := &Intake{src: c.Source, handle: chain(c.Handler, c.Middlewares...), budget: c.Budget,
		slots: make(chan struct{}, c.MaxHandlers), wait: c.WebhookWait, log: c.Logger, met: c.Metrics,
		redact: c.Redact, clock: c.Clock}
	if in.clock == nil {
		in.clock = botapi.SystemClock()
	}
	if c.Base == nil {
		c.Base = context.Background()
	}
	in.base, in.baseStop = context.WithCancel(context.WithoutCancel(c.Base))
	return in
}

// IntakeStats counts what the intake did with the updates it was given.
type IntakeStats struct {
	Handled     int64 // updates given to a handler
	OverBudget  int64 // updates refused by the budget (in this process or in Redis)
	Notices     int64 // answers to updates over budget ("slow down", "too fast") sent (or tried)
	Busy        int64 // webhook requests answered 503: no handler free in time
	Running     int   // handlers running now
	PeakRunning int   // the most handlers that ran at once
	Users       int   // users the per-process budget remembers now
}

// intakeCounters are the intake's own counters behind IntakeStats.
type intakeCounters struct {
	handled, busy atomic.Int64
	running, peak atomic.Int64
}

// Stats returns the intake's counters, for tests, load tools and metrics.
func (in *Intake) Stats() IntakeStats {
	c := &in.counters
	s := IntakeStats{Handled: c.handled.Load(), Busy: c.busy.Load(), Running: int(c.running.Load()),
		PeakRunning: int(c.peak.Load())}
	if in.budget != nil {
		s.OverBudget, s.Notices = in.budget.overBudget.Load(), in.budget.notices.Load()
		s.Users = in.budget.users.size()
	}
	return s
}

// Poll deletes any webhook, then takes updates by long polling and dispatches each, until ctx
// ends or Shutdown is called (at once, returning nil, when Shutdown came first). While every
// handler is busy it waits (and takes no more updates). An update is confirmed to Telegram
// (by the offset of the next getUpdates) only after dispatch took it, so a stop never drops a
// confirmed update. After a failed getUpdates, or one answered with nothing long before its
// timeout (a proxy, an error page, a misbehaving server), it waits before the next call, a
// wait that doubles up to maxPollBackoff, and logs the first of such a run and its end, not
// every call. Updates already taken are still being handled when it returns: call
// Shutdown to wait for them. It fails only when deleteWebhook does.
func (in *Intake) Poll(ctx context.Context) error {
	in.mu.Lock()
	if in.closed {
		in.mu.Unlock()
		return nil
	}
	ctx, stop := context.WithCancel(ctx)
	in.stopPoll = stop
	in.mu.Unlock()
	defer stop()
	if _, err := in.src.DeleteWebhook(ctx, &tgbot.DeleteWebhookParams{}); err != nil {
		if ctx.Err() != nil {
			return nil // stopped while starting
		}
		return err
	}
	var offset int64
	var rest pollRest
	for ctx.Err() == nil {
		if d := rest.wait; d > 0 {
			fired, stop := in.clock.Timer(d)
			select {
			case <-ctx.Done():
				stop()
				return nil
			case <-fired:
			}
		}
		asked := in.clock.Now()
		ups, next, err := in.src.GetUpdates(ctx, botapi.GetUpdatesParams{Offset: offset,
			Timeout: int((pollTimeout - time.Second) / time.Second), AllowedUpdates: allowedUpdates})
		switch {
		case err != nil:
			if ctx.Err() != nil {
				return nil
			}
			rest.failed(in.log, in.redact(err))
			continue
		case len(ups) == 0 && next == offset && in.clock.Now().Sub(asked) < pollTimeout/2:
			rest.early(in.log)
			continue
		}
		rest.answered(in.log)
		for _, u := range ups {
			if in.dispatch(ctx, u) != taken {
				return nil // shut down, or stopped while waiting for a handler
			}
		}
		offset = next
	}
	return nil
}

// Webhook returns the HTTP handler for Telegram's webhook requests. A request without the
// right X-Telegram-Bot-Api-Secret-Token gets 401 and is ignored (so an empty secret refuses
// every request: give setWebhook and Webhook the same non-empty secret); a body that is not
// an update gets 400; an update over its user's budget gets 200 and no work; anything else
// gets 200 as soon as a handler is free and is handled in the background (wait for it with
// Shutdown). When no handler is free within WebhookWait, and after Shutdown, it answers 503
// with Retry-After, so Telegram delivers the update again later.
func (in *Intake) Webhook(secret string) http.Handler {
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
		ctx, cancel := context.WithTimeout(r.Context(), in.wait)
		res := in.dispatch(ctx, u)
		cancel()
		switch res {
		case closed:
			w.Header().Set("Retry-After", busyRetryAfter)
			http.Error(w, "shutting down", http.StatusServiceUnavailable)
			return
		case busy:
			in.counters.busy.Add(1)
			in.met.Throttled(updateKind(u), "busy")
			w.Header().Set("Retry-After", busyRetryAfter)
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusOK)
	})
}

// Process feeds u through the middlewares to the handler and returns when it is handled. It
// bypasses the admission (no per-process budget, no handler slot, and so no shared budget
// either); it does nothing after Shutdown.
func (in *Intake) Process(ctx context.Context, u *models.Update) {
	if u == nil || !in.enter() {
		return
	}
	defer in.wg.Done()
	in.handle(ctx, u)
}

// Shutdown stops taking updates and waits until the updates in flight are handled, or ctx
// ends (then it cancels their contexts, waits for them to return and returns ctx's error).
func (in *Intake) Shutdown(ctx context.Context) error {
	in.mu.Lock()
	in.closed = true
	if in.stopPoll != nil {
		in.stopPoll()
	}
	in.mu.Unlock()
	done := make(chan struct{})
	go func() { in.wg.Wait(); close(done) }()
	var err error
	select {
	case <-done:
	case <-ctx.Done():
		err = ctx.Err()
		in.baseStop()
		<-done
	}
	in.baseStop()
	return err
}

// enter counts a new update in flight unless the intake is shut down.
func (in *Intake) enter() bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.closed {
		return false
	}
	in.wg.Add(1)
	return true
}

// admission is what dispatch did with an update.
type admission int

const (
	taken  admission = iota // handled in the background, or refused by the budget
	closed                  // the intake is shut down: the update was not taken
	busy                    // no handler was free before ctx ended: the update was not taken
)

// dispatch passes u through the admission: the per-process budget, then a handler slot,
// waited for until ctx ends; the handler runs in the background.
func (in *Intake) dispatch(ctx context.Context, u *models.Update) admission {
	if u == nil {
		return taken
	}
	if !in.enter() {
		return closed
	}
	var f *flight
	if in.budget != nil {
		var v verdict
		if f, v = in.budget.admit(u); v != admitted {
			in.refused(u, v)
			in.wg.Done()
			return taken
		}
	}
	select {
	case in.slots <- struct{}{}:
	default:
		select {
		case in.slots <- struct{}{}:
		case <-ctx.Done():
			in.budget.done(f)
			in.wg.Done()
			return busy
		}
	}
	in.counters.handled.Add(1)
	in.running(1)
	go func() {
		defer in.endHandler(f)
		in.handle(withFlight(in.base, f), u)
	}()
	return taken
}

// endHandler ends a handler (of the update f, when given): the user's count in flight, the
// count of handlers running, then its slot, then its share of Shutdown's wait.
func (in *Intake) endHandler(f *flight) {
	in.budget.done(f)
	in.running(-1)
	<-in.slots
	in.wg.Done()
}

// running counts handlers starting (+1) or ending (-1).
func (in *Intake) running(d int64) {
	n := in.counters.running.Add(d)
	for p := in.counters.peak.Load(); n > p && !in.counters.peak.CompareAndSwap(p, n); p = in.counters.peak.Load() {
	}
	in.met.HandlerRunning(int(d))
}

// refused counts an update that the per-process budget refused and, when the user is due
// one, sends its answer ("slow down", "too fast") in the background on a free handler slot
// (none free: no answer). A dropped update costs no goroutine and no I/O.
func (in *Intake) refused(u *models.Update, v verdict) {
	in.budget.refused(u, "budget")
	if v != noticed {
		return
	}
	select {
	case in.slots <- struct{}{}:
	default:
		return
	}
	in.wg.Add(1) // the caller holds one, so Shutdown is still waiting
	in.running(1)
	go func() {
		defer in.endHandler(nil)
		ctx, cancel := context.WithTimeout(in.base, noticeTimeout)
		defer cancel()
		in.budget.notice(ctx, u)
	}()
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
