package telegram

import (
	"context"
	"sync/atomic"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
)

// Every update passes the intake before a handler runs: first the user's budget in this
// process (no I/O, no goroutine: an update over it is dropped, or answered "too fast" at most
// once per Budget.NoticeEvery), then a handler slot (at most Options.MaxHandlers run at once;
// long polling waits for one before it takes more updates, a webhook request waits
// Options.WebhookWait and is then answered 503 so that Telegram delivers it again later);
// in the handler, the user's budget shared in Redis comes before anything else.

// Defaults of the intake's options.
const (
	DefaultMaxHandlers = 256
	DefaultWebhookWait = 2 * time.Second
)

// noticeTimeout bounds the sending of one "too fast" answer; it is not retried.
const noticeTimeout = 5 * time.Second

// IntakeStats counts what the intake did with the updates it was given.
type IntakeStats struct {
	Handled     int64 // updates given to a handler
	OverBudget  int64 // updates refused by the budget (in this process or in Redis)
	Notices     int64 // "too fast" answers sent (or tried)
	Busy        int64 // webhook requests answered 503: no handler free in time
	Running     int   // handlers running now
	PeakRunning int   // the most handlers that ran at once
	Users       int   // users the per-process budget remembers now
}

// intakeCounters are the counters behind IntakeStats.
type intakeCounters struct {
	handled, overBudget, notices, busy atomic.Int64
	running, peak                      atomic.Int64
}

// Intake returns the intake's counters, for tests, load tools and metrics.
func (b *Bot) Intake() IntakeStats {
	c := &b.counters
	s := IntakeStats{Handled: c.handled.Load(), OverBudget: c.overBudget.Load(), Notices: c.notices.Load(),
		Busy: c.busy.Load(), Running: int(c.running.Load()), PeakRunning: int(c.peak.Load())}
	if b.users != nil {
		s.Users = b.users.size()
	}
	return s
}

// admission is what dispatch did with an update.
type admission int

const (
	taken  admission = iota // handled in the background, or refused by the budget
	closed                  // the bot is shut down: the update was not taken
	busy                    // no handler was free before ctx ended: the update was not taken
)

// budgetUser is whose budget u counts against: the user who sent it, or for a message
// without one (a channel, an anonymous admin) its chat; 0 when neither is known.
func budgetUser(u *models.Update) int64 {
	if id := updateFrom(u); id != 0 {
		return id
	}
	if u.Message != nil {
		return u.Message.Chat.ID
	}
	return 0
}

// dispatch passes u through the intake: the per-process budget, then a handler slot, waited
// for until ctx ends; the handler runs in the background.
func (b *Bot) dispatch(ctx context.Context, u *models.Update) admission {
	if u == nil {
		return taken
	}
	if !b.enter() {
		return closed
	}
	var ub *userBudget
	if b.users != nil {
		if id := budgetUser(u); id != 0 {
			var v verdict
			if ub, v = b.users.admit(id, b.now(), canNotice(u)); v != admitted {
				b.refused(u, v)
				b.wg.Done()
				return taken
			}
		}
	}
	select {
	case b.slots <- struct{}{}:
	default:
		select {
		case b.slots <- struct{}{}:
		case <-ctx.Done():
			if b.users != nil {
				b.users.done(ub)
			}
			b.wg.Done()
			return busy
		}
	}
	b.counters.handled.Add(1)
	b.running(1)
	go func() {
		defer b.endHandler(ub)
		b.handle(b.base, u, ub)
	}()
	return taken
}

// endHandler ends a handler (of an update of ub, when given): the user's count in flight, the
// count of handlers running, then its slot, then its share of Shutdown's wait.
func (b *Bot) endHandler(ub *userBudget) {
	if ub != nil {
		b.users.done(ub)
	}
	b.running(-1)
	<-b.slots
	b.wg.Done()
}

// running counts handlers starting (+1) or ending (-1).
func (b *Bot) running(d int64) {
	n := b.counters.running.Add(d)
	for p := b.counters.peak.Load(); n > p && !b.counters.peak.CompareAndSwap(p, n); p = b.counters.peak.Load() {
	}
	b.met.HandlerRunning(int(d))
}

// refused counts an update that the per-process budget refused and, when the user is due
// one, sends the "too fast" answer in the background on a free handler slot (none free: no
// answer). A dropped update costs no goroutine and no I/O.
func (b *Bot) refused(u *models.Update, v verdict) {
	b.counters.overBudget.Add(1)
	b.met.Throttled(updateKind(u), "budget")
	if v != noticed {
		return
	}
	select {
	case b.slots <- struct{}{}:
	default:
		return
	}
	b.wg.Add(1) // the caller holds one, so Shutdown is still waiting
	b.running(1)
	go func() {
		defer b.endHandler(nil)
		ctx, cancel := context.WithTimeout(b.base, noticeTimeout)
		defer cancel()
		b.tooFast(ctx, u)
	}()
}

// overShared handles an update that the budget shared in Redis refused, inside its handler:
// the "too fast" answer if the user is due one.
func (b *Bot) overShared(ctx context.Context, u *models.Update, ub *userBudget) {
	b.counters.overBudget.Add(1)
	b.met.Throttled(updateKind(u), "shared_budget")
	if b.users.over(ub, b.now(), canNotice(u)) == noticed {
		b.tooFast(ctx, u)
	}
}

// canNotice reports whether an update over budget gets a "too fast" answer when one is due:
// a button tap (a toast) and a message in a private chat. In groups the bot stays quiet
// rather than spend the group's message budget on it; inline queries get no answer.
func canNotice(u *models.Update) bool {
	switch {
	case u.CallbackQuery != nil:
		return u.CallbackQuery.ID != ""
	case u.Message != nil:
		return u.Message.Chat.Type == models.ChatTypePrivate && u.Message.Chat.ID != 0
	}
	return false
}

// tooFast sends the "too fast" answer to u, once, without retrying (a failure is counted in
// the metrics under its Bot API method).
func (b *Bot) tooFast(ctx context.Context, u *models.Update) {
	b.counters.notices.Add(1)
	var err error
	switch {
	case u.CallbackQuery != nil:
		lang := normLang(u.CallbackQuery.From.LanguageCode)
		_, err = b.tg.AnswerCallbackQuery(ctx, &tgbot.AnswerCallbackQueryParams{CallbackQueryID: u.CallbackQuery.ID,
			Text: tr(lang, "flood.too_fast")})
	case u.Message != nil:
		lang := langEN
		if u.Message.From != nil {
			lang = normLang(u.Message.From.LanguageCode)
		}
		_, err = b.tg.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: u.Message.Chat.ID, Text: tr(lang, "flood.too_fast")})
	}
	if err != nil {
		b.log.Debug("too fast notice", "update", u.ID, "err", b.scrub(err))
	}
}
