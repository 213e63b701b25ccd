// Package aiworker runs the bot's AI searches in worker processes apart from the fronts that
// talk to Telegram, over the AI streams of game.AIStreams (package storage keeps them in Redis),
// so that the CPU for the AI scales on its own.
//
// A front uses a Mover as its game.Mover: each search becomes a job on the shared job stream,
// and the Mover waits for the answer on the front's own reply stream. A user (as game.WithUser
// marks a search's context) has one job of a front in the stream at a time, so the workers'
// first-come order is fair between users. A Worker takes jobs
// through a consumer group, a few at a time, searches them with package engine/ai and posts the
// results back. A job whose worker dies before answering is taken over by another worker once
// it has waited ClaimAfter; a job read after its deadline is dropped unsearched. A result
// nobody waits for any more (its caller gave up, or a second worker answered it too) is dropped.
//
// A result that comes late is harmless to a game: game.Service applies the AI's move with a
// compare-and-set on the game's version, so a move for a position the game has left (the player
// undid, resigned, or another process moved first) is never applied.
package aiworker

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
)

// Sentinel errors; test for them with errors.Is.
var (
	// ErrClosed: the Mover was closed before the answer came.
	ErrClosed = errors.New("aiworker: closed")
	// ErrFailed: the worker could not search the job (a position it could not read, a level
	// out of range), or its answer could not be read.
	ErrFailed = errors.New("aiworker: the worker could not search")
)

// Defaults used for the zero values in MoverOptions and WorkerOptions.
const (
	// DefaultDeadline is how long a Move or Hint whose ctx has no deadline waits for its answer
	// (and how long the job stays worth searching).
	DefaultDeadline = 30 * time.Second
	// DefaultBlock is how long one read of a stream waits for an entry. Close and Run return
	// at most this long after they are asked to stop.
	DefaultBlock = time.Second
)

// MoverOptions tune a Mover. The zero value is ready to use.
type MoverOptions struct {
	// Front names the front's reply stream; it must be unique among the fronts sharing the
	// store. "" means a random name.
	Front string
	// Deadline bounds the wait for a search whose ctx has no deadline; 0 means DefaultDeadline.
	Deadline time.Duration
	// Block is how long one read of the reply stream waits; 0 means DefaultBlock.
	Block time.Duration
	// Logger gets malformed results and read failures; nil discards.
	Logger *slog.Logger
}

// Mover is the front's side: a game.Mover whose searches run on the workers. It is safe for
// concurrent use; Close stops it.
type Mover struct {
	st       game.AIFrontStreams
	front    string
	deadline time.Duration
	block    time.Duration
	log      *slog.Logger

	seq       atomic.Uint64
	dropped   atomic.Uint64
	malformed atomic.Uint64

	mu      sync.Mutex
	waiting map[string]chan game.AIResult
	turns   map[int64]*turn // users with a job in the stream, or waiting to post one
	held    atomic.Int64

	stop chan struct{}
	done chan struct{}
	once sync.Once
}

// NewMover returns a Mover posting jobs to st's job stream and reading its answers from its
// own reply stream, which it starts reading at once.
func NewMover(st game.AIFrontStreams, o MoverOptions) *Mover {
	m := &Mover{st: st, front: o.Front, deadline: o.Deadline, block: o.Block, log: o.Logger,
		waiting: make(map[string]chan game.AIResult), turns: make(map[int64]*turn),
		stop: make(chan struct{}), done: make(chan struct{})}
	if m.front == "" {
		m.front = randomName()
	}
	if m.deadline <= 0 {
		m.deadline = DefaultDeadline
	}
	if m.block <= 0 {
		m.block = DefaultBlock
	}
	if m.log == nil {
		m.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	go m.read()
	return m
}

// Front returns the name of the front's reply stream.
func (m *Mover) Front() string { return m.front }

// Move asks a worker for the move of the AI of the given level in pos. It returns when the
// answer comes; with ctx's error when ctx ends first; with an error wrapping
// context.DeadlineExceeded when ctx has no deadline and none came within the Mover's Deadline;
// with ErrFailed when the worker could not search; with ErrClosed after Close. While the user
// ctx names (game.WithUser) has a job of this Mover in the stream, Move waits for it to be
// answered (or given up) before posting its own.
func (m *Mover) Move(ctx context.Context, pos engine.Position, level int) (engine.Square, error) {
	return m.ask(ctx, game.AIJobMove, pos, level)
}

// Hint asks a worker for a hint in pos, as Move does.
func (m *Mover) Hint(ctx context.Context, pos engine.Position) (engine.Square, error) {
	return m.ask(ctx, game.AIJobHint, pos, 0)
}

func (m *Mover) ask(ctx context.Context, kind string, pos engine.Position, level int) (engine.Square, error) {
	select {
	case <-m.stop:
		return engine.Pass, ErrClosed
	default:
	}
	if !engine.ValidSize(pos.Size()) {
		return engine.Pass, fmt.Errorf("aiworker: %w", engine.ErrSize)
	}
	done, err := m.take(ctx, game.UserOf(ctx))
	if err != nil {
		return engine.Pass, err
	}
	defer done()
	// The job's deadline is the caller's: past it nobody waits. Without one the Mover waits
	// its Deadline, on a timer of its own; with one, only ctx ends the wait, so the caller sees
	// its own ctx's error and not a timeout of ours racing it.
	deadline, hasDeadline := ctx.Deadline()
	var timeout <-chan time.Time
	if !hasDeadline {
		deadline = time.Now().Add(m.deadline)
		t := time.NewTimer(m.deadline)
		defer t.Stop()
		timeout = t.C
	}
	id := m.front + "." + strconv.FormatUint(m.seq.Add(1), 36)
	ch := make(chan game.AIResult, 1)
	m.mu.Lock()
	m.waiting[id] = ch
	m.mu.Unlock()
	defer func() {
		m.mu.Lock()
		delete(m.waiting, id)
		m.mu.Unlock()
	}()
	err = m.st.PostAIJob(ctx, game.AIJob{ID: id, Kind: kind, Position: pos.String(), Size: pos.Size(),
		Level: level, ReplyTo: m.front, Deadline: deadline})
	if err != nil {
		return engine.Pass, fmt.Errorf("aiworker: %w", err)
	}
	select {
	case r := <-ch:
		if r.Failure != "" {
			return engine.Pass, fmt.Errorf("%w: %s", ErrFailed, r.Failure)
		}
		sq, err := engine.ParseSquare(r.Move)
		if err != nil {
			return engine.Pass, fmt.Errorf("%w: answer %q: %v", ErrFailed, r.Move, err)
		}
		return sq, nil
	case <-ctx.Done():
		return engine.Pass, ctx.Err()
	case <-timeout:
		return engine.Pass, fmt.Errorf("aiworker: no answer within %v: %w", m.deadline, context.DeadlineExceeded)
	case <-m.stop:
		return engine.Pass, ErrClosed
	}
}

// turn is a user's right to a job in the stream: token holds a value while one of the user's
// jobs is there.
type turn struct {
	token chan struct{}
	refs  int // calls holding or waiting for it (under Mover.mu)
}

// take waits until the user has no job of this Mover in the stream (at once for user 0, no
// user) and returns the function that gives the turn back; ctx's error when ctx ends first,
// ErrClosed on Close.
func (m *Mover) take(ctx context.Context, user int64) (done func(), err error) {
	if user == 0 {
		return func() {}, nil
	}
	m.mu.Lock()
	t := m.turns[user]
	if t == nil {
		t = &turn{token: make(chan struct{}, 1)}
		m.turns[user] = t
	}
	t.refs++
	m.mu.Unlock()
	leave := func() {
		m.mu.Lock()
		if t.refs--; t.refs == 0 {
			delete(m.turns, user)
		}
		m.mu.Unlock()
	}
	select {
	case t.token <- struct{}{}:
	default:
		m.held.Add(1)
		select {
		case t.token <- struct{}{}:
		case <-ctx.Done():
			err = ctx.Err()
		case <-m.stop:
			err = ErrClosed
		}
		m.held.Add(-1)
		if err != nil {
			leave()
			return nil, err
		}
	}
	return func() { <-t.token; leave() }, nil
}

// MoverStats counts the results a Mover could not hand to a caller, and the calls it holds.
type MoverStats struct {
	// Dropped counts results for jobs nobody waited for any more.
	Dropped uint64
	// Malformed counts entries of the reply stream that were not results.
	Malformed uint64
	// Held is the number of calls waiting now for their user's job in the stream to be
	// answered before they post their own.
	Held int
}

// Stats returns the Mover's counts so far.
func (m *Mover) Stats() MoverStats {
	return MoverStats{Dropped: m.dropped.Load(), Malformed: m.malformed.Load(), Held: int(m.held.Load())}
}

// Close stops the Mover: calls waiting for an answer return ErrClosed, and the reading of the
// reply stream ends (Close returns when it has, within about Block). Close is idempotent.
func (m *Mover) Close() error {
	m.once.Do(func() { close(m.stop) })
	<-m.done
	return nil
}

// read hands the results on the reply stream to the calls waiting for them, until Close.
func (m *Mover) read() {
	defer close(m.done)
	after := "0" // the stream is the front's own: everything on it is for this Mover
	var pause time.Duration
	for {
		select {
		case <-m.stop:
			return
		default:
		}
		rs, next, err := m.st.ReadAIResults(context.Background(), m.front, after, 100, m.block)
		if err != nil {
			pause = backoff(pause)
			m.log.Warn("remote AI: reading results failed; retrying", "front", m.front, "err", err, "retry_in", pause)
			if !wait(m.stop, pause) {
				return
			}
			continue
		}
		pause, after = 0, next
		for _, r := range rs {
			m.deliver(r)
		}
	}
}

// deliver hands r to the call waiting for it, if any.
func (m *Mover) deliver(r game.AIResult) {
	if r.Err != nil {
		m.malformed.Add(1)
		m.log.Warn("remote AI: malformed result dropped", "front", m.front, "err", r.Err)
		if r.JobID == "" {
			return
		}
		// Its caller need not wait for its deadline: the answer will not get any better.
		r = game.AIResult{JobID: r.JobID, Failure: r.Err.Error()}
	}
	m.mu.Lock()
	ch, ok := m.waiting[r.JobID]
	m.mu.Unlock()
	if ok {
		select {
		case ch <- r:
			return
		default: // answered already (two workers searched it)
		}
	}
	m.dropped.Add(1)
	m.log.Debug("remote AI: result nobody waits for dropped", "front", m.front, "job", r.JobID)
}

// backoff returns the next pause after a failure: 100 ms, doubling up to 2 s.
func backoff(d time.Duration) time.Duration {
	if d <= 0 {
		return 100 * time.Millisecond
	}
	return min(2*d, 2*time.Second)
}

// wait waits d or until stop is closed, and reports whether d passed.
func wait(stop <-chan struct{}, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-stop:
		return false
	}
}

func randomName() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
