package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/reversibot/reversi/bot"
	"github.com/reversibot/reversi/bot/telegramtest"
)

// With -flood one more simulated user floods the bot while the chats play: it opens a game
// against the AI and then taps on its board as fast as the fake server takes the taps,
// alternately a move of that board (the first one plays, the rest are stale) and garbage
// callback data, keeping the fake server's queue of updates not yet taken by the bot at
// floodQueue at most. The Bot API delivers at most 100 updates per getUpdates, so this is the
// fastest a flood can reach the bot without the queue (and with it everyone's wait) growing
// without bound: the flood runs at the speed of the bot's intake.

// floodQueue bounds the updates waiting in the fake server while the flooder taps: two
// getUpdates batches.
const floodQueue = 200

// Settings of the bots under load: the load's players tap faster than any human, so without
// -flood the bots' per-user budget is set so wide that it never refuses (its cost is still
// paid); with -flood it is the bot's default, and the players pause -think before each tap.
const (
	wideUserRate  = "1000"
	wideUserBurst = "10000"
	// defaultFloodThink is -think under -flood unless set: a fast human's pace, inside the
	// default budget of 5 updates a second.
	defaultFloodThink = 250 * time.Millisecond
)

// wideBudget is the in-process bots' budget without -flood.
var wideBudget = bot.Budget{Rate: 1000, Per: time.Second, Burst: 10000}

// FloodStats is what the flooder did and what became of its taps.
type FloodStats struct {
	Sent     int64 // taps sent
	Handled  int64 // taps answered, but not "slow down": the bot did the work of each
	Toasts   int64 // taps answered "slow down"
	Duration time.Duration
}

// flood runs the flooder u until ctx ends, then counts the answers to its taps.
func (d *driver) flood(ctx context.Context, u *telegramtest.Person, st *FloodStats) {
	start := time.Now()
	var qids []string
	defer func() {
		st.Duration = time.Since(start)
		st.Sent = int64(len(qids))
		for _, q := range qids {
			if a, ok := d.srv.CallbackAnswer(q); ok && a.Answered {
				if strings.Contains(a.Text, "Slow down") {
					st.Toasts++
				} else {
					st.Handled++
				}
			}
		}
	}()
	last := d.lastID(u.ID())
	if _, err := u.Send(u.ID(), fmt.Sprintf("/ai 8 %d black", d.level)); err != nil {
		d.fail("flooder: send /ai")
		return
	}
	board, err := d.newBotMessage(ctx, u.ID(), last, isBoard)
	if err != nil {
		if ctx.Err() == nil {
			d.fail("flooder: no board")
		}
		return
	}
	moves := legalButtons(board)
	if len(moves) == 0 {
		d.fail("flooder: board without moves")
		return
	}
	data := [2]string{moves[0].CallbackData, "flood-garbage"}
	for i := 0; ctx.Err() == nil; i++ {
		if d.srv.PendingUpdates() >= floodQueue {
			err := d.srv.WaitFor(ctx, func(v telegramtest.View) bool { return v.PendingUpdates() < floodQueue })
			if err != nil {
				return
			}
		}
		q, err := u.PressData(board.ChatID, board.ID, data[i%2])
		if err != nil {
			d.fail("flooder: press")
			return
		}
		qids = append(qids, q)
		// Let the players' goroutines in: the flooder shares the fake server's lock and this
		// process's cores with them, and a loop that never yields would measure the fake's
		// unfairness rather than the bot's.
		runtime.Gosched()
	}
}

// print writes the flooder's line of the report.
func (s FloodStats) print(w io.Writer) {
	sec := s.Duration.Seconds()
	if sec <= 0 {
		sec = 1
	}
	fmt.Fprintf(w, "flooder: %d taps (%.0f/s); %d handled (%.1f/s), %d answered slow down, %d without answer\n",
		s.Sent, float64(s.Sent)/sec, s.Handled, float64(s.Handled)/sec, s.Toasts, s.Sent-s.Handled-s.Toasts)
}

// thinker pauses a player before each tap; a zero thinker never waits.
type thinker time.Duration

// wait blocks for the pause (a pacing delay, not synchronisation).
func (t thinker) wait(ctx context.Context) error {
	if t <= 0 {
		return ctx.Err()
	}
	timer := time.NewTimer(time.Duration(t))
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// floodRun starts the flooder beside the players when cfg asks for one; wait returns its
// figures once the run is over.
func floodRun(ctx context.Context, cfg Config, d *driver, wg *sync.WaitGroup) (wait func() *FloodStats) {
	if !cfg.Flood {
		return func() *FloodStats { return nil }
	}
	st := &FloodStats{}
	u := d.srv.NewUser("Flooder", "en")
	wg.Go(func() { d.flood(ctx, u, st) })
	return func() *FloodStats { return st }
}
