package main

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// How a stop spends its grace (Config.StopGrace, from SIGTERM to the exit). Nothing waits for
// the flood limits' budget once the stop begins (bot.Bot.Shutdown drops those sends and
// edits), so what is left to wait for is work already on its way: the updates being handled
// (an AI search among them), the edits already paid for, notices and replays being sent.
const (
	// stopLogEvery is how often a stop that waits logs what it waits for.
	stopLogEvery = time.Second
	// maxStopReserve bounds the end of the grace kept back from the work in flight (see
	// stopReserve).
	maxStopReserve = 2 * time.Second
	// stopOverrun is how long past its grace a stop that still has not ended (something
	// ignored its cancellation) is let run before the process exits regardless.
	stopOverrun = 500 * time.Millisecond
)

// errOutOfGrace is Close's error when the work in flight had to be cut short.
var errOutOfGrace = errors.New("out of grace: work in flight cut short")

// stopReserve is the end of a grace that the work in flight is not given: the time to cut it
// short and close the AI and the store. A quarter of the grace, at most maxStopReserve.
func stopReserve(grace time.Duration) time.Duration { return min(grace/4, maxStopReserve) }

// stopGrace is Config.StopGrace, DefaultStopGrace when unset (a Main built by a test).
func (m *Main) stopGrace() time.Duration {
	if m.Config.StopGrace > 0 {
		return m.Config.StopGrace
	}
	return DefaultStopGrace
}

// stopBot stops the bot and its parts (bot.Parts.Stop), letting their work in flight finish until deadline and cutting it
// short then; meanwhile it logs every stopLogEvery what it waits for, by name and count, and
// once at the end what it waited for or had to cut short.
func (m *Main) stopBot(deadline time.Time) error {
	start := time.Now()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// What the stop began with, named in its last line: counted before the waits for budget
	// are dropped, which takes them out of the count at once.
	first := m.pending()
	m.Bot.StopWaitingForBudget() // what waits for Telegram's budget is dropped, not waited for
	done := make(chan error, 1)
	go func() { done <- m.Parts.Stop(ctx, m.Bot) }() // the parts that make work, the bot, the drawing
	tick := time.NewTicker(stopLogEvery)
	defer tick.Stop()
	cut := time.NewTimer(time.Until(deadline))
	defer cut.Stop()
	for {
		select {
		case err := <-done:
			m.Log.Info("stop: done waiting", "took_ms", time.Since(start).Milliseconds(), "began_with", first)
			return err
		case <-tick.C:
			m.logPending("stop: waiting for ")
		case <-cut.C:
			m.logPending("stop: out of grace, cutting short: ")
			logStuck(m.Log)
			cancel()
			<-done
			return errOutOfGrace
		}
	}
}

// pending names what the bot and its AI have in flight, with their counts.
func (m *Main) pending() string {
	p := m.Bot.Pending()
	s := p.String()
	if m.pool != nil {
		if n := m.pool.Busy() + m.pool.Waiting(); n > 0 {
			ai := fmt.Sprintf("%d AI searches", n)
			if n == 1 {
				ai = "1 AI search"
			}
			if p.Zero() {
				return ai
			}
			s += ", " + ai
		}
	}
	return s
}

// logPending logs what is in flight, after prefix.
func (m *Main) logPending(prefix string) {
	p := m.Bot.Pending()
	m.Log.Warn(prefix+m.pending(), "updates", p.Updates, "board_edits", p.BoardEdits,
		"board_edits_queued", p.BoardQueued, "work", p.Work)
}

// closeWithin runs Close, but returns after limit even if Close has not ended (then with an
// error, the process exiting with the work Close waits for still running): a stop never
// outlasts its grace by more than stopOverrun, whatever ignores its cancellation.
func (m *Main) closeWithin(limit time.Duration) error {
	done := make(chan error, 1)
	go func() { done <- m.Close() }()
	t := time.NewTimer(limit)
	defer t.Stop()
	select {
	case err := <-done:
		return err
	case <-t.C:
		if m.Log != nil {
			logStuck(m.Log)
		}
		return fmt.Errorf("stop did not end within %v: exiting regardless", limit)
	}
}
