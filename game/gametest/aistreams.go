package gametest

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/reversibot/reversi/game"
)

// AIStreams is a game.AIStreams in memory, with the semantics of package storage's Redis
// streams: entries named "N-0" in the order they were posted, jobs handed to one worker at a
// time and pending on it until acknowledged, claims of jobs idle long enough, a reply stream
// per front, deadlines kept to the millisecond, and blocked reads that return as soon as an
// entry arrives. Idle times run on the wall clock, as Redis's do. Unlike Redis it never trims
// its streams: it is for tests. It is safe for concurrent use; make one with NewAIStreams.
type AIStreams struct {
	mu      sync.Mutex
	seq     uint64               // the last entry id given, of any stream
	jobs    []*aiEntry           // the job stream, by id; acknowledged jobs are gone
	read    uint64               // the last job id handed out by ReadAIJobs
	workers map[string]time.Time // the workers known, by when they last read
	replies map[string][]aiReply // each front's reply stream, by id
	posted  chan struct{}        // closed (and replaced) whenever an entry is posted
}

type aiEntry struct {
	id       uint64
	job      game.AIJob
	consumer string    // the worker it is pending on; "" while no worker had it
	since    time.Time // when it was handed to consumer
}

type aiReply struct {
	id uint64
	r  game.AIResult
}

var _ game.AIStreams = (*AIStreams)(nil)

// NewAIStreams returns empty streams.
func NewAIStreams() *AIStreams {
	return &AIStreams{workers: map[string]time.Time{}, replies: map[string][]aiReply{}, posted: make(chan struct{})}
}

// PostAIJob adds a job to the job stream, as game.AIFrontStreams documents.
func (a *AIStreams) PostAIJob(_ context.Context, j game.AIJob) error {
	switch {
	case j.ID == "" || j.ReplyTo == "" || j.Deadline.IsZero():
		return fmt.Errorf("gametest: AI job without an id, a front or a deadline: %w", game.ErrInvalid)
	case j.Kind != game.AIJobMove && j.Kind != game.AIJobHint:
		return fmt.Errorf("gametest: AI job kind %q: %w", j.Kind, game.ErrInvalid)
	}
	j.Deadline = time.UnixMilli(j.Deadline.UnixMilli())
	a.mu.Lock()
	defer a.mu.Unlock()
	a.seq++
	a.jobs = append(a.jobs, &aiEntry{id: a.seq, job: j})
	a.wake()
	return nil
}

// ReadAIJobs hands the worker consumer up to count jobs no worker has had yet, as
// game.AIWorkerStreams documents.
func (a *AIStreams) ReadAIJobs(ctx context.Context, consumer string, count int, block time.Duration) ([]game.AIDelivery, error) {
	var out []game.AIDelivery
	err := a.wait(ctx, block, func(now time.Time) bool {
		a.workers[consumer] = now
		for _, e := range a.jobs {
			if len(out) == max(count, 1) {
				break
			}
			if e.id <= a.read {
				continue
			}
			a.read, e.consumer, e.since = e.id, consumer, now
			out = append(out, e.delivery())
		}
		return len(out) > 0
	})
	return out, err
}

// ClaimAIJobs takes over the jobs pending for at least minIdle, as game.AIWorkerStreams
// documents.
func (a *AIStreams) ClaimAIJobs(_ context.Context, consumer string, minIdle time.Duration, count int, cursor string) ([]game.AIDelivery, string, error) {
	from, err := entryID(cursor, "0-0")
	if err != nil {
		return nil, cursor, err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	now := time.Now()
	a.workers[consumer] = now
	var out []game.AIDelivery
	for _, e := range a.jobs {
		if e.id < from || e.consumer == "" {
			continue
		}
		if len(out) == max(count, 1) {
			return out, formatID(e.id), nil
		}
		if now.Sub(e.since) >= minIdle {
			e.consumer, e.since = consumer, now
			out = append(out, e.delivery())
		}
	}
	return out, "0-0", nil
}

// AckAIJob marks a job done and deletes it, as game.AIWorkerStreams documents.
func (a *AIStreams) AckAIJob(_ context.Context, entry string) error {
	id, err := entryID(entry, "")
	if err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for i, e := range a.jobs {
		if e.id == id {
			a.jobs = append(a.jobs[:i], a.jobs[i+1:]...)
			break
		}
	}
	return nil
}

// PostAIResult adds a result to the reply stream of front, as game.AIWorkerStreams documents.
func (a *AIStreams) PostAIResult(_ context.Context, front string, r game.AIResult) error {
	if front == "" || r.JobID == "" {
		return fmt.Errorf("gametest: AI result without a front or a job id: %w", game.ErrInvalid)
	}
	r.Err = nil
	a.mu.Lock()
	defer a.mu.Unlock()
	a.seq++
	a.replies[front] = append(a.replies[front], aiReply{id: a.seq, r: r})
	a.wake()
	return nil
}

// ReadAIResults returns the results on the reply stream of front after the entry after, as
// game.AIFrontStreams documents.
func (a *AIStreams) ReadAIResults(ctx context.Context, front, after string, count int, block time.Duration) ([]game.AIResult, string, error) {
	if after == "" {
		after = "0"
	}
	from, err := entryID(after, "0")
	if err != nil {
		return nil, after, err
	}
	var out []game.AIResult
	err = a.wait(ctx, block, func(time.Time) bool {
		for _, e := range a.replies[front] {
			if len(out) == max(count, 1) {
				break
			}
			if e.id > from {
				r := e.r
				if (r.Move == "") == (r.Failure == "") {
					r.Err = fmt.Errorf("gametest: AI result %d: needs a move or a failure: %w", e.id, game.ErrInvalid)
				}
				out, after = append(out, r), formatID(e.id)
			}
		}
		return len(out) > 0
	})
	return out, after, err
}

// RemoveAIWorker forgets the worker consumer unless a job is pending on it, as
// game.AIWorkerStreams documents.
func (a *AIStreams) RemoveAIWorker(_ context.Context, consumer string) (bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.pendingOn(consumer) > 0 {
		return false, nil
	}
	delete(a.workers, consumer)
	return true, nil
}

// PruneAIWorkers forgets the workers without pending jobs that have not read for idle, as
// game.AIWorkerStreams documents.
func (a *AIStreams) PruneAIWorkers(_ context.Context, idle time.Duration) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	n := 0
	for w, seen := range a.workers {
		if time.Since(seen) >= idle && a.pendingOn(w) == 0 {
			delete(a.workers, w)
			n++
		}
	}
	return n, nil
}

// PendingAIJobs returns the number of jobs handed to workers and not acknowledged, as
// game.AIStreams documents.
func (a *AIStreams) PendingAIJobs(context.Context) (int64, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	var n int64
	for _, e := range a.jobs {
		if e.consumer != "" {
			n++
		}
	}
	return n, nil
}

// wait runs take under the lock, again whenever an entry is posted, until it reports that it
// took something or block has passed (block <= 0: once), or ctx ends.
func (a *AIStreams) wait(ctx context.Context, block time.Duration, take func(now time.Time) bool) error {
	var timeout <-chan time.Time
	if block > 0 {
		t := time.NewTimer(block)
		defer t.Stop()
		timeout = t.C
	}
	for {
		a.mu.Lock()
		took := take(time.Now())
		posted := a.posted
		a.mu.Unlock()
		if took || timeout == nil {
			return nil
		}
		select {
		case <-posted:
		case <-timeout:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// wake tells the blocked reads that an entry was posted; a.mu is held.
func (a *AIStreams) wake() {
	close(a.posted)
	a.posted = make(chan struct{})
}

// pendingOn returns the number of jobs pending on worker w; a.mu is held.
func (a *AIStreams) pendingOn(w string) int {
	n := 0
	for _, e := range a.jobs {
		if e.consumer == w {
			n++
		}
	}
	return n
}

func (e *aiEntry) delivery() game.AIDelivery {
	d := game.AIDelivery{Entry: formatID(e.id), Job: e.job}
	j := e.job
	if j.Position == "" || j.Size < 4 || j.Size > 16 || j.Level < 0 || j.Level > 100 {
		d.Job, d.Err = game.AIJob{}, fmt.Errorf("gametest: AI job %s: position, size or level: %w", d.Entry, game.ErrInvalid)
	}
	return d
}

func formatID(id uint64) string { return strconv.FormatUint(id, 10) + "-0" }

// entryID reads an entry id as formatID writes it ("N-0", or "N"); zero is what "" means.
func entryID(s, zero string) (uint64, error) {
	if s == "" {
		s = zero
	}
	n, err := strconv.ParseUint(strings.TrimSuffix(s, "-0"), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("gametest: AI stream entry %q: %w", s, game.ErrInvalid)
	}
	return n, nil
}
