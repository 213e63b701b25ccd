package telegramtest

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Flood limits. Telegram does not publish its algorithm, only figures: in one chat about
// one message a second (short bursts tolerated), in a group about twenty messages a
// minute, about thirty a second across all chats; sends and edits share those budgets;
// a bot that keeps calling while it should wait is told to wait ever longer. Telegram
// counts a group's calls over any sixty seconds, not as a rate with a burst on top, so the
// fake counts each budget the same way: a sliding window over the times of the calls it let
// through ([Window]), on the server's clock ([WithClock]).

// Window is one budget: at most N calls in any Per (any span of time Per long, wherever it
// starts). A zero Per (or an N below 1) is no limit.
type Window struct {
	N   int
	Per time.Duration
}

func (w Window) on() bool { return w.Per > 0 && w.N >= 1 }

// FloodLimits are the budgets [WithFloodLimits] enforces. Only the methods that send or
// edit a message are counted (sendMessage, sendPhoto, sendAnimation, editMessageText,
// editMessageCaption, editMessageReplyMarkup, editMessageMedia); a call spends its budgets
// when it is let through, before it takes effect, so one that then fails (say, "message is
// not modified") has spent them too, while one refused with a 429 or failed by
// [Server.FailNext] has not. answerCallbackQuery, getUpdates, deleteMessage,
// sendChatAction and the other methods are never limited.
//
// A 429 blocks the budget that was exceeded: a call counted against it before the
// retry_after has passed (for the global budget, a call into any chat) is refused again,
// with the wait doubled; once the wait has passed, a further overflow waits as long as
// the last 429 said, until Quiet has passed without a 429.
type FloodLimits struct {
	// PerChat is the budget of each chat: a private chat, a group, and each inline
	// message (the bot cannot see the chat an inline message lives in, so each counts as
	// a chat of its own).
	PerChat Window
	// PerGroup is the budget of each group or supergroup (chat id < 0) and of each inline
	// message (which may live in a group), on top of PerChat.
	PerGroup Window
	// Global is the budget of the bot across all chats, on top of the others.
	Global Window
	// MaxRetryAfter caps the retry_after a client that ignores it is given (never below
	// a second).
	MaxRetryAfter time.Duration
	// Quiet is how long after its wait has ended a budget must see no 429 before the
	// penalty of ignoring retry_after is forgotten and the next 429 starts again from the
	// plain wait (0: as soon as the wait has ended).
	Quiet time.Duration
}

// DefaultFloodLimits are Telegram's published figures, counted over every window: at most
// three calls in any second in a chat (the burst Telegram tolerates over its one a second),
// twenty in any minute in a group or an inline message, thirty in any second across all
// chats; a client that ignores retry_after sees it doubled each time up to five minutes,
// and forgiven after a minute of quiet.
var DefaultFloodLimits = FloodLimits{
	PerChat:       Window{N: 3, Per: time.Second},
	PerGroup:      Window{N: 20, Per: time.Minute},
	Global:        Window{N: 30, Per: time.Second},
	MaxRetryAfter: 5 * time.Minute,
	Quiet:         time.Minute,
}

// Faster returns lim with every window k times as short and every wait k times as short
// (retry_after still counts whole seconds, at least one): for tests that play whole games
// in seconds against a bot whose pacing is sped up as much (botapi.PaceLimits.Faster).
// k below 2 returns lim.
func (lim FloodLimits) Faster(k int) FloodLimits {
	if k < 2 {
		return lim
	}
	d := time.Duration(k)
	lim.PerChat.Per /= d
	lim.PerGroup.Per /= d
	lim.Global.Per /= d
	lim.MaxRetryAfter /= d
	lim.Quiet /= d
	return lim
}

// WithFloodLimits makes the server answer sends and edits over the budgets of lim with
// HTTP 429 "Too Many Requests: retry after N" and parameters.retry_after = N, as Telegram
// does. A call made while an earlier 429 of the same budget still says to wait is
// refused too, and the wait it is given doubles (up to lim.MaxRetryAfter). Without this
// option nothing is limited. [Server.TooManyRequests] and [View.TooManyRequests] count
// the 429s given.
func WithFloodLimits(lim FloodLimits) ServerOption {
	return func(c *config) { c.flood = &lim }
}

// floodMethods are the methods the flood limits count, and whether each is an edit (an
// edit may name an inline message instead of a chat).
var floodMethods = map[string]bool{
	"sendMessage":            false,
	"sendPhoto":              false,
	"sendAnimation":          false,
	"editMessageText":        true,
	"editMessageCaption":     true,
	"editMessageReplyMarkup": true,
	"editMessageMedia":       true,
}

// FloodKey names the chat a budget belongs to: a chat by its id, or an inline message by
// its inline_message_id (Chat is then 0).
type FloodKey struct {
	Chat   int64
	Inline string
}

// FloodStats are the 429s the flood limits have given.
type FloodStats struct {
	// Total counts every 429 of the flood limits (those of FailNext are not counted).
	Total int
	// Chats counts them per chat and inline message, by the chat the call named (also
	// when the budget exceeded was the global one).
	Chats map[FloodKey]int
}

// bucket is one budget's log of calls and its penalty, all on the server's clock.
type bucket struct {
	times    []time.Time   // the calls let through within the last window, oldest first
	until    time.Time     // the last 429 said to wait until then
	lastWait time.Duration // the retry_after of the last 429
}

// flood is the limiter's state, guarded by Server.mu.
type flood struct {
	lim    FloodLimits
	chats  map[FloodKey]*bucket
	groups map[FloodKey]*bucket
	global bucket
	stats  FloodStats
}

func newFlood(lim FloodLimits) *flood {
	return &flood{lim: lim, chats: map[FloodKey]*bucket{}, groups: map[FloodKey]*bucket{},
		stats: FloodStats{Chats: map[FloodKey]int{}}}
}

// floodKeyLocked is the chat a call of a limited method counts against; ok is false when
// the call names no chat the fake knows (it then fails in its handler, uncounted).
func (s *Server) floodKeyLocked(method string, r *request) (FloodKey, bool) {
	edit, limited := floodMethods[method]
	if !limited {
		return FloodKey{}, false
	}
	if id := r.str("inline_message_id"); edit && id != "" {
		return FloodKey{Inline: id}, true
	}
	raw := strings.TrimSpace(r.str("chat_id"))
	if strings.HasPrefix(raw, "@") {
		c, err := s.chatLocked(r)
		if err != nil {
			return FloodKey{}, false
		}
		return FloodKey{Chat: c.model.ID}, true
	}
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil {
		return FloodKey{}, false
	}
	return FloodKey{Chat: id}, true
}

// admit counts a call against the budgets of key at now: nil when it may go on, else the
// 429 to answer.
func (f *flood) admit(key FloodKey, now time.Time) *apiError {
	type level struct {
		b *bucket
		w Window
	}
	levels := make([]level, 0, 3)
	if f.lim.PerChat.on() {
		levels = append(levels, level{f.bucket(f.chats, key), f.lim.PerChat})
	}
	if (key.Inline != "" || key.Chat < 0) && f.lim.PerGroup.on() {
		levels = append(levels, level{f.bucket(f.groups, key), f.lim.PerGroup})
	}
	if f.lim.Global.on() {
		levels = append(levels, level{&f.global, f.lim.Global})
	}
	for _, l := range levels {
		l.b.forget(now, l.w.Per)
		if l.b.lastWait > 0 && !now.Before(l.b.until.Add(f.lim.Quiet)) { // forget penalties after a quiet period
			l.b.lastWait = 0
		}
	}
	for _, l := range levels { // a call while told to wait: the wait grows
		if now.Before(l.b.until) {
			wait := min(max(2*l.b.lastWait, time.Second), max(f.lim.MaxRetryAfter, time.Second))
			return f.refuse(key, l.b, now, wait)
		}
	}
	var full *bucket // a full window: wait until the oldest call that must go has left it
	var wait time.Duration
	for _, l := range levels {
		if n := len(l.b.times); n >= l.w.N {
			early := l.b.times[n-l.w.N].Add(l.w.Per).Sub(now)
			if w := max(early, l.b.lastWait); full == nil || w > wait { // a repeat offender waits as long as last time
				full, wait = l.b, w
			}
		}
	}
	if full != nil {
		return f.refuse(key, full, now, wait)
	}
	for _, l := range levels {
		l.b.add(now)
	}
	return nil
}

// forget drops the calls that are a window per or longer ago: they are in no window that
// holds now.
func (b *bucket) forget(now time.Time, per time.Duration) {
	i := 0
	for i < len(b.times) && now.Sub(b.times[i]) >= per {
		i++
	}
	if i > 0 {
		b.times = append(b.times[:0], b.times[i:]...)
	}
}

// add logs a call at t, keeping the log in order (a clock a test moves may go back).
func (b *bucket) add(t time.Time) {
	i := len(b.times)
	for i > 0 && b.times[i-1].After(t) {
		i--
	}
	b.times = slices.Insert(b.times, i, t)
}

func (f *flood) bucket(m map[FloodKey]*bucket, key FloodKey) *bucket {
	b := m[key]
	if b == nil {
		b = &bucket{}
		m[key] = b
	}
	return b
}

// refuse records a 429 on b telling the client to wait at least wait (rounded up to whole
// seconds, as retry_after is).
func (f *flood) refuse(key FloodKey, b *bucket, now time.Time, wait time.Duration) *apiError {
	secs := int((wait + time.Second - 1) / time.Second)
	secs = max(secs, 1)
	b.lastWait = time.Duration(secs) * time.Second
	b.until = now.Add(b.lastWait)
	f.stats.Total++
	f.stats.Chats[key]++
	return &apiError{
		code:       http.StatusTooManyRequests,
		desc:       fmt.Sprintf("Too Many Requests: retry after %d", secs),
		retryAfter: secs,
	}
}

// TooManyRequests returns the 429s the flood limits have given so far ([WithFloodLimits]);
// without flood limits it is always empty.
func (v View) TooManyRequests() FloodStats {
	out := FloodStats{Chats: map[FloodKey]int{}}
	if f := v.st.flood; f != nil {
		out.Total = f.stats.Total
		for k, n := range f.stats.Chats {
			out.Chats[k] = n
		}
	}
	return out
}

// TooManyRequests is [View.TooManyRequests] of the current state.
func (s *Server) TooManyRequests() FloodStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.view().TooManyRequests()
}
