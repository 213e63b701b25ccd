package botapi

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"
)

// The calls a Pacer let go, from Wait to Done.
//
// Each Wait names its call with an id of its own, and the budgets count the call as in flight
// under that id until Done ends it. Done does not name the call: every call into one chat
// counts alike in the budgets, so Done ends the oldest call of the chat not yet done. Until
// then each of the chat's calls either is on its way or has just been answered, and as many
// ids count as in flight as there are calls that may still reach Telegram, which is all the
// windows need.

// endTimeout bounds a Done or a give-back whose caller's context has ended.
const endTimeout = 5 * time.Second

// newPaceIDs returns the prefix of a Pacer's call ids: random, so that no other Pacer, in
// this process or another on the same Redis, makes the same ids.
func newPaceIDs() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand does not fail
	return hex.EncodeToString(b[:])
}

// newID returns a call id no other call of any Pacer has.
func (p *Pacer) newID() string { return p.ids + "." + strconv.FormatUint(p.seq.Add(1), 36) }

// Done tells p that a send or edit into chat that a Wait let go (or that used a unit of Paid)
// is over. answered means Telegram's reply came back: the call counts in each window that holds
// this moment, until the window has passed. Otherwise (the connection failed, or ctx ended
// while the call was on its way) it may still reach Telegram, and it keeps counting as in
// flight for PaceOpenFor from when it went. Done without a call of chat still going does
// nothing. Its error is the Budgets' (Redis unreachable): the call then counts as in flight
// for PaceOpenFor, which errs on the safe side.
func (p *Pacer) Done(ctx context.Context, chat ChatKey, answered bool) error {
	id, ok := p.pop(chat)
	if !ok || !answered {
		return nil
	}
	return p.end(ctx, chat, id, true)
}

// pop takes the oldest call of chat not yet done off its list.
func (p *Pacer) pop(chat ChatKey) (string, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	q := p.open[chat]
	if len(q) == 0 {
		return "", false
	}
	id := q[0]
	if len(q) == 1 {
		delete(p.open, chat)
	} else {
		p.open[chat] = q[1:]
	}
	return id, true
}

// end ends the call id in chat's budget and in the global one (see Budgets.End).
func (p *Pacer) end(ctx context.Context, chat ChatKey, id string, answered bool) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), endTimeout)
	defer cancel()
	var errs []error
	for _, b := range []struct {
		key string
		l   Limit
	}{{chat.String(), p.limits.of(chat)}, {globalKey, p.limits.Global}} {
		if b.l.unlimited() {
			continue
		}
		if err := p.budgets.End(ctx, b.key, id, answered); err != nil {
			errs = append(errs, fmt.Errorf("botapi: pace end %s: %w", b.key, err))
		}
	}
	return errors.Join(errs...)
}

// paidKey is the context key of Pacer.Paid.
type paidKey struct{}

// paid is one unit of a chat's budget spent ahead of the call that uses it.
type paid struct {
	chat ChatKey
	used atomic.Bool
}

// Paid returns ctx telling a Client that the next send or edit into chat made with it (or a
// context made from it) has been paced already: the caller's Wait for chat has just
// returned. That one call does not wait and is Done like any paced call; later ones, and
// calls into other chats, wait. The caller calls giveBack once it is done with ctx: when the
// unit was not used, it is given back (the call it was for was never made).
func (p *Pacer) Paid(ctx context.Context, chat ChatKey) (paidCtx context.Context, giveBack func()) {
	u := &paid{chat: chat}
	return context.WithValue(ctx, paidKey{}, u), func() {
		if !u.used.CompareAndSwap(false, true) {
			return
		}
		if id, ok := p.pop(chat); ok {
			_ = p.end(ctx, chat, id, false) // failing, the unit counts as in flight for PaceOpenFor
		}
	}
}

// spendPaid reports whether ctx carries an unused unit paid for chat, and uses it.
func spendPaid(ctx context.Context, chat ChatKey) bool {
	u, ok := ctx.Value(paidKey{}).(*paid)
	return ok && u.chat == chat && u.used.CompareAndSwap(false, true)
}
