package pictures

import (
	"bytes"
	"context"
	"errors"
	"image"
	"runtime"
	"sync"
	"sync/atomic"
)

// The bot's heavy drawing — the boards' pictures served over HTTP (Pictures.Handler), and the
// replays and review charts of finished games (Pictures.DrawIdle) — runs on a few workers of
// its own, never on the goroutine of the request or of the game that asked for it: a flood of picture requests then costs at most
// that many drawings' CPU and memory at once, and the handlers of taps and messages, which
// draw nothing there, never wait behind it. A request for a picture waits in a short queue
// for a worker, or is refused at once when the queue is full (the handler answers 503 with
// Retry-After); pictures somebody is fetching go before replays, which nobody waits on.
// Options.OnDraw runs on the worker before each drawing: cmd/reversibot lowers the worker
// thread's priority there, as it does for the AI.

// drawQueuePerWorker is how many pictures may wait for each worker: at about 20 ms a 16×16
// picture, a fetch waits at most some 160 ms behind the queue.
const drawQueuePerWorker = 8

// DefaultWorkers is the number of drawing workers when Options.Workers is 0: half the CPUs,
// at least one.
func DefaultWorkers() int { return max(1, runtime.NumCPU()/2) }

// ErrBusy is a drawing refused because its queue is full or the workers have stopped.
var ErrBusy = errors.New("pictures: drawing queue full")

// Drawing priorities: what somebody waits for, and what nobody does.
type drawClass int

const (
	drawUrgent drawClass = iota // a picture being fetched
	drawIdle                    // a replay, a review's chart
)

// drawScratch is a worker's own memory, reused from one drawing to the next so that a
// drawing allocates little beyond its result.
type drawScratch struct {
	pal  *image.Paletted // the picture as render draws it
	rgba *image.RGBA     // … converted for the JPEG encoder
	buf  bytes.Buffer    // the encoded picture, before it is copied out
}

// drawJob is one drawing: run on a worker unless its context ended while it waited.
type drawJob struct {
	ctx  context.Context
	run  func(*drawScratch)
	done chan struct{} // closed once run has returned, or the job was dropped
	ran  bool          // run was called; read after done is closed
}

// Stats are the counters of the drawing workers and of the picture cache.
type Stats struct {
	Workers     int   // drawing workers
	Running     int   // drawings in progress now
	PeakRunning int   // the most drawings that ran at once
	Waiting     int   // drawings waiting for a worker now (pictures and idle work)
	Drawn       int64 // drawings done
	Refused     int64 // drawings refused: their queue was full (a picture answered 503, idle work not done)
	CacheBytes  int64 // bytes of the pictures kept now
	CacheCap    int64 // the most bytes the pictures kept may take
	CachedCount int   // pictures kept now
}

// drawer is the pool of drawing workers. Its zero value is not usable: see newDrawer.
type drawer struct {
	workers int
	onDraw  func() // called on the worker before each drawing; nil: none
	urgent  chan *drawJob
	idle    chan *drawJob

	startOnce sync.Once
	mu        sync.Mutex
	closed    bool
	stop      chan struct{}
	wg        sync.WaitGroup

	running, peak, drawn, refused atomic.Int64
}

// newDrawer returns a pool of workers (at least one) that starts them on its first drawing.
func newDrawer(workers int, onDraw func()) *drawer {
	workers = max(workers, 1)
	return &drawer{workers: workers, onDraw: onDraw, urgent: make(chan *drawJob, workers*drawQueuePerWorker),
		idle: make(chan *drawJob, workers*drawQueuePerWorker), stop: make(chan struct{})}
}

// full reports whether a drawing of class would be refused now: a cheap test before the work
// of preparing one.
func (d *drawer) full(class drawClass) bool {
	q := d.queue(class)
	return len(q) == cap(q)
}

func (d *drawer) queue(class drawClass) chan *drawJob {
	if class == drawUrgent {
		return d.urgent
	}
	return d.idle
}

// do runs draw on a worker and returns once it has run: ErrBusy at once when the queue of
// class is full or the pool is closed, ctx's error when ctx ends first (draw then runs not at
// all, or runs to its end with nobody waiting: it must only write what its caller reads after
// a nil return).
func (d *drawer) do(ctx context.Context, class drawClass, draw func(*drawScratch)) error {
	j := &drawJob{ctx: ctx, run: draw, done: make(chan struct{})}
	d.mu.Lock()
	refused := d.closed
	if !refused {
		d.startOnce.Do(d.start)
		select {
		case d.queue(class) <- j:
		default:
			refused = true // the queue is full
		}
	}
	d.mu.Unlock()
	if refused {
		d.refused.Add(1)
		return ErrBusy
	}
	select {
	case <-j.done:
		if !j.ran {
			return ErrBusy // the pool closed under it
		}
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// start starts the workers.
func (d *drawer) start() {
	for range d.workers {
		d.wg.Go(d.work)
	}
}

// work runs drawings until the pool closes, the urgent ones first.
func (d *drawer) work() {
	var s drawScratch
	for {
		select {
		case <-d.stop: // what still waits is dropped by close
			return
		default:
		}
		var j *drawJob
		select {
		case j = <-d.urgent:
		default:
			select {
			case j = <-d.urgent:
			case j = <-d.idle:
			case <-d.stop:
				return
			}
		}
		d.runJob(j, &s)
	}
}

// runJob runs j on the calling worker, counting it, unless nobody waits for it any more.
func (d *drawer) runJob(j *drawJob, s *drawScratch) {
	defer close(j.done)
	if j.ctx.Err() != nil {
		return
	}
	n := d.running.Add(1)
	for p := d.peak.Load(); n > p && !d.peak.CompareAndSwap(p, n); p = d.peak.Load() {
	}
	defer d.running.Add(-1)
	if d.onDraw != nil {
		d.onDraw()
	}
	j.ran = true
	j.run(s)
	d.drawn.Add(1)
}

// close stops the workers once their drawings in progress are done; the drawings still
// waiting are dropped (their callers get ErrBusy) and later ones refused.
func (d *drawer) close() {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return
	}
	d.closed = true
	close(d.stop)
	d.mu.Unlock()
	d.wg.Wait()
	for _, q := range []chan *drawJob{d.urgent, d.idle} {
		for len(q) > 0 { // nothing is queued once closed is set, and the workers are gone
			close((<-q).done)
		}
	}
}

// stats fills the workers' part of Stats.
func (d *drawer) stats() Stats {
	return Stats{Workers: d.workers, Running: int(d.running.Load()), PeakRunning: int(d.peak.Load()),
		Waiting: len(d.urgent) + len(d.idle), Drawn: d.drawn.Load(), Refused: d.refused.Load()}
}
