package telegramtest

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Flood limits. Telegram does not publish its algorithm, only figures: in one chat about
// one message a second (short bursts tolerated), in a group about twenty messages a
// minute, about thirty a second across all chats; sends and edits share those budgets;
// a bot that keeps calling while it should wait is told to wait ever longer. The fake
// models each budget as a token bucket (GCRA) on the server's clock ([WithClock]).

// Rate is one budget: Burst calls at once, then one call every Every. A zero Every (or a
// Burst below 1) is no limit.
type Rate struct {
	Every time.Duration
	Burst int
}

func (r Rate) on() bool { return r.Every > 0 && r.Burst >= 1 }

// FloodLimits are the budgets [WithFloodLimits] enforces. Only the methods that send or
// edit a message are counted (sendMessage, sendPhoto, editMessageText,
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
	PerChat Rate
	// PerGroup is the budget of each group or supergroup (chat id < 0), on top of PerChat.
	PerGroup Rate
	// Global is the budget of the bot across all chats, on top of the others.
	Global Rate
	// MaxRetryAfter caps the retry_after a client that ignores it is given (never below
	// a second).
	MaxRetryAfter time.Duration
	// Quiet is how long after its wait has ended a budget must see no 429 before the
	// penalty of ignoring retry_after is forgotten and the next 429 starts again from the
	// plain wait (0: as soon as the wait has ended).
	Quiet time.Duration
}

// DefaultFloodLimits are Telegram's published figures: one message a second in a chat
// with bursts of three tolerated, twenty a minute in a group (one every three seconds,
// with bursts of five tolerated), thirty a second across all chats; a client that ignores
// retry_after sees it doubled each time up to five minutes, and forgiven after a minute
// of quiet.
var DefaultFloodLimits = FloodLimits{
	PerChat:       Rate{Every: time.Second, Burst: 3},
	PerGroup:      Rate{Every: 3 * time.Second, Burst: 5},
	Global:        Rate{Every: time.Second / 30, Burst: 30},
	MaxRetryAfter: 5 * time.Minute,
	Quiet:         time.Minute,
}

// Faster returns lim with every budget refilling k times as fast and every wait k times as
// short (retry_after still counts whole seconds, at least one): for tests that play whole
// games in seconds against a bot whose pacing is sped up as much (botapi.PaceLimits.Faster).
// k below 2 returns lim.
func (lim FloodLimits) Faster(k int) FloodLimits {
	if k < 2 {
		return lim
	}
	d := time.Duration(k)
	lim.PerChat.Every /= d
	lim.PerGroup.Every /= d
	lim.Global.Every /= d
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
func WithFloodLimits(lim FloodLimits) Option {
	return func(c *config) { c.flood = &lim }
}

// floodMethods are the methods the flood limits count, and whether each is an edit (an
// edit may name an inline message instead of a chat).
var floodMethods = map[string]bool{
	"sendMessage":            false,
	"sendPhoto":              false,
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

// bucket is one budget's token bucket and its penalty, all on the server's clock.
type bucket struct {
	tat      time.Time     // theoretical arrival time of the next call (GCRA)
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
		b    *bucket
		rate Rate
	}
	levels := make([]level, 0, 3)
	if f.lim.PerChat.on() {
		levels = append(levels, level{f.bucket(f.chats, key), f.lim.PerChat})
	}
	if key.Inline == "" && key.Chat < 0 && f.lim.PerGroup.on() {
		levels = append(levels, level{f.bucket(f.groups, key), f.lim.PerGroup})
	}
	if f.lim.Global.on() {
		levels = append(levels, level{&f.global, f.lim.Global})
	}
	for _, l := range levels { // forget penalties after a quiet period
		if l.b.lastWait > 0 && !now.Before(l.b.until.Add(f.lim.Quiet)) {
			l.b.lastWait = 0
		}
	}
	for _, l := range levels { // a call while told to wait: the wait grows
		if now.Before(l.b.until) {
			wait := min(max(2*l.b.lastWait, time.Second), max(f.lim.MaxRetryAfter, time.Second))
			return f.refuse(key, l.b, now, wait)
		}
	}
	for _, l := range levels { // over a budget: wait for its next token
		if early := l.b.tat.Add(-time.Duration(l.rate.Burst-1) * l.rate.Every).Sub(now); early > 0 {
			wait := max(early, l.b.lastWait) // a repeat offender waits as long as last time
			return f.refuse(key, l.b, now, wait)
		}
	}
	for _, l := range levels {
		l.b.tat = later(l.b.tat, now).Add(l.rate.Every)
	}
	return nil
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

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
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
