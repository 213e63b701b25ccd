package game

import (
	"context"
	"time"
)

// AI jobs: a bot whose AI runs on worker processes (package aiworker) posts each search as a
// job to one job stream shared by all; the workers take the jobs through a consumer group and
// post each result to the reply stream of the front that asked. A job is handed to one worker
// at a time and stays pending on it until the worker acknowledges it (AckAIJob); a job a
// worker read but never acknowledged (the worker died) is taken over by another worker with
// ClaimAIJobs once it has been idle long enough. Package storage keeps the streams in Redis,
// gametest.AIStreams in memory; both pass gametest.TestAIStreams.

// The kinds of AI job.
const (
	AIJobMove = "move" // the AI's move at a level
	AIJobHint = "hint" // a hint for a player
)

// AIJob is one AI search asked of the workers.
type AIJob struct {
	// ID names the job for its result; unique per front.
	ID string
	// Kind is AIJobMove or AIJobHint.
	Kind string
	// Position is the position to search, as engine.Position.String writes it ("BOARD SIDE").
	Position string
	// Size is the board size of Position.
	Size int
	// Level is the AI level, 1 to MaxLevel, for a move (ignored for a hint).
	Level int
	// ReplyTo is the front whose reply stream gets the result.
	ReplyTo string
	// Deadline is when nobody waits for the result any more; a worker drops a job read after
	// it. Streams keep it to the millisecond.
	Deadline time.Time
}

// AIDelivery is one job handed to a worker.
type AIDelivery struct {
	// Entry names the job's entry in the stream, for AckAIJob.
	Entry string
	// Job is the job; zero when Err is set.
	Job AIJob
	// Err, wrapping ErrInvalid, reports an entry that is not a job this code can read
	// (garbage, or another format version). Acknowledge it and move on.
	Err error
}

// AIResult is the answer to one job.
type AIResult struct {
	// JobID is the AIJob.ID answered.
	JobID string
	// Move is the square found, as engine.Square.String writes it; empty when Failure is set.
	Move string
	// Failure, when not empty, says why the worker could not search the job.
	Failure string
	// Err, wrapping ErrInvalid, reports a stream entry that is not a result this code can read;
	// JobID is set if the entry had one.
	Err error
}

// AIFrontStreams is what a front (aiworker.Mover) needs of the AI streams: it posts jobs and
// reads the results on its own reply stream.
type AIFrontStreams interface {
	// PostAIJob adds a job to the job stream. A job without an ID, a reply-to front or a
	// deadline, or of an unknown kind, gives ErrInvalid.
	PostAIJob(ctx context.Context, j AIJob) error
	// ReadAIResults returns up to count results from the reply stream of front that came
	// after the entry after ("" or "0": from the start), in the order they were posted,
	// waiting up to block for one (block <= 0: not at all; a blocked call need not end with
	// ctx, so keep block short). It also returns the entry to pass as after next time: the
	// last one read, or after itself ("0" for "") when none was.
	ReadAIResults(ctx context.Context, front, after string, count int, block time.Duration) ([]AIResult, string, error)
}

// AIWorkerStreams is what a worker (aiworker.Worker) needs of the AI streams: it takes jobs,
// posts their results and acknowledges them, and says when it leaves.
type AIWorkerStreams interface {
	// ReadAIJobs hands the worker named consumer up to count jobs no worker has had yet, the
	// oldest first, waiting up to block for one to arrive (block <= 0: not at all; a blocked
	// call need not end with ctx, so keep block short). The jobs stay pending on consumer
	// until acknowledged. A worker may read before any job was posted.
	ReadAIJobs(ctx context.Context, consumer string, count int, block time.Duration) ([]AIDelivery, error)
	// ClaimAIJobs takes over, for the worker named consumer, up to count jobs that have been
	// pending on any worker for at least minIdle (their worker died or is stuck), scanning the
	// pending jobs from cursor ("" or "0-0": the start). It returns the jobs and the cursor for
	// the next call, "0-0" when the scan has reached the end. A job claimed is pending on
	// consumer, its idle time started again.
	ClaimAIJobs(ctx context.Context, consumer string, minIdle time.Duration, count int, cursor string) ([]AIDelivery, string, error)
	// AckAIJob marks a job done (its result posted, or dropped) and deletes it, so that no
	// worker takes it over. Acknowledging it again does nothing.
	AckAIJob(ctx context.Context, entry string) error
	// PostAIResult adds a result to the reply stream of front. A front or a result without a
	// job id gives ErrInvalid.
	PostAIResult(ctx context.Context, front string, r AIResult) error
	// RemoveAIWorker forgets the worker named consumer if no job is pending on it (a worker
	// that stopped cleanly), and reports whether it did. A worker with pending jobs is kept
	// (false), so that those jobs can still be claimed by others.
	RemoveAIWorker(ctx context.Context, consumer string) (bool, error)
	// PruneAIWorkers forgets the workers that have no pending job and have not read for at
	// least idle (workers killed without RemoveAIWorker), and returns how many it forgot.
	PruneAIWorkers(ctx context.Context, idle time.Duration) (int, error)
}

// AIStreams is both sides of the AI streams, and what the operator watches.
type AIStreams interface {
	AIFrontStreams
	AIWorkerStreams
	// PendingAIJobs returns the number of jobs handed to workers and not yet acknowledged.
	PendingAIJobs(ctx context.Context) (int64, error)
}
