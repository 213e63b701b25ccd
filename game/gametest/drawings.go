package gametest

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/reversibot/reversi/game"
)

// Drawings is a game.Drawings in memory, with the semantics of package storage's Redis one:
// each call is one atomic step, leases and records expire by the clock. Its zero value is
// not ready: use NewDrawings. Calls counts the calls by verdict, for tests.
type Drawings struct {
	now func() time.Time

	mu    sync.Mutex
	recs  map[string]*drawRec
	calls map[string]int
}

// drawRec is the record of one message.
type drawRec struct {
	game     string
	version  int64
	hash     string
	want     int64 // the newest version a DrawBusy asked for, 0 for none
	holder   string
	leaseEnd time.Time
	expires  time.Time
}

// NewDrawings returns empty Drawings on the clock now (nil: time.Now).
func NewDrawings(now func() time.Time) *Drawings {
	if now == nil {
		now = time.Now
	}
	return &Drawings{now: now, recs: make(map[string]*drawRec), calls: make(map[string]int)}
}

var _ game.Drawings = (*Drawings)(nil)

// Calls returns how many BeginDraw calls got each verdict, by its name ("go", "busy", ...).
func (d *Drawings) Calls() map[string]int {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make(map[string]int, len(d.calls))
	for k, v := range d.calls {
		out[k] = v
	}
	return out
}

// rec returns msg's live record, nil when there is none.
func (d *Drawings) rec(msg string, now time.Time) *drawRec {
	r := d.recs[msg]
	if r != nil && !now.Before(r.expires) {
		delete(d.recs, msg)
		return nil
	}
	if r != nil && r.holder != "" && !now.Before(r.leaseEnd) {
		r.holder = ""
	}
	return r
}

// BeginDraw is game.Drawings' (see there).
func (d *Drawings) BeginDraw(_ context.Context, msg string, dr game.Drawing, lease time.Duration) (game.DrawStart, error) {
	if err := checkDraw(msg, dr); err != nil {
		return game.DrawStart{}, err
	}
	if lease <= 0 {
		return game.DrawStart{}, fmt.Errorf("gametest: draw lease %v: %w", lease, game.ErrInvalid)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	now := d.now()
	r := d.rec(msg, now)
	if r == nil || r.game != dr.Game {
		r = &drawRec{game: dr.Game}
		d.recs[msg] = r
	}
	r.expires = now.Add(game.DrawingsTTL)
	v := func() game.DrawVerdict {
		switch {
		case dr.Version < r.version && !dr.Rewind:
			return game.DrawStale
		case dr.Version == r.version && dr.OnlyNewer && r.hash != "":
			return game.DrawSame
		case r.holder != "" && r.holder != dr.Token:
			r.want = max(r.want, dr.Version)
			return game.DrawBusy
		}
		r.version, r.holder, r.leaseEnd = dr.Version, dr.Token, now.Add(lease)
		return game.DrawGo
	}()
	d.calls[v.String()]++
	if v != game.DrawGo {
		return game.DrawStart{Verdict: v}, nil
	}
	return game.DrawStart{Verdict: v, Hash: r.hash}, nil
}

// EndDraw is game.Drawings' (see there).
func (d *Drawings) EndDraw(_ context.Context, msg string, dr game.Drawing, end game.DrawEnd, hash string) (bool, error) {
	if err := checkDraw(msg, dr); err != nil {
		return false, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	r := d.rec(msg, d.now())
	switch {
	case r == nil || r.game != dr.Game || (r.holder != "" && r.holder != dr.Token):
		return false, nil
	case r.holder == dr.Token:
		r.holder = ""
		switch end {
		case game.DrawSent:
			r.hash = hash
		case game.DrawFailed:
			r.hash = ""
		}
	}
	redraw := r.want != 0 && r.want >= r.version
	r.want = 0
	return redraw, nil
}

// checkDraw refuses a message name or drawing Drawings cannot keep.
func checkDraw(msg string, d game.Drawing) error {
	if msg == "" || len(msg) > game.MaxDrawMsg || d.Game == "" || d.Token == "" || d.Version < 0 {
		return fmt.Errorf("gametest: drawing %q of %q: %w", msg, d.Game, game.ErrInvalid)
	}
	return nil
}
