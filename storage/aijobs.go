package storage

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/reversibot/reversi/game"
)

// AI jobs (game.AIStreams): the bot's fronts post AI searches to one Redis stream, worker
// processes take them through a consumer group and post each result to the reply stream of
// the front that asked.
//
// A job is handed to one worker at a time and stays pending (in the group's pending list) until
// that worker acknowledges it with AckAIJob, which also deletes it from the stream. A job a
// worker read but never acknowledged (the worker died) is taken over by another worker with
// ClaimAIJobs once it has been idle long enough. Streams are trimmed: the job stream to about
// MaxAIJobs entries, a reply stream to about MaxAIResults, and a reply stream expires
// AIReplyTTL after its last result, so a dead front's stream goes away.

// Limits of the AI streams.
const (
	// MaxAIJobs is about the most jobs the job stream keeps (acknowledged jobs are deleted at
	// once; only a backlog that large is trimmed, oldest first).
	MaxAIJobs = 10000
	// MaxAIResults is about the most results a front's reply stream keeps.
	MaxAIResults = 1000
	// AIReplyTTL is how long a reply stream lives after its last result.
	AIReplyTTL = 10 * time.Minute
	// aiGroup is the consumer group of the workers.
	aiGroup = "workers"
	// aiFormat versions the fields of jobs and results; an entry of another version is
	// malformed to this code.
	aiFormat = "1"
)

var _ game.AIStreams = (*Store)(nil)

// AIJobStream returns the name of the job stream, for tests and diagnostics.
func (s *Store) AIJobStream() string { return s.k.aiJobs() }

// AIReplyStream returns the name of a front's reply stream, for tests and diagnostics.
func (s *Store) AIReplyStream(front string) string { return s.k.aiReplies(front) }

// PostAIJob adds a job to the job stream. It fails with ErrInvalid for a job without an ID,
// a reply-to front or a deadline, or of an unknown kind.
func (s *Store) PostAIJob(ctx context.Context, j game.AIJob) error {
	switch {
	case j.ID == "" || j.ReplyTo == "" || j.Deadline.IsZero():
		return invalidf("AI job without an id, a front or a deadline")
	case j.Kind != game.AIJobMove && j.Kind != game.AIJobHint:
		return invalidf("AI job kind %q", j.Kind)
	}
	err := s.rdb.XAdd(ctx, &redis.XAddArgs{
		Stream: s.k.aiJobs(), MaxLen: MaxAIJobs, Approx: true,
		Values: []any{"v", aiFormat, "id", j.ID, "k", j.Kind, "p", j.Position, "n", j.Size,
			"l", j.Level, "r", j.ReplyTo, "d", j.Deadline.UnixMilli()},
	}).Err()
	return wrap("post AI job", err)
}

// ReadAIJobs hands the worker named consumer up to count jobs no worker has had yet, waiting up
// to block for one to arrive (block <= 0: not at all; a blocked call is not interrupted by ctx,
// so keep block short). The jobs are pending on consumer until acknowledged. The consumer group
// is made when missing, so workers may start before any front.
func (s *Store) ReadAIJobs(ctx context.Context, consumer string, count int, block time.Duration) ([]game.AIDelivery, error) {
	block = blockArg(block)
	var streams []redis.XStream
	err := s.withGroup(ctx, func() error {
		var err error
		streams, err = s.rdb.XReadGroup(ctx, &redis.XReadGroupArgs{Group: aiGroup, Consumer: consumer,
			Streams: []string{s.k.aiJobs(), ">"}, Count: int64(max(count, 1)), Block: block}).Result()
		return err
	})
	if errors.Is(err, redis.Nil) {
		return nil, nil
	}
	if err != nil {
		return nil, wrap("read AI jobs", err)
	}
	var out []game.AIDelivery
	for _, st := range streams {
		for _, m := range st.Messages {
			out = append(out, decodeAIJob(m))
		}
	}
	return out, nil
}

// ClaimAIJobs takes over, for the worker named consumer, up to count jobs that have been
// pending on any worker for at least minIdle (their worker died or is stuck), scanning the
// pending list from cursor ("" or "0-0": the start). It returns the jobs and the cursor for
// the next call, "0-0" when the scan has reached the end. Jobs trimmed from the stream while
// pending are dropped from the pending list and not returned.
func (s *Store) ClaimAIJobs(ctx context.Context, consumer string, minIdle time.Duration, count int, cursor string) ([]game.AIDelivery, string, error) {
	if cursor == "" {
		cursor = "0-0"
	}
	var (
		msgs []redis.XMessage
		next string
	)
	err := s.withGroup(ctx, func() error {
		var err error
		msgs, next, err = s.rdb.XAutoClaim(ctx, &redis.XAutoClaimArgs{Stream: s.k.aiJobs(), Group: aiGroup,
			Consumer: consumer, MinIdle: minIdle, Start: cursor, Count: int64(max(count, 1))}).Result()
		return err
	})
	if err != nil {
		return nil, cursor, wrap("claim AI jobs", err)
	}
	out := make([]game.AIDelivery, 0, len(msgs))
	for _, m := range msgs {
		out = append(out, decodeAIJob(m))
	}
	return out, next, nil
}

// AckAIJob marks a job done (its result posted, or dropped) and deletes it from the stream, so
// no worker takes it over. Acknowledging it again does nothing.
func (s *Store) AckAIJob(ctx context.Context, entry string) error {
	key := s.k.aiJobs()
	p := s.rdb.TxPipeline()
	p.XAck(ctx, key, aiGroup, entry)
	p.XDel(ctx, key, entry)
	_, err := p.Exec(ctx)
	return wrap("ack AI job", err)
}

// PendingAIJobs returns the number of jobs handed to workers and not yet acknowledged.
func (s *Store) PendingAIJobs(ctx context.Context) (int64, error) {
	p, err := s.rdb.XPending(ctx, s.k.aiJobs(), aiGroup).Result()
	if err != nil {
		if errors.Is(err, redis.Nil) || isNoGroup(err) {
			return 0, nil
		}
		return 0, wrap("pending AI jobs", err)
	}
	return p.Count, nil
}

// RemoveAIWorker forgets the worker named consumer if no job is pending on it (a worker that
// stopped cleanly), and reports whether it did (true also for a worker it never knew). A worker
// with pending jobs is kept, so that those jobs can still be claimed by others.
func (s *Store) RemoveAIWorker(ctx context.Context, consumer string) (bool, error) {
	n, err := s.consumerPending(ctx, consumer)
	if err != nil || n > 0 {
		return false, err
	}
	// Nothing can become pending on a consumer that no longer reads, so the check holds.
	gone, err := s.rdb.XGroupDelConsumer(ctx, s.k.aiJobs(), aiGroup, consumer).Result()
	if isNoGroup(err) {
		return false, nil
	}
	_ = gone // the number of jobs that were pending on it: none
	return err == nil, wrap("remove AI worker", err)
}

// PruneAIWorkers forgets the workers that have no pending job and have not read for at least
// idle (workers killed without RemoveAIWorker), and returns how many it forgot. A live worker
// reads every few seconds, so an idle of an hour or more never removes one; if it did, the
// worker would be added back by its next read, losing nothing.
func (s *Store) PruneAIWorkers(ctx context.Context, idle time.Duration) (int, error) {
	cs, err := s.rdb.XInfoConsumers(ctx, s.k.aiJobs(), aiGroup).Result()
	if err != nil {
		if isNoGroup(err) || isNoKey(err) {
			return 0, nil
		}
		return 0, wrap("list AI workers", err)
	}
	n := 0
	for _, c := range cs {
		if c.Pending > 0 || c.Idle < idle {
			continue
		}
		// Check again right before deleting: DELCONSUMER drops the consumer's pending jobs.
		if ok, err := s.RemoveAIWorker(ctx, c.Name); err != nil {
			return n, err
		} else if ok {
			n++
		}
	}
	return n, nil
}

func (s *Store) consumerPending(ctx context.Context, consumer string) (int64, error) {
	p, err := s.rdb.XPendingExt(ctx, &redis.XPendingExtArgs{Stream: s.k.aiJobs(), Group: aiGroup,
		Start: "-", End: "+", Count: 1, Consumer: consumer}).Result()
	if err != nil {
		if isNoGroup(err) || errors.Is(err, redis.Nil) {
			return 0, nil
		}
		return 0, wrap("pending AI jobs of a worker", err)
	}
	return int64(len(p)), nil
}

// PostAIResult adds a result to the reply stream of front and makes the stream expire
// AIReplyTTL after it. It fails with ErrInvalid for a result without a job id.
func (s *Store) PostAIResult(ctx context.Context, front string, r game.AIResult) error {
	if front == "" || r.JobID == "" {
		return invalidf("AI result without a front or a job id")
	}
	key := s.k.aiReplies(front)
	p := s.rdb.TxPipeline()
	p.XAdd(ctx, &redis.XAddArgs{Stream: key, MaxLen: MaxAIResults, Approx: true,
		Values: []any{"v", aiFormat, "id", r.JobID, "m", r.Move, "e", r.Failure}})
	p.PExpire(ctx, key, AIReplyTTL)
	_, err := p.Exec(ctx)
	return wrap("post AI result", err)
}

// ReadAIResults returns up to count results from the reply stream of front that came after the
// entry id after ("" or "0": from the start), waiting up to block for one (block <= 0: not at
// all; a blocked call is not interrupted by ctx, so keep block short). It also returns the id
// to pass as after next time: the last entry read, or after itself when none was.
func (s *Store) ReadAIResults(ctx context.Context, front, after string, count int, block time.Duration) ([]game.AIResult, string, error) {
	if after == "" {
		after = "0"
	}
	block = blockArg(block)
	streams, err := s.rdb.XRead(ctx, &redis.XReadArgs{Streams: []string{s.k.aiReplies(front), after},
		Count: int64(max(count, 1)), Block: block}).Result()
	if errors.Is(err, redis.Nil) {
		return nil, after, nil
	}
	if err != nil {
		return nil, after, wrap("read AI results", err)
	}
	var out []game.AIResult
	for _, st := range streams {
		for _, m := range st.Messages {
			out = append(out, decodeAIResult(m))
			after = m.ID
		}
	}
	return out, after, nil
}

// withGroup runs op, and once more after making the consumer group when op failed because the
// group (or the stream) is missing.
func (s *Store) withGroup(ctx context.Context, op func() error) error {
	err := op()
	if !isNoGroup(err) {
		return err
	}
	err = s.rdb.XGroupCreateMkStream(ctx, s.k.aiJobs(), aiGroup, "0").Err()
	if err != nil && !redis.HasErrorPrefix(err, "BUSYGROUP") {
		return err
	}
	return op()
}

// blockArg turns a wait into go-redis's Block argument: -1 (none) for d <= 0, and at least a
// millisecond otherwise, since BLOCK 0 (what a shorter d would round to) waits forever.
func blockArg(d time.Duration) time.Duration {
	if d <= 0 {
		return -1
	}
	return max(d, time.Millisecond)
}

func isNoGroup(err error) bool { return err != nil && redis.HasErrorPrefix(err, "NOGROUP") }

// isNoKey reports the "no such key" error XINFO gives for a missing stream.
func isNoKey(err error) bool {
	return err != nil && strings.Contains(strings.ToLower(err.Error()), "no such key")
}

// field returns the string value of a stream entry's field.
func field(m redis.XMessage, name string) (string, bool) {
	v, ok := m.Values[name].(string)
	return v, ok
}

// decodeAIJob reads a job entry; anything that is not a complete job of this format is
// reported in Err.
func decodeAIJob(m redis.XMessage) game.AIDelivery {
	d := game.AIDelivery{Entry: m.ID}
	bad := func(what string) game.AIDelivery {
		d.Err = fmt.Errorf("%w: AI job %s: %s", game.ErrInvalid, m.ID, what)
		return d
	}
	if v, _ := field(m, "v"); v != aiFormat {
		return bad("format " + strconv.Quote(v))
	}
	var j game.AIJob
	var ok bool
	if j.ID, ok = field(m, "id"); !ok || j.ID == "" {
		return bad("no id")
	}
	if j.Kind, ok = field(m, "k"); !ok || (j.Kind != game.AIJobMove && j.Kind != game.AIJobHint) {
		return bad("kind " + strconv.Quote(j.Kind))
	}
	if j.Position, ok = field(m, "p"); !ok || j.Position == "" {
		return bad("no position")
	}
	if j.ReplyTo, ok = field(m, "r"); !ok || j.ReplyTo == "" {
		return bad("no front")
	}
	num := func(name string) (int64, bool) {
		v, ok := field(m, name)
		if !ok {
			return 0, false
		}
		n, err := strconv.ParseInt(v, 10, 64)
		return n, err == nil
	}
	n, ok := num("n")
	if !ok || n < minSize || n > maxSize {
		return bad("size")
	}
	j.Size = int(n)
	l, ok := num("l")
	if !ok || l < 0 || l > 100 {
		return bad("level")
	}
	j.Level = int(l)
	ms, ok := num("d")
	if !ok || ms <= 0 {
		return bad("deadline")
	}
	j.Deadline = time.UnixMilli(ms)
	d.Job = j
	return d
}

// decodeAIResult reads a result entry; anything that is not a result of this format is reported
// in Err.
func decodeAIResult(m redis.XMessage) game.AIResult {
	var r game.AIResult
	r.JobID, _ = field(m, "id")
	if v, _ := field(m, "v"); v != aiFormat || r.JobID == "" {
		r.Err = fmt.Errorf("%w: AI result %s: format %q, job %q", game.ErrInvalid, m.ID, v, r.JobID)
		return r
	}
	r.Move, _ = field(m, "m")
	r.Failure, _ = field(m, "e")
	if (r.Move == "") == (r.Failure == "") {
		r.Err = fmt.Errorf("%w: AI result %s: needs a move or a failure", game.ErrInvalid, m.ID)
	}
	return r
}
