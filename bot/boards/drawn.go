package boards

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/reversibot/reversi/game"
)

// The drawn record (Options.Drawings): how the Editor asks it before an edit and tells it
// after.

// drawLease is how long an edit of a board holds its message in the record: one attempt's
// drawing and send. The attempt gives up its send a little before (leaseShare of it), so
// that it is over before another process may take the message; a lease whose process died
// frees the message after this long.
const (
	drawLease  = 10 * time.Second
	leaseShare = 9 // tenths of drawLease an attempt may take
	// endTimeout bounds telling the record that an edit is over: it is told even when the
	// edit's own context has ended.
	endTimeout = 2 * time.Second
)

// tokens names the edits of one Editor: a random prefix and a counter.
type tokens struct {
	prefix string
	n      *atomic.Uint64
}

func newTokens() tokens {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go ≥ 1.24)
	return tokens{prefix: hex.EncodeToString(b[:]), n: new(atomic.Uint64)}
}

// next returns a token no edit had.
func (t tokens) next() string {
	return t.prefix + "." + strconv.FormatUint(t.n.Add(1), 36)
}

// contentHash names c's content: equal contents, equal hashes. It covers all an edit
// sends: text, entities, keyboard, picture (bytes or address).
func contentHash(c Content) string {
	h := sha256.New()
	part := func(b []byte) {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(b)))
		h.Write(n[:])
		h.Write(b)
	}
	part([]byte(c.Text))
	ents, _ := json.Marshal(c.Entities) // plain data: never fails
	part(ents)
	kb, _ := json.Marshal(c.Keyboard)
	part(kb)
	part(c.Photo)
	part([]byte(c.PhotoURL))
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// drawTurn is one edit's turn at its message in the record: begin before drawing, end once
// sent.
type drawTurn struct {
	e     *Editor
	msg   string
	d     game.Drawing
	start game.DrawStart
	held  bool // the turn holds the message's lease: end must be told
	// deadline is when the turn's send must be over (its lease runs out a little later).
	deadline time.Time
}

// drawMode is how an edit asks the drawn record (see game.Drawing).
type drawMode int

const (
	plainDraw drawMode = iota // neither OnlyNewer nor Rewind
	onlyNewer                 // game.Drawing.OnlyNewer: a recheck
	rewind                    // game.Drawing.Rewind: the store lost what the message shows
)

// begin asks the record whether the edit of ref drawing version of game id may go. ok false:
// send nothing (start.Verdict says why). Without a record, or when it cannot be reached, the
// edit goes as it did without one (logged).
func (e *Editor) begin(ctx context.Context, ref game.MessageRef, id string, version int64, mode drawMode) (t *drawTurn, ok bool) {
	t = &drawTurn{e: e, msg: key(ref), d: game.Drawing{Game: id, Version: version, Token: e.tokens.next(),
		OnlyNewer: mode == onlyNewer, Rewind: mode == rewind}}
	if e.o.Drawings == nil {
		return t, true
	}
	t.deadline = time.Now().Add(drawLease * leaseShare / 10)
	start, err := e.o.Drawings.BeginDraw(ctx, t.msg, t.d, drawLease)
	if err != nil {
		// At debug level: in an outage every edit gets here, and the record's owner logs the
		// outage itself (Options.Drawings).
		e.log.Debug("edit: drawn record", "game", id, "err", err)
		return t, true
	}
	t.start = start
	if start.Verdict != game.DrawGo {
		return t, false
	}
	t.held = true
	return t, true
}

// same reports whether the record knows the message shows hash already.
func (t *drawTurn) same(hash string) bool {
	return t.held && t.start.Hash != "" && t.start.Hash == hash
}

// sendContext is ctx bounded by the turn's lease.
func (t *drawTurn) sendContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if !t.held {
		return context.WithCancel(ctx)
	}
	return context.WithDeadline(ctx, t.deadline)
}

// end tells the record what became of the turn's edit, when it held the lease, and reports
// whether the message must be drawn again (another edit asked for it meanwhile).
func (t *drawTurn) end(end game.DrawEnd, hash string) (redraw bool) {
	if !t.held {
		return false
	}
	t.held = false
	ctx, cancel := context.WithTimeout(context.WithoutCancel(t.e.base), endTimeout)
	defer cancel()
	redraw, err := t.e.o.Drawings.EndDraw(ctx, t.msg, t.d, end, hash)
	if err != nil {
		t.e.log.Debug("edit: drawn record", "game", t.d.Game, "err", err) // as in begin
	}
	return redraw
}
