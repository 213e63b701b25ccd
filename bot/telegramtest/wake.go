package telegramtest

import (
	"context"
	"fmt"
)

// Waiting. WaitFor re-checks its predicate after every change of the state; under load
// (thousands of changes a second, one waiter per simulated chat) that makes every waiter
// run at every change. The waits below are woken only by a change of the one thing they
// wait for: a chat's messages, a callback query's answer, the update queue.

// wakeKey names one thing that waiters can wait for.
type wakeKey struct {
	kind wakeKind
	id   int64  // chat id
	name string // callback query id
}

type wakeKind uint8

const (
	wakeChat    wakeKind = iota + 1 // a message of chat id was sent, edited or deleted
	wakeQuery                       // callback query name was answered
	wakeUpdates                     // the update queue grew, the webhook changed, a poll began
	wakeAny                         // anything changed (WaitFor)
)

// wakeup is the channel closed at the next change of one key, and how many wait on it.
type wakeup struct {
	ch      chan struct{}
	waiters int
}

func chatKey(id int64) wakeKey   { return wakeKey{kind: wakeChat, id: id} }
func queryKey(id string) wakeKey { return wakeKey{kind: wakeQuery, name: id} }

var (
	updatesKey = wakeKey{kind: wakeUpdates}
	anyKey     = wakeKey{kind: wakeAny}
)

// fire wakes the waiters of k.
func (st *state) fire(k wakeKey) {
	if w := st.wake[k]; w != nil {
		close(w.ch)
		delete(st.wake, k)
	}
}

// watch returns the wakeup of k's next change, counting the caller as a waiter; the caller
// calls unwatch if it stops waiting before the change.
func (st *state) watch(k wakeKey) *wakeup {
	w := st.wake[k]
	if w == nil {
		w = &wakeup{ch: make(chan struct{})}
		st.wake[k] = w
	}
	w.waiters++
	return w
}

// unwatch drops a waiter of w, and w itself when it was the last one.
func (st *state) unwatch(k wakeKey, w *wakeup) {
	w.waiters--
	if w.waiters == 0 && st.wake[k] == w {
		delete(st.wake, k)
	}
}

// fireAll wakes every keyed waiter (the server closes).
func (st *state) fireAll() {
	for k := range st.wake {
		st.fire(k)
	}
}

// waitKey waits until pred holds, re-checking it only when key changes (or the server closes).
func (s *Server) waitKey(ctx context.Context, key wakeKey, pred func(v View) bool) error {
	for {
		s.mu.Lock()
		if pred(s.view()) {
			s.mu.Unlock()
			return nil
		}
		if s.st.closed {
			s.mu.Unlock()
			return ErrClosed
		}
		w := s.st.watch(key)
		s.mu.Unlock()
		select {
		case <-w.ch:
		case <-ctx.Done():
			s.mu.Lock()
			s.st.unwatch(key, w)
			s.mu.Unlock()
			return fmt.Errorf("telegramtest: wait: %w", ctx.Err())
		}
	}
}

// WaitChat is WaitFor for a predicate about the messages of one chat: pred is re-checked
// only when a message of chat chatID is sent (by the bot or a user), edited or deleted,
// including an inline message posted there, so a test or load generator with many chats
// waits without being woken by the others. pred must depend on nothing else; use WaitFor
// for that. It returns nil once pred holds, ctx's error (wrapped) when ctx ends first and
// ErrClosed when the server is closed.
func (s *Server) WaitChat(ctx context.Context, chatID int64, pred func(v View) bool) error {
	return s.waitKey(ctx, chatKey(chatID), pred)
}
