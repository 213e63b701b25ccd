package bot

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
	"golang.org/x/time/rate"

	"github.com/reversibot/reversi/bot/botapi"
	"github.com/reversibot/reversi/bot/i18n"
	"github.com/reversibot/reversi/bot/optional"
	"github.com/reversibot/reversi/metrics"
)

// Budget is how many updates one user may send: Burst at once, then Rate per Per. Updates over
// it get a short answer and no other work: a tap a "slow down" toast, at most one per user per
// TapNoticeEvery (so a player who taps again after a moment always learns what became of the
// tap), a private message a "too fast" message, at most one per user per NoticeEvery. It is
// counted twice: in this process first (golang.org/x/time/rate, in memory, before an update
// takes a handler or touches Redis, so a flood costs almost nothing), then in Redis
// (Options.RateLimiter, storage.AllowUpdate in Redis), where every bot process on the same Redis shares it.
type Budget struct {
	Rate  int           // updates per Per, sustained
	Per   time.Duration // the period of Rate
	Burst int           // updates at once
	// InFlight bounds the updates of one user handled at once (an update over it is treated
	// as over budget); one that waits for a chat's flood limits (a send or an edit paced by
	// botapi.Pacer) does no work meanwhile and does not count. 0 means DefaultInFlight.
	InFlight int
	// NoticeEvery spaces the "too fast" messages to one user; 0 means DefaultNoticeEvery.
	NoticeEvery time.Duration
	// TapNoticeEvery spaces the "slow down" toasts to one user's taps; 0 means
	// DefaultTapNoticeEvery.
	TapNoticeEvery time.Duration
	// Users bounds how many users this process remembers (the least recently seen are
	// forgotten first, and a user idle long enough to have a full budget again is forgotten
	// anyway); 0 means DefaultBudgetUsers.
	Users int
}

// DefaultBudget is a budget no fast human meets: a move every 0.2 s for as long as they like
// (a player rarely taps faster than one every 0.3 s), and 20 updates at once (double taps,
// a burst of inline queries while typing, a few commands in a group).
var DefaultBudget = Budget{Rate: 5, Per: time.Second, Burst: 20}

// Defaults of a Budget's other fields.
const (
	DefaultInFlight       = 8
	DefaultNoticeEvery    = 10 * time.Second
	DefaultTapNoticeEvery = time.Second
	DefaultBudgetUsers    = 1 << 16
)

// On reports whether b limits anything: Rate, Per and Burst are all positive.
func (b Budget) On() bool { return b.Rate > 0 && b.Per > 0 && b.Burst > 0 }

// filled returns b with its zero fields set to their defaults.
func (b Budget) filled() Budget {
	if b.InFlight <= 0 {
		b.InFlight = DefaultInFlight
	}
	if b.NoticeEvery <= 0 {
		b.NoticeEvery = DefaultNoticeEvery
	}
	if b.TapNoticeEvery <= 0 {
		b.TapNoticeEvery = DefaultTapNoticeEvery
	}
	if b.Users <= 0 {
		b.Users = DefaultBudgetUsers
	}
	return b
}

// verdict is what the budget says of one update.
type verdict int

const (
	admitted verdict = iota // within the budget: handle it
	noticed                 // over it, and the user is due a "too fast" or "slow down" answer
	dropped                 // over it: no answer, no work
)

// answer is how an update over the budget can be answered.
type answer int

const (
	mute      answer = iota // no answer (a group message, an inline query)
	byMessage               // a "too fast" message in a private chat, one per NoticeEvery
	byToast                 // a "slow down" toast on a tap, one per TapNoticeEvery
)

// budget is the users' budget of the intake, in two halves: admit, which the Intake calls
// before an update takes a handler slot (golang.org/x/time/rate in this process, no I/O), and
// middleware, which runs in the handler in front of the shared limiter. An update over either
// gets its answer (notify) when the user is due one (see Budget), and no other work.
type budget struct {
	users  *userBudgets
	limit  Budget
	shared RateLimiter
	// optional runs the calls to shared (nil: unbounded, each failure its own).
	optional *optional.Guard
	notify   func(ctx context.Context, u *models.Update) error // the "too fast" or "slow down" answer
	now      func() time.Time
	log      *slog.Logger
	met      *metrics.Metrics
	redact   func(error) string

	overBudget, notices atomic.Int64
}

// newBudget returns the budget b (which must be On) with the shared half in shared (nil:
// this process's half only), answering updates over it with notify. now, log, met and redact
// are the clock, the logger, the metrics and how an error is logged (all but met not nil).
func newBudget(b Budget, shared RateLimiter, notify func(context.Context, *models.Update) error,
	now func() time.Time, log *slog.Logger, met *metrics.Metrics, redact func(error) string) *budget {
	return &budget{users: newUserBudgets(b), limit: b, shared: shared, notify: notify, now: now,
		log: log, met: met, redact: redact}
}

// admit takes u from its user's budget in this process. When the verdict is admitted, u
// counts as in flight (f, nil for an update of nobody known) until done, except while it
// waits for pacing (f.paced).
func (g *budget) admit(u *models.Update) (f *flight, v verdict) {
	id := budgetUser(u)
	if id == 0 {
		return nil, admitted
	}
	s, v := g.users.admit(id, g.now(), answerOf(u))
	if v != admitted {
		return nil, v
	}
	return &flight{users: g.users, s: s}, admitted
}

// allow takes one request of user that is no update (the Mini App's) from both halves of
// the budget, as an update is taken, and reports whether it had room; a nil budget allows
// everything, and a shared limiter that fails leaves this process's half to hold.
func (g *budget) allow(ctx context.Context, user int64) bool {
	if g == nil || user == 0 {
		return true
	}
	s, v := g.users.admit(user, g.now(), mute)
	if v != admitted {
		return false
	}
	g.users.done(s)
	if g.shared == nil {
		return true
	}
	ok, _, err := g.shared.AllowUpdate(ctx, user, g.limit.Rate, g.limit.Per, g.limit.Burst)
	return ok || err != nil
}

// done ends an admitted update f; it does nothing when f is nil.
func (g *budget) done(f *flight) {
	if f != nil {
		f.end()
	}
}

// refused counts u as refused for reason ("budget", "shared_budget").
func (g *budget) refused(u *models.Update, reason string) {
	g.overBudget.Add(1)
	g.met.Throttled(updateKind(u), reason)
}

// notice sends the answer to u over the budget ("slow down", "too fast") once, without
// retrying (a failure is counted in the metrics under its Bot API method).
func (g *budget) notice(ctx context.Context, u *models.Update) {
	g.notices.Add(1)
	if err := g.notify(ctx, u); err != nil {
		g.log.Debug("too fast notice", "update", u.ID, "err", g.redact(err))
	}
}

// middleware is the shared half of the budget: an update that admit let through (its
// flight is in ctx) is taken from the user's budget in the shared limiter first; over
// it, the update's outcome is over_budget, the user gets their answer when due, and
// next is not called. An update that did not pass admit (ProcessUpdate) and a shared limiter
// that fails or does not answer in time (optional.Guard: a Redis node lost; this process's
// half still holds) go on to next.
func (g *budget) middleware(next UpdateHandler) UpdateHandler {
	return func(ctx context.Context, u *models.Update) {
		f := flightOf(ctx)
		if f == nil || g.shared == nil {
			next(ctx, u)
			return
		}
		ok := true
		if g.optional.Do(ctx, "shared budget", func(ctx context.Context) (err error) {
			ok, _, err = g.shared.AllowUpdate(ctx, f.s.id, g.limit.Rate, g.limit.Per, g.limit.Burst)
			return err
		}) && !ok {
			setOutcome(ctx, outcomeOverBudget, nil)
			g.refused(u, "shared_budget")
			if g.users.over(f.s, g.now(), answerOf(u)) == noticed {
				g.notice(ctx, u)
			}
			return
		}
		next(ctx, u)
	}
}

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

// answerOf is how an update over budget is answered when an answer is due: a button tap by
// a toast, a message in a private chat by a message. In groups the bot stays quiet rather
// than spend the group's message budget on it; inline queries get no answer.
func answerOf(u *models.Update) answer {
	switch {
	case u.CallbackQuery != nil && u.CallbackQuery.ID != "":
		return byToast
	case u.Message != nil && u.Message.Chat.Type == models.ChatTypePrivate && u.Message.Chat.ID != 0:
		return byMessage
	}
	return mute
}

// budgetShards spreads the users over locks, for webhook mode's concurrent requests.
const budgetShards = 16

// userBudgets is the per-process side of the budget: for each user seen lately, a token
// bucket, the updates of theirs in flight (and waiting for pacing) and when they may next be
// told they are too fast.
// It holds at most Budget.Users users. Safe for concurrent use.
type userBudgets struct {
	b      Budget
	every  rate.Limit
	forget time.Duration // idle this long, a user's state is that of a user never seen
	shards [budgetShards]budgetShard
}

// budgetShard is the users of one lock, in a list from the most to the least recently seen.
type budgetShard struct {
	mu         sync.Mutex
	m          map[int64]*userBudget
	head, tail *userBudget
	max        int
}

// userBudget is one user's state.
type userBudget struct {
	id          int64
	lim         *rate.Limiter
	inFlight    int       // admitted updates at work
	pacing      int       // admitted updates waiting for pacing (see flight)
	noticeAt    time.Time // no "too fast" message before this
	tapNoticeAt time.Time // no "slow down" toast before this
	last        time.Time
	prev, next  *userBudget
}

// newUserBudgets returns the per-process budgets of b (which must be On).
func newUserBudgets(b Budget) *userBudgets {
	b = b.filled()
	u := &userBudgets{b: b, every: rate.Every(b.Per / time.Duration(b.Rate))}
	u.forget = max(time.Duration(b.Burst)*b.Per/time.Duration(b.Rate), b.NoticeEvery, b.TapNoticeEvery)
	for i := range u.shards {
		u.shards[i] = budgetShard{m: make(map[int64]*userBudget), max: max(1, b.Users/budgetShards)}
	}
	return u
}

func (u *userBudgets) shard(id int64) *budgetShard {
	return &u.shards[uint64(id)%budgetShards]
}

// admit takes one update of user id at now from the budget. When the verdict is admitted the
// update counts as in flight until done is called with the returned state. a says how the
// update could be answered: only then may the verdict be noticed (and the user's window for
// that answer begin).
func (u *userBudgets) admit(id int64, now time.Time, a answer) (*userBudget, verdict) {
	sh := u.shard(id)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	s := sh.m[id]
	if s == nil {
		sh.forgetLocked(now, u.forget)
		s = &userBudget{id: id, lim: rate.NewLimiter(u.every, u.b.Burst)}
		sh.m[id] = s
	} else {
		sh.unlinkLocked(s)
	}
	sh.pushLocked(s)
	s.last = now
	if s.inFlight >= u.b.InFlight || !s.lim.AllowN(now, 1) {
		return s, u.overLocked(s, now, a)
	}
	s.inFlight++
	return s, admitted
}

// done ends an admitted update of s.
func (u *userBudgets) done(s *userBudget) {
	if s == nil {
		return
	}
	sh := u.shard(s.id)
	sh.mu.Lock()
	s.inFlight--
	sh.mu.Unlock()
}

// over is the verdict on an update of s that another check (the shared budget in Redis)
// refused: noticed when the user is due the answer a (a toast once per TapNoticeEvery, a
// message once per NoticeEvery), dropped otherwise.
func (u *userBudgets) over(s *userBudget, now time.Time, a answer) verdict {
	sh := u.shard(s.id)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return u.overLocked(s, now, a)
}

func (u *userBudgets) overLocked(s *userBudget, now time.Time, a answer) verdict {
	at, every := &s.noticeAt, u.b.NoticeEvery
	switch a {
	case mute:
		return dropped
	case byToast:
		at, every = &s.tapNoticeAt, u.b.TapNoticeEvery
	}
	if now.Before(*at) {
		return dropped
	}
	*at = now.Add(every)
	return noticed
}

// size returns how many users are remembered.
func (u *userBudgets) size() int {
	n := 0
	for i := range u.shards {
		sh := &u.shards[i]
		sh.mu.Lock()
		n += len(sh.m)
		sh.mu.Unlock()
	}
	return n
}

// forgetLocked makes room for a new user: it forgets the least recently seen users who have
// been idle for forget (their state is a fresh one's) and nothing in flight, looking at two
// at most, and then, if the shard is still full, the least recently seen one whatever its
// state (only a flood of many users gets that far, and the shared budget in Redis still
// counts them).
func (sh *budgetShard) forgetLocked(now time.Time, forget time.Duration) {
	s := sh.tail
	for range 2 {
		if s == nil {
			break
		}
		prev := s.prev
		if s.inFlight == 0 && s.pacing == 0 && now.Sub(s.last) >= forget {
			sh.removeLocked(s)
		}
		s = prev
	}
	if len(sh.m) >= sh.max && sh.tail != nil {
		sh.removeLocked(sh.tail)
	}
}

func (sh *budgetShard) removeLocked(s *userBudget) {
	sh.unlinkLocked(s)
	delete(sh.m, s.id)
}

func (sh *budgetShard) unlinkLocked(s *userBudget) {
	if s.prev != nil {
		s.prev.next = s.next
	} else {
		sh.head = s.next
	}
	if s.next != nil {
		s.next.prev = s.prev
	} else {
		sh.tail = s.prev
	}
	s.prev, s.next = nil, nil
}

func (sh *budgetShard) pushLocked(s *userBudget) {
	s.next = sh.head
	if sh.head != nil {
		sh.head.prev = s
	}
	sh.head = s
	if sh.tail == nil {
		sh.tail = s
	}
}

// tooFastNotice returns the answer to an update over budget, sent through tg: a "slow down"
// toast for a button tap, a "too fast" message in a private chat; nothing for other updates.
func tooFastNotice(tg *botapi.Client) func(context.Context, *models.Update) error {
	return func(ctx context.Context, u *models.Update) error {
		var err error
		switch {
		case u.CallbackQuery != nil:
			lang := normLang(u.CallbackQuery.From.LanguageCode)
			_, err = tg.AnswerCallbackQuery(ctx, &tgbot.AnswerCallbackQueryParams{CallbackQueryID: u.CallbackQuery.ID,
				Text: tr(lang, i18n.KeyFloodSlowDown)})
		case u.Message != nil:
			lang := langEN
			if u.Message.From != nil {
				lang = normLang(u.Message.From.LanguageCode)
			}
			_, err = tg.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: u.Message.Chat.ID, Text: tr(lang, i18n.KeyFloodTooFast)})
		}
		return err
	}
}
