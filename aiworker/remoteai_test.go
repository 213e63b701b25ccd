package aiworker_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/reversibot/reversi/aiworker"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/game/gametest"
	"github.com/reversibot/reversi/storage/storagetest"
)

var _ game.Mover = (*aiworker.Mover)(nil)

// TestGamesOverTwoWorkers: a front and two workers play whole games, several at once; every
// answer is a legal move, and hints come back too.
func TestGamesOverTwoWorkers(t *testing.T) {
	onBothStreams(t, func(t *testing.T, st game.AIStreams) {
		m := newMover(t, st)
		w1 := startWorker(t, st, aiworker.WorkerOptions{Concurrency: 2})
		w2 := startWorker(t, st, aiworker.WorkerOptions{Concurrency: 2, Searcher: gametest.FirstMover{}})
		ctx := context.Background()

		const games = 6
		var wg sync.WaitGroup
		for g := range games {
			wg.Add(1)
			go func() {
				defer wg.Done()
				size := []int{6, 8}[g%2]
				pos := engine.MustStart(size)
				for !pos.GameOver() {
					if pos.MustPass() {
						pos, _, _ = pos.Play(engine.Pass)
						continue
					}
					sq, err := m.Move(ctx, pos, 1+g%3)
					if err != nil {
						t.Errorf("game %d: Move: %v", g, err)
						return
					}
					if !pos.IsLegal(sq) {
						t.Errorf("game %d: Move(%v) = %v, not legal", g, pos, sq)
						return
					}
					pos, _, _ = pos.Play(sq)
				}
			}()
		}
		wg.Wait()
		pos := engine.MustStart(8)
		if sq, err := m.Hint(ctx, pos); err != nil || !pos.IsLegal(sq) {
			t.Errorf("Hint = %v, %v; want a legal move", sq, err)
		}
		if n := w1.o.count(aiworker.OutcomeOK) + w2.o.count(aiworker.OutcomeOK); n < games*10 {
			t.Errorf("workers answered %d jobs, want at least %d", n, games*10)
		}
		// A worker acknowledges a job just after posting its answer.
		eventually(t, "every job is acknowledged", func() bool { return pendingJobs(t, st) == 0 })
		if s := m.Stats(); s != (aiworker.MoverStats{}) {
			t.Errorf("Stats = %+v, want nothing dropped", s)
		}
	})
}

// TestDeadWorkersJobIsTakenOver: a job read by a worker that then dies (it never answers nor
// acknowledges) is taken over by another worker after ClaimAfter, and the front gets its move.
func TestDeadWorkersJobIsTakenOver(t *testing.T) {
	onBothStreams(t, func(t *testing.T, st game.AIStreams) {
		m := newMover(t, st)
		ctx := context.Background()
		pos := engine.MustStart(8)
		got := make(chan error, 1)
		var sq engine.Square
		go func() {
			var err error
			sq, err = m.Move(ctx, pos, 3)
			got <- err
		}()

		// The dying worker: reads the job and is never heard of again.
		var d []game.AIDelivery
		eventually(t, "the job is posted and read", func() bool {
			var err error
			d, err = st.ReadAIJobs(ctx, "ghost", 1, quick)
			if err != nil {
				t.Fatal(err)
			}
			return len(d) == 1
		})
		if n := pendingJobs(t, st); n != 1 {
			t.Fatalf("PendingAIJobs = %d, want 1", n)
		}
		w := startWorker(t, st, aiworker.WorkerOptions{ClaimAfter: 200 * time.Millisecond, Searcher: gametest.FirstMover{}})
		select {
		case err := <-got:
			if err != nil || sq != pos.Moves().First() {
				t.Fatalf("Move = %v, %v; want %v from the second worker", sq, err, pos.Moves().First())
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the job was never taken over")
		}
		eventually(t, "the job is acknowledged", func() bool { return w.o.count(aiworker.OutcomeOK) == 1 })
		if n := pendingJobs(t, st); n != 0 {
			t.Errorf("PendingAIJobs = %d after the answer, want 0", n)
		}
	})
}

// TestStoppedWorkerLeavesItsJob: a worker stopped mid-search (Drain 0) neither answers nor
// acknowledges; its job stays pending and another worker answers it after ClaimAfter.
func TestStoppedWorkerLeavesItsJob(t *testing.T) {
	onBothStreams(t, func(t *testing.T, st game.AIStreams) {
		m := newMover(t, st)
		b := newBlocking()
		w1 := startWorker(t, st, aiworker.WorkerOptions{Name: "w1", Searcher: b, Concurrency: 1})
		pos := engine.MustStart(8)
		got := moveInBackground(context.Background(), m, pos, 6)
		<-b.started
		w1.stop(t)
		if n := w1.o.count(aiworker.OutcomeAbandoned); n != 1 {
			t.Errorf("stopped worker reports %d abandoned jobs, want 1", n)
		}
		if n := pendingJobs(t, st); n != 1 {
			t.Fatalf("PendingAIJobs after the stop = %d, want 1 (left for another worker)", n)
		}
		startWorker(t, st, aiworker.WorkerOptions{ClaimAfter: 100 * time.Millisecond, Searcher: gametest.FirstMover{}})
		select {
		case err := <-got:
			if err != nil {
				t.Fatalf("Move = %v, want the other worker's move", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the job was never taken over")
		}
	})
}

// TestDrainFinishesSearches: a worker stopped with Drain lets its search finish and posts it.
func TestDrainFinishesSearches(t *testing.T) {
	onBothStreams(t, func(t *testing.T, st game.AIStreams) {
		m := newMover(t, st)
		b := newBlocking()
		w := startWorker(t, st, aiworker.WorkerOptions{Searcher: b, Drain: time.Minute})
		pos := engine.MustStart(8)
		got := moveInBackground(context.Background(), m, pos, 6)
		<-b.started
		w.cancel()
		close(b.release)
		if err := <-got; err != nil {
			t.Fatalf("Move = %v, want the drained search's move", err)
		}
		w.stop(t)
		if n := pendingJobs(t, st); n != 0 {
			t.Errorf("PendingAIJobs = %d, want 0", n)
		}
	})
}

// TestLateResultIsDropped: a caller that gives up returns its ctx's error at once, and the
// answer that comes later is dropped, as is one for a job the front never asked.
func TestLateResultIsDropped(t *testing.T) {
	onBothStreams(t, func(t *testing.T, st game.AIStreams) {
		m := newMover(t, st)
		b := newBlocking()
		startWorker(t, st, aiworker.WorkerOptions{Searcher: b})
		ctx, cancel := context.WithCancel(context.Background())
		got := moveInBackground(ctx, m, engine.MustStart(8), 2)
		<-b.started
		cancel()
		if err := <-got; !errors.Is(err, context.Canceled) {
			t.Fatalf("Move after cancel = %v, want context.Canceled", err)
		}
		close(b.release)
		eventually(t, "the late result is dropped", func() bool { return m.Stats().Dropped == 1 })

		if err := st.PostAIResult(context.Background(), m.Front(), game.AIResult{JobID: "nobody", Move: "d3"}); err != nil {
			t.Fatal(err)
		}
		eventually(t, "the unknown result is dropped", func() bool { return m.Stats().Dropped == 2 })
		// The front still works.
		if sq, err := m.Move(context.Background(), engine.MustStart(8), 2); err != nil || !engine.MustStart(8).IsLegal(sq) {
			t.Errorf("Move after drops = %v, %v", sq, err)
		}
	})
}

// TestDeadlines: without a ctx deadline the Mover waits its own Deadline; with one, the job
// carries it and the wait ends with ctx's error. A job read after its deadline is dropped
// unsearched.
func TestDeadlines(t *testing.T) {
	onBothStreams(t, func(t *testing.T, st game.AIStreams) {
		m := aiworker.NewMover(st, aiworker.MoverOptions{Block: quick, Deadline: 100 * time.Millisecond})
		defer m.Close()
		pos := engine.MustStart(8)
		if _, err := m.Move(context.Background(), pos, 1); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Move with no worker = %v, want DeadlineExceeded", err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		if _, err := m.Move(ctx, pos, 1); err != ctx.Err() || err == nil {
			t.Errorf("Move with no worker = %v, want ctx's error %v", err, ctx.Err())
		}
		// Both jobs are past their deadlines now: a worker drops them.
		w := startWorker(t, st, aiworker.WorkerOptions{Searcher: panicking{}})
		eventually(t, "expired jobs are dropped", func() bool { return w.o.count(aiworker.OutcomeExpired) == 2 })
		if n := pendingJobs(t, st); n != 0 {
			t.Errorf("PendingAIJobs = %d, want 0", n)
		}
		if rs, _, err := st.ReadAIResults(context.Background(), m.Front(), "", 10, 0); err != nil || len(rs) != 0 {
			t.Errorf("results for expired jobs = %+v, %v; want none", rs, err)
		}
	})
}

// TestGarbage: malformed jobs and results never panic: jobs are acknowledged and dropped,
// results dropped (a caller whose job id one carries fails at once), and both are logged.
func TestGarbage(t *testing.T) {
	ctx := context.Background()
	st := storagetest.New(t)
	m := newMover(t, st)
	w := startWorker(t, st, aiworker.WorkerOptions{Searcher: gametest.FirstMover{}})

	for _, v := range []map[string]any{{"junk": "x"}, {"v": "1", "id": "j", "k": "move", "p": "???", "n": "8"}} {
		if err := st.Client().XAdd(ctx, &redis.XAddArgs{Stream: st.AIJobStream(), Values: v}).Err(); err != nil {
			t.Fatal(err)
		}
	}
	eventually(t, "malformed jobs are dropped", func() bool { return w.o.count(aiworker.OutcomeMalformed) == 2 })

	// Well-formed jobs the worker cannot search get a failure back.
	deadline := time.Now().Add(time.Minute)
	bad := []game.AIJob{
		{ID: "p", Kind: game.AIJobMove, Position: "not a board", Size: 8, Level: 1, ReplyTo: "f", Deadline: deadline},
		{ID: "s", Kind: game.AIJobMove, Position: engine.MustStart(6).String(), Size: 8, Level: 1, ReplyTo: "f", Deadline: deadline},
		{ID: "l", Kind: game.AIJobMove, Position: engine.MustStart(8).String(), Size: 8, Level: 9, ReplyTo: "f", Deadline: deadline},
		{ID: "n", Kind: game.AIJobHint, Position: "XXXXXXXXXXXXXXXX O", Size: 4, ReplyTo: "f", Deadline: deadline},
	}
	for _, j := range bad {
		if err := st.PostAIJob(ctx, j); err != nil {
			t.Fatal(err)
		}
	}
	var rs []game.AIResult
	eventually(t, "failures are posted", func() bool {
		rs, _, _ = st.ReadAIResults(ctx, "f", "", 10, 0)
		return len(rs) == len(bad)
	})
	for _, r := range rs {
		if r.Failure == "" || r.Move != "" || r.Err != nil {
			t.Errorf("result for a job that cannot be searched = %+v, want a failure", r)
		}
	}
	eventually(t, "the worker reports the failures", func() bool { return w.o.count(aiworker.OutcomeFailed) == len(bad) })
	if n := pendingJobs(t, st); n != 0 {
		t.Errorf("PendingAIJobs = %d, want 0", n)
	}

	// Garbage on the front's reply stream.
	for _, v := range []map[string]any{{"junk": "x"}, {"v": "1", "id": "nobody"}} {
		if err := st.Client().XAdd(ctx, &redis.XAddArgs{Stream: st.AIReplyStream(m.Front()), Values: v}).Err(); err != nil {
			t.Fatal(err)
		}
	}
	eventually(t, "malformed results are dropped", func() bool { return m.Stats().Malformed == 2 })
	if sq, err := m.Move(ctx, engine.MustStart(8), 1); err != nil || sq != engine.MustStart(8).Moves().First() {
		t.Errorf("Move after garbage = %v, %v", sq, err)
	}
}

// TestWorkerFailures: a searcher that panics or answers an illegal move makes the caller fail
// with ErrFailed instead of waiting; the worker survives.
func TestWorkerFailures(t *testing.T) {
	onBothStreams(t, func(t *testing.T, st game.AIStreams) {
		m := newMover(t, st)
		w := startWorker(t, st, aiworker.WorkerOptions{Searcher: panicking{}})
		if _, err := m.Move(context.Background(), engine.MustStart(8), 1); !errors.Is(err, aiworker.ErrFailed) {
			t.Errorf("Move from a panicking searcher = %v, want ErrFailed", err)
		}
		if _, err := m.Hint(context.Background(), engine.MustStart(8)); !errors.Is(err, aiworker.ErrFailed) {
			t.Errorf("Hint from a panicking searcher = %v, want ErrFailed", err)
		}
		eventually(t, "the worker reports both failures", func() bool { return w.o.count(aiworker.OutcomeFailed) == 2 })
	})
}

func TestClosedMover(t *testing.T) {
	st := storagetest.New(t)
	m := aiworker.NewMover(st, aiworker.MoverOptions{Block: quick})
	got := moveInBackground(context.Background(), m, engine.MustStart(8), 1)
	eventually(t, "the job is posted", func() bool {
		n, _ := st.Client().XLen(context.Background(), st.AIJobStream()).Result()
		return n == 1
	})
	m.Close()
	if err := <-got; !errors.Is(err, aiworker.ErrClosed) {
		t.Errorf("Move during Close = %v, want ErrClosed", err)
	}
	if _, err := m.Move(context.Background(), engine.MustStart(8), 1); !errors.Is(err, aiworker.ErrClosed) {
		t.Errorf("Move after Close = %v, want ErrClosed", err)
	}
	m.Close() // idempotent
}
