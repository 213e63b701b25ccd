package botapi

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Pacing of outgoing messages and edits.
//
// Telegram limits what a bot sends and edits (the two share one budget): about one message a
// second in one chat (short bursts tolerated), about twenty a minute in a group, about thirty a
// second across all chats; over a limit comes a 429, and a bot that keeps calling is given ever
// longer waits. Telegram counts a budget over every window (a group's over any sixty seconds),
// not as a rate with a burst on top. A Pacer keeps the bot inside budgets of its own before
// Telegram has to: every send or edit first calls Pacer.Wait for its chat, which returns once
// both the chat's budget and the bot's global budget have room, and spends one unit of each;
// once Telegram has answered the call, Pacer.Done says so. Between the two the call counts as
// in flight: it may reach Telegram at any moment, so it counts in every window that holds
// that moment (see Limit). That makes the budgets exact whatever the delays: a window
// Telegram counts never holds more calls than the budget allows, however late a call
// arrives, however the boards, notices and replays of a chat mix, and however many
// processes share the budgets.
//
// How the Client and the board Editor call it:
//
//   - A Client made with Options.Pacer calls Wait(ctx, key, kind) right before each attempt
//     of sendMessage, sendPhoto, sendAnimation and editMessage* (text, caption, reply
//     markup, media), also before each retry after a 429 or a 5xx, since every attempt that
//     reaches Telegram counts, and Done(ctx, key, answered) right after the attempt. The key is
//     ChatOf(p.ChatID) for a chat's message, InlineOf(p.InlineMessageID) for an inline
//     message; the kind is the context's (WithPaceKind), PaceInfo when it has none.
//     answerCallbackQuery, answerInlineQuery, deleteMessage, sendChatAction, getUpdates,
//     getMe, setMyCommands and webhook calls never wait (Telegram does not count them).
//   - kind is PaceTurn for a board that shows a player it is their move, PaceBoard for any
//     other board (a game the AI is to move in, a finished game, a lobby), PaceInfo for
//     everything else (notifications, passes, results, help). A chat's boards go before its
//     infos, and an info leaves one unit of the burst to the boards: it goes only when the
//     chat's budget has room for it and one more.
//   - When a call still meets a 429, the Client calls Throttled(ctx, key, retry_after) before
//     it waits out retry_after: it holds that chat's budget (in every process sharing the
//     Budgets) and no other chat's. A 429 is taken as a chat's, unless another chat met one
//     while the first one's hold lasts: then the bot is over the global limit, and the
//     global budget is held too.
//   - Wait returns ctx's error when ctx ends first; the call is then not made. Any other error
//     is the Budgets' (Redis unreachable): the Client makes the call anyway (a 429 still
//     guards it) and logs the error, so an outage of Redis does not silence the bot.
//   - The Editor coalesces before it waits: it calls Wait for the chat of a message, then
//     draws the newest board of the message at that moment (only the newest board is ever
//     drawn), so the time spent waiting is never spent drawing a board that is already stale.
//     It makes that call with a context from Pacer.Paid, which tells the Client that the
//     first call into that chat has been paced already (the Client then calls Done after
//     it); when the Editor is done with that context and its unit was not used, the unit is
//     given back.
//
// The budgets are the bot's, not a process's: with Options.Budgets a storage.PaceBudgets, every
// process on the same Redis spends the same ones. Priority of boards over info is kept among
// the waiters of one process (a process does not see another's queue).

// PaceKind is what a message or edit is to the chat's players, which decides who goes first
// when a chat's budget is short.
type PaceKind int

const (
	// PaceTurn draws a board that shows a player it is their move: it goes first.
	PaceTurn PaceKind = iota
	// PaceBoard draws any other board (the AI to move, a finished game, a lobby); it goes
	// before every PaceInfo of its chat.
	PaceBoard
	// PaceInfo only informs (a notification, a pass, a result); it waits while a board of
	// its chat waits, and leaves one unit of the chat's burst to the boards.
	PaceInfo
)

// String names the kind in logs and tests.
func (k PaceKind) String() string {
	switch k {
	case PaceTurn:
		return "turn"
	case PaceBoard:
		return "board"
	}
	return "info"
}

// ChatKey names the chat whose budget a message or edit spends: a private chat, a group (or
// supergroup or channel: a chat id < 0), or an inline message, which lives in a chat the bot
// cannot see and so counts as a chat of its own. The zero ChatKey is the private chat 0.
type ChatKey struct {
	id     int64
	inline string
}

// ChatOf is the key of the chat with the id: a group when id < 0, else a private chat.
func ChatOf(chatID int64) ChatKey { return ChatKey{id: chatID} }

// InlineOf is the key of the inline message with the inline_message_id.
func InlineOf(inlineMessageID string) ChatKey { return ChatKey{inline: inlineMessageID} }

// Group reports whether k is a group's (chat id < 0).
func (k ChatKey) Group() bool { return k.inline == "" && k.id < 0 }

// Inline reports whether k is an inline message's.
func (k ChatKey) Inline() bool { return k.inline != "" }

// String is k's budget key: "p:ID" for a private chat, "g:ID" for a group, "i:ID" for an
// inline message.
func (k ChatKey) String() string {
	switch {
	case k.Inline():
		return "i:" + k.inline
	case k.Group():
		return "g:" + strconv.FormatInt(k.id, 10)
	}
	return "p:" + strconv.FormatInt(k.id, 10)
}

// globalKey is the budget key of the bot as a whole.
const globalKey = "all"

// Limit is a budget: Burst calls at once, then Rate per Per spread out evenly (a GCRA), and
// never more than max(Rate, Burst) calls in any Per nor more than Burst in any Per/Rate,
// wherever those windows start. The windows count each call from the moment Wait let it go
// until Done said it was answered (PaceOpenFor at most), so they hold however late it
// reached Telegram: twenty a minute with a burst of three sends three at once, then one
// every three seconds, and never a 21st within a minute. storage.PaceBudgets counts the same
// way. A Limit without a positive Rate, Per and Burst allows everything.
type Limit struct {
	Rate  int
	Per   time.Duration
	Burst int
}

// unlimited reports whether l allows everything.
func (l Limit) unlimited() bool { return l.Rate <= 0 || l.Per <= 0 || l.Burst <= 0 }

// PaceOpenFor is how long a call a Wait let go counts as in flight when no Done ends it (its
// process died while Telegram had it) or Done says no reply came (the request failed or was
// cancelled on its way): then it counts as answered PaceOpenFor after it went. Telegram
// answers within a second, so a call still unanswered after this is as good as lost; a span
// longer than the wait a player or a stopping process tolerates would freeze the chat behind
// a call that never arrives (a restart after a kill, a replay cancelled by a stop).
// storage.PaceBudgets uses the same span.
const PaceOpenFor = 5 * time.Second

// paceWindow is a window of a budget: at most n calls in any per.
type paceWindow struct {
	n   int
	per time.Duration
}

// paceInterval is the GCRA's interval of a budget of rate per per (rounded up: never faster).
func paceInterval(rate int, per time.Duration) time.Duration {
	r := time.Duration(rate)
	return (per + r - 1) / r
}

// paceWindows are the windows of a budget (see Limit): max(rate, burst) in any per, burst
// in any interval.
func paceWindows(rate int, per time.Duration, burst int) [2]paceWindow {
	return [2]paceWindow{{max(rate, burst), per}, {burst, paceInterval(rate, per)}}
}

// PaceLimits are a Pacer's budgets; a zero Limit is replaced by the default's (use a Limit with
// Rate -1 for no budget).
type PaceLimits struct {
	Private Limit // each private chat
	Group   Limit // each group
	Inline  Limit // each inline message (it may live in a group, so a group's budget)
	Global  Limit // the bot as a whole
}

// DefaultPaceLimits are Telegram's published figures, counted as Telegram counts them (every
// window) with each call in flight counted from before it leaves until its answer came: one
// a second in a private chat with a burst of 2 (never more than 2 in any second, of the 3
// Telegram tolerates), twenty a minute in a group (and an inline message) with a burst of 3
// (never more than twenty in any minute, nor 3 in any 3 seconds), and 25 a second in all (of
// Telegram's thirty) with a burst of 20, so that a bot busy in many chats at once stays clear
// of the global limit.
var DefaultPaceLimits = PaceLimits{
	Private: Limit{Rate: 1, Per: time.Second, Burst: 2},
	Group:   Limit{Rate: 20, Per: time.Minute, Burst: 3},
	Inline:  Limit{Rate: 20, Per: time.Minute, Burst: 3},
	Global:  Limit{Rate: 25, Per: time.Second, Burst: 20},
}

// Faster returns l, its zero Limits replaced by the defaults', with every budget refilling k
// times as fast (Per, and so every window, divided by k): for tests and load runs against a
// fake server whose limits are sped up as much. k below 2 returns l with the defaults.
func (l PaceLimits) Faster(k int) PaceLimits {
	l = l.withDefaults()
	if k < 2 {
		return l
	}
	for _, v := range []*Limit{&l.Private, &l.Group, &l.Inline, &l.Global} {
		if !v.unlimited() {
			v.Per /= time.Duration(k)
		}
	}
	return l
}

// withDefaults returns l with each zero Limit replaced by DefaultPaceLimits'.
func (l PaceLimits) withDefaults() PaceLimits {
	def := func(v *Limit, d Limit) {
		if *v == (Limit{}) {
			*v = d
		}
	}
	def(&l.Private, DefaultPaceLimits.Private)
	def(&l.Group, DefaultPaceLimits.Group)
	def(&l.Inline, DefaultPaceLimits.Inline)
	def(&l.Global, DefaultPaceLimits.Global)
	return l
}

// of returns the budget of the chat k.
func (l PaceLimits) of(k ChatKey) Limit {
	switch {
	case k.Inline():
		return l.Inline
	case k.Group():
		return l.Group
	}
	return l.Private
}

// Budgets count what the budgets have spent. storage.PaceBudgets keeps them in Redis for all
// processes; LocalBudgets in this process.
type Budgets interface {
	// Take spends one unit of the budget key on the call id (rate, per and burst as a
	// Limit's) and returns 0, or, when the budget is held or has no room, spends nothing and
	// returns how long until it may have room (> 0). The call then counts as in flight
	// until End ends it, or PaceOpenFor has passed.
	Take(ctx context.Context, key, id string, rate int, per time.Duration, burst int) (time.Duration, error)
	// End ends the call id of the budget key: answered, it counts in each window that
	// holds now until that window has passed; not answered (it was never made), it no
	// longer counts at all. An unknown id is ignored.
	End(ctx context.Context, key, id string, answered bool) error
	// Hold lets Take refuse the budget key for d from now; a longer hold already in place
	// stays.
	Hold(ctx context.Context, key string, d time.Duration) error
}

// Clock is the time a Pacer and LocalBudgets go by; tests give a fake one.
type Clock interface {
	Now() time.Time
	// Timer returns a channel that receives once d has passed, and a func that stops it.
	Timer(d time.Duration) (<-chan time.Time, func() bool)
}

// systemClock is the real time.
type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

func (systemClock) Timer(d time.Duration) (<-chan time.Time, func() bool) {
	t := time.NewTimer(d)
	return t.C, t.Stop
}

// PaceOptions configure a Pacer.
type PaceOptions struct {
	// Limits are the budgets; zero fields are DefaultPaceLimits'.
	Limits PaceLimits
	// Budgets count the budgets; nil means LocalBudgets of this process only.
	Budgets Budgets
	// Clock is the time; nil means the real one.
	Clock Clock
	// OnWait is told, after each Wait that got its budget, the kind and how long it waited;
	// nil tells no one.
	OnWait func(kind PaceKind, waited time.Duration)
	// Stop, once closed, ends every Wait at once with ErrStopping, those waiting and those
	// to come: a process that stops waits for no budget (what would have waited is left to
	// the next process, see ErrStopping). nil never stops.
	Stop <-chan struct{}
}

// ErrStopping is the answer of a wait for budget (Pacer.Wait, a Client's wait for a 429's
// retry_after) once the process stops (PaceOptions.Stop, Options.Stop): the send or edit is
// not made. A board edit dropped so is redrawn from the store by the next step of its game,
// or by the next tap on the board (which finds it out of date), in whichever process takes it.
var ErrStopping = errors.New("botapi: stopping: not waiting for budget")

// Pacer lets sends and edits go when their chat's budget and the bot's global budget have
// room (see the package's pacing notes above). It is safe for concurrent use.
type Pacer struct {
	limits  PaceLimits
	budgets Budgets
	clock   Clock
	onWait  func(kind PaceKind, waited time.Duration)
	stop    <-chan struct{} // PaceOptions.Stop

	ids  string        // the prefix of this Pacer's call ids, unique across processes
	seq  atomic.Uint64 // the number of the last call id
	mu   sync.Mutex
	open map[ChatKey][]string // each chat's calls let go and not yet done, oldest first

	chats map[ChatKey][]*paceWaiter // each chat's waiters: boards first, then in arrival order
	// throttled is the chat of the last 429 and when its hold ends (see Throttled).
	throttled struct {
		chat  ChatKey
		until time.Time
	}
}

// paceWaiter is one Wait call queued for its chat's budget.
type paceWaiter struct {
	kind   PaceKind
	wake   chan struct{} // gets a value when the queue ahead of it changed
	waited bool          // it had to wait; written by its own Wait only
}

// NewPacer returns a Pacer with the options.
func NewPacer(o PaceOptions) *Pacer {
	p := &Pacer{limits: o.Limits.withDefaults(), budgets: o.Budgets, clock: o.Clock, onWait: o.OnWait,
		stop: o.Stop, ids: newPaceIDs(), open: map[ChatKey][]string{}, chats: map[ChatKey][]*paceWaiter{}}
	if p.clock == nil {
		p.clock = systemClock{}
	}
	if p.budgets == nil {
		p.budgets = NewLocalBudgets(p.clock)
	}
	return p
}

// Wait returns once chat's budget and the global budget have each spent one unit on a message
// or edit of the kind: a chat's turns go first, then its other boards, in the order they
// came, then its infos. The call it lets go counts as in flight until Done (see Limit): the
// caller makes the call and then calls Done (a Client does both; the board Editor hands the
// unit to a Client with Paid). waited reports whether it had to wait for either budget or for
// the waiters ahead of it. It returns ctx's error when ctx ends first, or the Budgets' error;
// nothing is then spent and Done is not to be called. Once PaceOptions.Stop is closed it
// returns ErrStopping.
func (p *Pacer) Wait(ctx context.Context, chat ChatKey, kind PaceKind) (waited bool, err error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	if p.stopping() {
		return false, ErrStopping
	}
	defer paceWaiting(ctx)()
	w := &paceWaiter{kind: kind, wake: make(chan struct{}, 1)}
	if p.onWait != nil {
		start := p.clock.Now()
		defer func() {
			if err == nil {
				p.onWait(kind, p.clock.Now().Sub(start))
			}
		}()
	}
	l := p.limits.of(chat)
	if kind == PaceInfo && l.Burst > 1 {
		l.Burst--
	}
	id := p.newID()
	if err := p.queued(ctx, chat, chat.String(), id, l, w); err != nil {
		return w.waited, err
	}
	// The global budget has a queue of its own, in the same order, so that no chat's
	// waiter starves while others keep finding room first.
	if err = p.queued(ctx, globalQueue, globalKey, id, p.limits.Global, w); err != nil {
		p.end(context.WithoutCancel(ctx), chat, id, false)
		return w.waited, err
	}
	p.mu.Lock()
	p.open[chat] = append(p.open[chat], id)
	p.mu.Unlock()
	return w.waited, nil
}

// stopping reports whether PaceOptions.Stop is closed.
func (p *Pacer) stopping() bool {
	select {
	case <-p.stop:
		return true
	default:
		return false
	}
}

// globalQueue is the queue of the waiters for the global budget.
var globalQueue = ChatKey{inline: "\x00" + globalKey}

// queued waits in queue q until w is at its head and the budget key of limit l had room for
// the call id (see waitChat), then leaves the queue.
func (p *Pacer) queued(ctx context.Context, q ChatKey, key, id string, l Limit, w *paceWaiter) error {
	if l.unlimited() {
		return nil
	}
	p.enqueue(q, w)
	defer p.dequeue(q, w)
	return p.waitChat(ctx, q, key, id, l, w)
}

// waitChat waits until w is at the head of queue q and the budget key had room for the call id.
func (p *Pacer) waitChat(ctx context.Context, q ChatKey, key, id string, l Limit, w *paceWaiter) error {
	for {
		if p.head(q) == w {
			if err := p.take(ctx, key, id, l, w.wake, &w.waited); err != errPreempted {
				return err
			}
			continue
		}
		w.waited = true
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-p.stop:
			return ErrStopping
		case <-w.wake:
		}
	}
}

// errPreempted is take's answer when a waiter was woken: it is no longer sure to be at the head.
var errPreempted = errors.New("botapi: pace: preempted")

// take spends one unit of the budget key on the call id, waiting as long as Budgets say (and
// then setting *waited). A value on wake ends the wait early and take starts again at the
// head check (waitChat loops on errPreempted).
func (p *Pacer) take(ctx context.Context, key, id string, l Limit, wake chan struct{}, waited *bool) error {
	if l.unlimited() {
		return nil
	}
	for {
		wait, err := p.budgets.Take(ctx, key, id, l.Rate, l.Per, l.Burst)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("botapi: pace %s: %w", key, err)
		}
		if wait <= 0 {
			return nil
		}
		*waited = true
		c, stop := p.clock.Timer(wait)
		select {
		case <-ctx.Done():
			stop()
			return ctx.Err()
		case <-p.stop:
			stop()
			return ErrStopping
		case <-wake:
			stop()
			return errPreempted
		case <-c:
		}
	}
}

// enqueue puts w into chat's queue: after every waiter of its kind or a more urgent one, and
// wakes the waiter that was at the head if w goes before it.
func (p *Pacer) enqueue(chat ChatKey, w *paceWaiter) {
	p.mu.Lock()
	defer p.mu.Unlock()
	q := p.chats[chat]
	i := len(q)
	for i > 0 && q[i-1].kind > w.kind {
		i--
	}
	q = append(q, nil)
	copy(q[i+1:], q[i:])
	q[i] = w
	p.chats[chat] = q
	if i == 0 && len(q) > 1 {
		q[1].signal()
	}
}

// dequeue takes w out of chat's queue and wakes the new head.
func (p *Pacer) dequeue(chat ChatKey, w *paceWaiter) {
	p.mu.Lock()
	defer p.mu.Unlock()
	q := p.chats[chat]
	for i, x := range q {
		if x == w {
			q = append(q[:i], q[i+1:]...)
			if i == 0 && len(q) > 0 {
				q[0].signal()
			}
			break
		}
	}
	if len(q) == 0 {
		delete(p.chats, chat)
	} else {
		p.chats[chat] = q
	}
}

// head returns the waiter at the head of chat's queue.
func (p *Pacer) head(chat ChatKey) *paceWaiter {
	p.mu.Lock()
	defer p.mu.Unlock()
	if q := p.chats[chat]; len(q) > 0 {
		return q[0]
	}
	return nil
}

// signal wakes w unless a wake is already pending.
func (w *paceWaiter) signal() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Waiting returns how many boards (turns included) and how many infos wait for chat's budget in
// this process.
func (p *Pacer) Waiting(chat ChatKey) (boards, infos int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, w := range p.chats[chat] {
		if w.kind != PaceInfo {
			boards++
		} else {
			infos++
		}
	}
	return boards, infos
}

// Throttled holds chat's budget for retryAfter (a 429's retry_after that came despite the
// pacing), in every process that shares the Budgets; other chats go on. A 429 does not say
// which budget it was over, though: when a second chat meets one while the hold of an
// earlier 429 of another chat (in this process) lasts, the bot as a whole is over Telegram's
// global limit, and every chat calling on would only be told to wait longer. Then the global
// budget is held for retryAfter too.
func (p *Pacer) Throttled(ctx context.Context, chat ChatKey, retryAfter time.Duration) error {
	if err := p.budgets.Hold(ctx, chat.String(), retryAfter); err != nil {
		return fmt.Errorf("botapi: pace hold %s: %w", chat, err)
	}
	now := p.clock.Now()
	p.mu.Lock()
	global := p.throttled.until.After(now) && p.throttled.chat != chat
	if until := now.Add(retryAfter); until.After(p.throttled.until) || !global {
		p.throttled.chat, p.throttled.until = chat, until
	}
	p.mu.Unlock()
	if !global {
		return nil
	}
	if err := p.budgets.Hold(ctx, globalKey, retryAfter); err != nil {
		return fmt.Errorf("botapi: pace hold %s: %w", globalKey, err)
	}
	return nil
}

// paceKindKey is the context key of WithPaceKind.
type paceKindKey struct{}

// WithPaceKind returns ctx telling a Client's pacing that the sends and edits made with it are
// of the kind (without it they are PaceInfo).
func WithPaceKind(ctx context.Context, kind PaceKind) context.Context {
	return context.WithValue(ctx, paceKindKey{}, kind)
}

// PaceKindOf returns the kind ctx carries (WithPaceKind), PaceInfo when none.
func PaceKindOf(ctx context.Context) PaceKind {
	if k, ok := ctx.Value(paceKindKey{}).(PaceKind); ok {
		return k
	}
	return PaceInfo
}
