package aiworker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/engine/ai"
	"github.com/reversibot/reversi/game"
)

// DefaultClaimAfter is how long a job may stay with a worker without an answer before another
// worker takes it over, when WorkerOptions.ClaimAfter is zero. It is well above the longest
// search (2 s at level 6 on the larger boards), so a live worker's job is never taken from it.
const DefaultClaimAfter = 5 * time.Second

// How often a worker forgets the workers that died without saying so, and after how long a
// silence a worker counts as dead.
const (
	pruneEvery = 10 * time.Minute
	pruneIdle  = time.Hour
)

// Outcomes of a job, as WorkerOptions.Observe reports them.
const (
	OutcomeOK        = "ok"        // searched and answered
	OutcomeFailed    = "failed"    // answered with a failure: a position or level it cannot search
	OutcomeExpired   = "expired"   // read after its deadline: dropped unsearched
	OutcomeMalformed = "malformed" // not a job: dropped
	OutcomeAbandoned = "abandoned" // the worker stopped mid-search: left for another worker
	OutcomeUnposted  = "unposted"  // searched, but the answer could not be posted: left pending
)

// WorkerOptions tune a Worker. The zero value is ready to use.
type WorkerOptions struct {
	// Name is the worker's name in the consumer group, unique among the workers; "" means
	// the host name, the process id and a random suffix.
	Name string
	// Searcher searches the jobs; nil means ai.NewPlayer (package engine/ai) with a random seed.
	Searcher game.Mover
	// Concurrency is the number of searches run at once; 0 means GOMAXPROCS.
	Concurrency int
	// ClaimAfter is how long a job may stay with a worker without an answer before this one
	// takes it over; 0 means DefaultClaimAfter. Keep it above the longest search.
	ClaimAfter time.Duration
	// Drain is how long the searches in flight when Run's ctx ends may go on to post their
	// answers; 0 abandons them at once, leaving their jobs to another worker after ClaimAfter.
	Drain time.Duration
	// Block is how long one read of the job stream waits; 0 means DefaultBlock.
	Block time.Duration
	// Logger gets malformed jobs and the streams' failures; nil discards.
	Logger *slog.Logger
	// Observe, when set, is told the kind, level, outcome and search time of every job the
	// worker handles. It must be safe for concurrent use.
	Observe func(kind string, level int, outcome string, took time.Duration)
}

// Worker is the workers' side: it takes jobs from the job stream and answers them. Run it once.
type Worker struct {
	st   game.AIWorkerStreams
	o    WorkerOptions
	log  *slog.Logger
	busy atomic.Int64
}

// NewWorker returns a Worker over st; Run starts it.
func NewWorker(st game.AIWorkerStreams, o WorkerOptions) *Worker {
	if o.Name == "" {
		host, _ := os.Hostname()
		o.Name = host + "-" + strconv.Itoa(os.Getpid()) + "-" + randomName()[:6]
	}
	if o.Searcher == nil {
		o.Searcher = ai.NewPlayer(rand.Uint64())
	}
	if o.Concurrency <= 0 {
		o.Concurrency = runtime.GOMAXPROCS(0)
	}
	if o.ClaimAfter <= 0 {
		o.ClaimAfter = DefaultClaimAfter
	}
	if o.Block <= 0 {
		o.Block = DefaultBlock
	}
	w := &Worker{st: st, o: o, log: o.Logger}
	if w.log == nil {
		w.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return w
}

// Name returns the worker's name in the consumer group.
func (w *Worker) Name() string { return w.o.Name }

// Busy returns the number of jobs the worker is handling now.
func (w *Worker) Busy() int { return int(w.busy.Load()) }

// Run takes and answers jobs, at most Concurrency at once, until ctx ends: new jobs first, and
// every so often (a quarter of ClaimAfter) the jobs another worker left unanswered for
// ClaimAfter. Failures of the streams are logged and retried. When ctx ends, Run stops taking jobs,
// lets the searches in flight finish within Drain (the others' jobs stay pending for another
// worker), leaves the consumer group if nothing is pending on it, and returns nil.
func (w *Worker) Run(ctx context.Context) error {
	slots := make(chan struct{}, w.o.Concurrency)
	var wg sync.WaitGroup
	defer wg.Wait()

	claimEvery := max(w.o.ClaimAfter/4, 10*time.Millisecond)
	var (
		cursor    string
		nextClaim time.Time // zero: claim at once, for the jobs a dead worker left
		nextPrune time.Time
		pause     time.Duration
	)
	for {
		if ctx.Err() != nil {
			w.leave(&wg)
			return nil
		}
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			continue
		}
		now := time.Now()
		if !now.Before(nextPrune) {
			nextPrune = now.Add(pruneEvery)
			if n, err := w.st.PruneAIWorkers(ctx, pruneIdle); err != nil {
				w.log.Warn("remote AI: pruning dead workers failed", "err", err)
			} else if n > 0 {
				w.log.Info("remote AI: forgot dead workers", "count", n)
			}
		}
		var (
			jobs []game.AIDelivery
			err  error
		)
		if !now.Before(nextClaim) {
			jobs, cursor, err = w.st.ClaimAIJobs(ctx, w.o.Name, w.o.ClaimAfter, 1, cursor)
			if cursor == "0-0" || cursor == "" {
				nextClaim = now.Add(claimEvery) // scanned to the end; more scanning next time
			}
			for _, d := range jobs {
				w.log.Info("remote AI: took over a job another worker left", "worker", w.o.Name, "job", d.Job.ID)
			}
		}
		if err == nil && len(jobs) == 0 {
			jobs, err = w.st.ReadAIJobs(ctx, w.o.Name, 1, min(w.o.Block, time.Until(nextClaim)))
		}
		if err != nil {
			<-slots
			if ctx.Err() != nil {
				continue
			}
			pause = backoff(pause)
			w.log.Warn("remote AI: reading jobs failed; retrying", "worker", w.o.Name, "err", err, "retry_in", pause)
			wait(ctx.Done(), pause)
			continue
		}
		pause = 0
		if len(jobs) == 0 {
			<-slots
			continue
		}
		w.busy.Add(1)
		wg.Add(1)
		go func(d game.AIDelivery) {
			defer func() {
				w.busy.Add(-1)
				<-slots
				wg.Done()
			}()
			w.handle(ctx, d)
		}(jobs[0])
	}
}

// leave waits for the searches in flight, then leaves the consumer group if nothing is pending
// on the worker.
func (w *Worker) leave(wg *sync.WaitGroup) {
	wg.Wait()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if ok, err := w.st.RemoveAIWorker(ctx, w.o.Name); err != nil {
		w.log.Warn("remote AI: could not leave the consumer group", "worker", w.o.Name, "err", err)
	} else if !ok {
		w.log.Info("remote AI: stopped with jobs pending; other workers will take them over", "worker", w.o.Name)
	}
}

// handle answers one job and acknowledges it, unless the worker stopped mid-search.
func (w *Worker) handle(runCtx context.Context, d game.AIDelivery) {
	start := time.Now()
	// Once the search is done, posting and acknowledging go on even if Run is stopping.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(runCtx), 5*time.Second)
	defer cancel()
	j := d.Job
	observe := func(outcome string) {
		if w.o.Observe != nil {
			w.o.Observe(j.Kind, j.Level, outcome, time.Since(start))
		}
	}
	ack := func() {
		if err := w.st.AckAIJob(ctx, d.Entry); err != nil {
			w.log.Warn("remote AI: ack failed; the job may be searched again", "entry", d.Entry, "err", err)
		}
	}
	if d.Err != nil {
		w.log.Warn("remote AI: malformed job dropped", "entry", d.Entry, "err", d.Err)
		ack()
		observe(OutcomeMalformed)
		return
	}
	if !time.Now().Before(j.Deadline) {
		w.log.Debug("remote AI: job past its deadline dropped", "job", j.ID)
		ack()
		observe(OutcomeExpired)
		return
	}

	res := game.AIResult{JobID: j.ID}
	outcome := OutcomeOK
	pos, err := checkJob(j)
	if err == nil {
		var sq engine.Square
		var abandoned bool
		sq, abandoned, err = w.search(runCtx, j, pos)
		if abandoned {
			observe(OutcomeAbandoned)
			return
		}
		res.Move = sq.String()
	}
	if err != nil {
		res.Move, res.Failure, outcome = "", err.Error(), OutcomeFailed
		w.log.Warn("remote AI: job failed", "job", j.ID, "err", err)
	}
	if err := w.st.PostAIResult(ctx, j.ReplyTo, res); err != nil {
		// Left pending: this worker or another takes it over after ClaimAfter.
		w.log.Warn("remote AI: posting a result failed", "job", j.ID, "err", err)
		observe(OutcomeUnposted)
		return
	}
	ack()
	observe(outcome)
}

// checkJob reads a job's position and checks that it can be searched.
func checkJob(j game.AIJob) (engine.Position, error) {
	pos, err := engine.ParsePosition(j.Position)
	switch {
	case err != nil:
		return pos, fmt.Errorf("position: %v", err)
	case pos.Size() != j.Size:
		return pos, fmt.Errorf("position of size %d, job says %d", pos.Size(), j.Size)
	case !pos.HasMoves():
		return pos, errors.New("the side to move has no legal move")
	case j.Kind == game.AIJobMove && (j.Level < 1 || j.Level > game.MaxLevel):
		return pos, fmt.Errorf("level %d, want 1 to %d", j.Level, game.MaxLevel)
	}
	return pos, nil
}

// search runs the job's search until its deadline. It reports abandoned when the worker
// stopped (and Drain passed) before the search was done: its answer is not worth posting.
func (w *Worker) search(runCtx context.Context, j game.AIJob, pos engine.Position) (engine.Square, bool, error) {
	ctx, cancel := context.WithDeadline(context.WithoutCancel(runCtx), j.Deadline)
	defer cancel()
	var (
		mu       sync.Mutex
		finished bool // the search returned: too late to abandon it
		gaveUp   bool
		drain    *time.Timer
	)
	abandon := func() {
		mu.Lock()
		defer mu.Unlock()
		if !finished {
			gaveUp = true
			cancel()
		}
	}
	stop := context.AfterFunc(runCtx, func() {
		if w.o.Drain <= 0 {
			abandon()
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if !finished {
			drain = time.AfterFunc(w.o.Drain, abandon)
		}
	})
	defer stop()

	sq, err := w.run(ctx, j, pos)

	mu.Lock()
	finished = true
	if drain != nil {
		drain.Stop()
	}
	abandoned := gaveUp
	mu.Unlock()
	if abandoned {
		return engine.Pass, true, nil
	}
	if err == nil && (sq == engine.Pass || !pos.IsLegal(sq)) {
		err = fmt.Errorf("the search answered %v, not a legal move", sq)
	}
	return sq, false, err
}

// run calls the Searcher, turning a panic into an error.
func (w *Worker) run(ctx context.Context, j game.AIJob, pos engine.Position) (sq engine.Square, err error) {
	defer func() {
		if v := recover(); v != nil {
			sq, err = engine.Pass, fmt.Errorf("search panicked: %v", v)
		}
	}()
	if j.Kind == game.AIJobHint {
		return w.o.Searcher.Hint(ctx, pos)
	}
	return w.o.Searcher.Move(ctx, pos, j.Level)
}
