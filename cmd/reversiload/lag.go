package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/reversibot/reversi/bot/telegramtest"
)

// Board lag (-limits): how long a board lags behind its game, from the fake server's side.
// A move is applied when the player's tap that plays it is recorded by the fake (the player
// taps only the newest board, on their turn, and counts only taps the bot accepted); its
// board shows it when the fake accepts the first edit of the game's board message (each
// board of a game between people, the one board of an AI or group game) that draws the
// position after it: the edit's answer leaves the fake, as the observer in front of it
// sees, before any player could look. In an AI game the position after a move is the one
// after the AI's reply (the player's turn again, or the end), since the bot draws both in
// one edit when it can; the lag of an AI game's move is so an upper bound of the lag of
// both moves, and counts the AI's thinking (a millisecond at level 1) as lag.
//
// The boardClock records those edits: the observer hands it every successful edit of a
// message, and it notes, for the board messages the driver tracks, when each state of the
// board was first accepted.

// editMethods are the methods that change a board message in place.
var editMethods = map[string]bool{
	"editmessagetext": true, "editmessagecaption": true, "editmessagereplymarkup": true, "editmessagemedia": true,
}

// boardState is what a board showed after an edit, and when the fake accepted that edit.
type boardState struct {
	at    time.Time
	ply   int  // the ply its buttons carry
	black bool // black is to move
	over  bool // the game is over
}

// msgKey names a message by chat and id.
type msgKey struct {
	chat int64
	id   int
}

// boardClock keeps, for each board message the driver tracks, the states it was edited to.
type boardClock struct {
	srv *telegramtest.Server

	mu      sync.Mutex
	shown   map[msgKey][]boardState
	changed chan struct{} // closed and replaced at each state recorded
}

func newBoardClock(srv *telegramtest.Server) *boardClock {
	return &boardClock{srv: srv, shown: map[msgKey][]boardState{}, changed: make(chan struct{})}
}

// track starts recording the edits of a board message.
func (c *boardClock) track(m telegramtest.ChatMessage) {
	c.mu.Lock()
	k := msgKey{m.ChatID, m.ID}
	if _, ok := c.shown[k]; !ok {
		c.shown[k] = []boardState{}
	}
	c.mu.Unlock()
}

// forget stops recording the edits of a board message (its game is over).
func (c *boardClock) forget(m telegramtest.ChatMessage) {
	c.mu.Lock()
	delete(c.shown, msgKey{m.ChatID, m.ID})
	c.mu.Unlock()
}

// edited records that the fake accepted an edit of message id of chat at time at: the state
// the message shows now (a later edit may already have changed it; its own record then has
// a later time, and the earliest record that shows a state is the one that counts).
func (c *boardClock) edited(chat int64, id int, at time.Time) {
	k := msgKey{chat, id}
	c.mu.Lock()
	_, tracked := c.shown[k]
	c.mu.Unlock()
	if !tracked {
		return
	}
	m, ok := c.srv.Peek(chat, id)
	if !ok {
		return
	}
	st := boardState{at: at, ply: boardPly(m), black: blackToMove(m), over: over(m)}
	c.mu.Lock()
	if states, ok := c.shown[k]; ok {
		c.shown[k] = append(states, st)
		close(c.changed)
		c.changed = make(chan struct{})
	}
	c.mu.Unlock()
}

// shownAt waits until an edit of board m that shows a state for which ok holds has been
// recorded, and returns the earliest such edit's time. The caller has seen such a state on
// the fake already; the wait covers the moment between the fake's change and the observer's
// record of it.
func (c *boardClock) shownAt(ctx context.Context, m telegramtest.ChatMessage, ok func(boardState) bool) (time.Time, error) {
	k := msgKey{m.ChatID, m.ID}
	for {
		c.mu.Lock()
		var first time.Time
		for _, st := range c.shown[k] {
			if ok(st) && (first.IsZero() || st.at.Before(first)) {
				first = st.at
			}
		}
		ch := c.changed
		c.mu.Unlock()
		if !first.IsZero() {
			return first, nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return time.Time{}, ctx.Err()
		}
	}
}

// editTarget reads the chat_id and message_id of an edit request without consuming its
// body: it reads the body and puts back a copy. ok is false for an edit of an inline message
// or a body it cannot read.
func editTarget(r *http.Request) (chat int64, id int, ok bool) {
	if r.Body == nil {
		return 0, 0, false
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	r.Body.Close()
	r.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return 0, 0, false
	}
	cp := r.Clone(r.Context())
	cp.Body = io.NopCloser(bytes.NewReader(body))
	if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/") {
		if cp.ParseMultipartForm(1<<20) != nil {
			return 0, 0, false
		}
		defer cp.MultipartForm.RemoveAll()
	} else if cp.ParseForm() != nil {
		return 0, 0, false
	}
	chat, err1 := strconv.ParseInt(cp.FormValue("chat_id"), 10, 64)
	id, err2 := strconv.Atoi(cp.FormValue("message_id"))
	return chat, id, err1 == nil && err2 == nil
}
