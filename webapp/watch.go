package webapp

import (
	"bytes"
	"context"
	"time"

	"github.com/reversibot/reversi/game"
)

// entry is one watched game: its newest version seen, the channel its watchers wait on, and
// its poller.
type entry struct {
	id      string
	n       int           // watchers
	current *frame        // the newest version seen; nil until the first read
	since   time.Time     // when current was published
	wake    chan struct{} // closed (and replaced) when current changes
	stop    chan struct{} // closed when the last watcher leaves: the poller ends
}

// timers makes the poller's ticker and the watches' hold timers (a test drives them).
type timers struct {
	ticker func(d time.Duration) (<-chan time.Time, func())
	timer  func(d time.Duration) (<-chan time.Time, func())
}

var realTimers = timers{
	ticker: func(d time.Duration) (<-chan time.Time, func()) {
		t := time.NewTicker(d)
		return t.C, t.Stop
	},
	timer: func(d time.Duration) (<-chan time.Time, func()) {
		t := time.NewTimer(d)
		return t.C, func() { t.Stop() }
	},
}

// join counts a watch of game id by user, starting the game's poller if it is the first; it
// returns the API's code when the watch is refused (CodeTooManyWatches, CodeServerBusy).
func (s *Server) join(id string, user int64) (*entry, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return nil, CodeServerBusy
	case s.users[user] >= s.perUser:
		return nil, CodeTooManyWatches
	case s.total >= s.maxTotal:
		return nil, CodeServerBusy
	}
	e := s.watched[id]
	if e == nil {
		e = &entry{id: id, wake: make(chan struct{}), stop: make(chan struct{})}
		s.watched[id] = e
		s.pollers.Add(1)
		go s.pollGame(e)
	}
	e.n++
	s.users[user]++
	s.total++
	return e, ""
}

// leave ends a watch that join counted; the last watcher of a game stops its poller.
func (s *Server) leave(e *entry, user int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e.n--
	if e.n == 0 {
		delete(s.watched, e.id)
		close(e.stop)
	}
	if s.users[user]--; s.users[user] <= 0 {
		delete(s.users, user)
	}
	s.total--
}

// latest returns the newest version of e's game seen and the channel closed when a newer one
// comes.
func (s *Server) latest(e *entry) (*frame, <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return e.current, e.wake
}

// newer reports whether version is newer than the one e has.
func (s *Server) newer(e *entry, version int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return e.current == nil || version > e.current.g.Version
}

// publish makes f e's current version, waking the watchers, unless e has it or a newer one.
func (s *Server) publish(e *entry, f *frame) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e.current != nil && e.current.g.Version >= f.g.Version {
		return
	}
	s.replace(e, f)
}

// replace makes f e's current version and wakes the watchers; s.mu is held.
func (s *Server) replace(e *entry, f *frame) {
	e.current, e.since = f, time.Now()
	close(e.wake)
	e.wake = make(chan struct{})
}

// publishRead is publish for f read from the store by a read that began at began. A version
// older than e's (or the same version with other moves: the store wrote it again after losing
// it) is published too when the read began after e's was published: the store itself has gone
// back (a Redis failover lost the newer writes), and the watchers must see the game as it is
// stored again, not wait for it to pass a version it lost. (A read that began before may just
// have been overtaken by a step of this process: it is ignored.)
func (s *Server) publishRead(e *entry, f *frame, began time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch cur := e.current; {
	case cur == nil || cur.g.Version < f.g.Version:
	case began.After(e.since) && (cur.g.Version > f.g.Version || !sameBoard(cur.g, f.g)):
		s.log.Warn("webapp: a watched game went back to an older version: the store lost writes",
			"game", e.id, "version", f.g.Version, "seen", e.current.g.Version)
	default:
		return
	}
	s.replace(e, f)
}

// seen reports whether e has g's version of the game already.
func (s *Server) seen(e *entry, g *game.Game) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return e.current != nil && e.current.g.Version == g.Version && sameBoard(e.current.g, g)
}

// sameBoard reports whether a and b show the same board: the same moves and status.
func sameBoard(a, b *game.Game) bool {
	return a.Status == b.Status && bytes.Equal(a.Moves, b.Moves)
}

// offer publishes g to e when it is newer than what e has.
func (s *Server) offer(e *entry, g *game.Game) {
	if !s.newer(e, g.Version) {
		return
	}
	f, err := frameOf(g)
	if err != nil {
		s.log.Error("webapp: a game does not replay", "game", g.ID, "err", err)
		return
	}
	s.publish(e, f)
}

// pollGame reads e's game every s.poll until its last watcher leaves or the Server closes,
// publishing the versions that other processes wrote.
func (s *Server) pollGame(e *entry) {
	defer s.pollers.Done()
	tick, stop := s.timers.ticker(s.poll)
	defer stop()
	for {
		select {
		case <-e.stop:
			return
		case <-s.done:
			return
		case <-tick:
		}
		ctx, cancel := context.WithTimeout(context.Background(), pollTimeout)
		began := time.Now()
		snap, err := s.games.Game(ctx, e.id)
		cancel()
		if err != nil || snap == nil || snap.Game == nil {
			s.log.Debug("webapp: poll of a watched game failed", "game", e.id, "err", err)
			continue
		}
		if s.seen(e, snap.Game) {
			continue
		}
		f, err := frameOf(snap.Game)
		if err != nil {
			s.log.Error("webapp: a game does not replay", "game", snap.Game.ID, "err", err)
			continue
		}
		s.publishRead(e, f, began)
	}
}
