package bot

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// Pending is what a Bot still has in flight: what its Shutdown waits for.
type Pending struct {
	// Updates are the updates being handled (an AI's search for a move is part of its
	// update).
	Updates int
	// BoardEdits are the board messages with an edit on its way or queued; BoardQueued of
	// them have one waiting to start.
	BoardEdits, BoardQueued int
	// Work is the work the updates left behind (notices, reminders, replays, reviews), by
	// name; names with none are left out.
	Work map[string]int
}

// Zero reports whether nothing is in flight.
func (p Pending) Zero() bool {
	return p.Updates == 0 && p.BoardEdits == 0 && len(p.Work) == 0
}

// String names what is in flight with its count, as "3 updates, 2 board edits (1 queued),
// 1 replay"; "nothing" when nothing is.
func (p Pending) String() string {
	var parts []string
	if p.Updates > 0 {
		parts = append(parts, count(p.Updates, "update"))
	}
	if p.BoardEdits > 0 {
		s := count(p.BoardEdits, "board edit")
		if p.BoardQueued > 0 {
			s += fmt.Sprintf(" (%d queued)", p.BoardQueued)
		}
		parts = append(parts, s)
	}
	names := make([]string, 0, len(p.Work))
	for name := range p.Work {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		parts = append(parts, count(p.Work[name], name))
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, ", ")
}

// count is "n thing" with thing in the plural when n is not 1.
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	if strings.HasSuffix(thing, "y") && !strings.HasSuffix(thing, "ay") {
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(thing, "y"))
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// Pending returns what the bot has in flight now.
func (b *Bot) Pending() Pending {
	p := Pending{Updates: b.in.Stats().Running, Work: b.pending()}
	p.BoardEdits, p.BoardQueued = b.boards.InFlight()
	return p
}

// StopWaitingForBudget ends every wait for the flood limits' budget (pacing, a 429's
// retry_after) at once and makes later ones fail (botapi.ErrStopping): a board edit or a send
// that would wait is dropped. Its board is redrawn from the store by the next step of its game
// or the next tap on it, in whichever process takes it. A process that stops calls it before
// Shutdown, so that Shutdown waits only for work already on its way; without it Shutdown
// waits for the paced work too.
func (b *Bot) StopWaitingForBudget() {
	b.stoppingOnce.Do(func() { close(b.stopping) })
}

// Shutdown stops taking updates and lets what is in flight finish (the updates being handled,
// the board edits, the notices and replays on their way; see Pending), or, should ctx end
// first, cancels it, waits for it to return and returns ctx's error. The parts are their
// owner's to stop around it (Parts.Stop); the Service is the caller's to close, after it.
func (b *Bot) Shutdown(ctx context.Context) error {
	b.afterWork.close()
	err := b.in.Shutdown(ctx)
	// No handler runs any more: only the work they left (edits, checks) can add to it.
	if werr := b.wait(ctx); werr != nil {
		err = werr
	}
	if b.transport != nil {
		b.transport.CloseIdleConnections()
	}
	return err
}
