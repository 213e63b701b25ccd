package bot

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/reversibot/reversi/game"
)

// The replays of finished games wait for their turn in one queue of at most replayQueue
// games, served by as many goroutines as there are drawing workers: each takes the oldest
// game, replays it, has it drawn once (at idle priority, after the pictures somebody is
// fetching) and sends the drawing to every chat that shows the game. So however many games
// end at once, at most that many replays are drawn or held (a 16×16 drawing costs some 78 MB
// while it is made) and the queue keeps only the games; when it is full, the oldest game's
// replay is dropped (a log line, DrawStats.ReplaysDropped): its players have waited longest
// and are the likeliest to have moved on.

// replayQueue is how many finished games' replays may wait; beyond it the oldest is dropped.
const replayQueue = 64

// replays is the queue of the replays to send. Its zero value is not usable: see newReplays.
type replays struct {
	workers int
	max     int
	start   func(run func()) bool                   // runs run on a goroutine of its own; false: the bot stops
	send    func(ctx context.Context, g *game.Game) // replays, draws and sends g's replay
	stop    context.Context                         // ends: the queue is dropped
	log     *slog.Logger

	mu      sync.Mutex
	queue   []*game.Game // oldest first
	running int          // goroutines serving the queue
	dropped atomic.Int64
}

// newReplays returns a queue of at most max games served by workers goroutines (each started
// with start) that call send, until stop ends.
func newReplays(workers, max int, start func(run func()) bool, send func(context.Context, *game.Game),
	stop context.Context, log *slog.Logger) *replays {
	return &replays{workers: max1(workers), max: max1(max), start: start, send: send, stop: stop, log: log}
}

func max1(n int) int { return max(n, 1) }

// add queues the replay of g, dropping the oldest queued one when the queue is full, and
// starts a goroutine to serve the queue when fewer than workers do.
func (r *replays) add(g *game.Game) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stop.Err() != nil {
		return
	}
	if len(r.queue) >= r.max {
		old := r.queue[0]
		r.queue[0] = nil
		r.queue = r.queue[1:]
		r.dropped.Add(1)
		r.log.Warn("replay dropped: too many games ended at once", "game", old.ID, "queued", r.max)
	}
	r.queue = append(r.queue, g)
	if r.running < r.workers && r.start(r.serve) {
		r.running++
	}
}

// serve sends the queued replays, oldest first, until the queue is empty or stop ends.
func (r *replays) serve() {
	for {
		r.mu.Lock()
		if len(r.queue) == 0 || r.stop.Err() != nil {
			r.queue = nil
			r.running--
			r.mu.Unlock()
			return
		}
		g := r.queue[0]
		r.queue[0] = nil
		r.queue = r.queue[1:]
		r.mu.Unlock()
		ctx, cancel := context.WithTimeout(r.stop, replayTimeout)
		r.send(ctx, g)
		cancel()
	}
}

// stats returns how many replays wait in the queue, and how many were dropped.
func (r *replays) stats() (queued int, dropped int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.queue), r.dropped.Load()
}
