package aiworker_test

import (
	"context"
	"testing"
	"time"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/storage"
	"github.com/reversibot/reversi/storage/storagetest"
)

// probe reads the job stream as a worker would, collecting the jobs by level.
type probe struct {
	t     *testing.T
	st    *storage.Store
	jobs  []game.AIJob
	taken map[string]bool // jobs until returned
}

// until reads jobs until one of level that it has not returned yet shows up, and returns it.
func (p *probe) until(level int) game.AIJob {
	p.t.Helper()
	deadline := time.Now().Add(10 * time.Second) // a failing guard
	for time.Now().Before(deadline) {
		ds, err := p.st.ReadAIJobs(context.Background(), "probe", 10, quick)
		if err != nil {
			p.t.Fatalf("ReadAIJobs: %v", err)
		}
		for _, d := range ds {
			p.jobs = append(p.jobs, d.Job)
		}
		for _, j := range p.jobs {
			if j.Level == level && !p.taken[j.ID] {
				p.taken[j.ID] = true
				return j
			}
		}
	}
	p.t.Fatalf("no job of level %d came; jobs %+v", level, p.jobs)
	return game.AIJob{}
}

// count returns how many jobs of level were read.
func (p *probe) count(level int) int {
	n := 0
	for _, j := range p.jobs {
		if j.Level == level {
			n++
		}
	}
	return n
}

// A user's searches go to the job stream one at a time, so that the workers, first come
// first served, serve users in turn: user A's second search waits for the answer to A's
// first, while user B's goes at once.
func TestOneJobPerUserInTheStream(t *testing.T) {
	st := storagetest.New(t)
	m := newMover(t, st)
	pos := engine.MustStart(8)
	const levelA, levelB = 1, 2 // tell the users' jobs apart
	userA := game.WithUser(context.Background(), 1)
	userB := game.WithUser(context.Background(), 2)
	errs := make(chan error, 3)
	ask := func(ctx context.Context, level int) {
		go func() { _, err := m.Move(ctx, pos, level); errs <- err }()
	}
	answer := func(j game.AIJob) {
		t.Helper()
		if err := st.PostAIResult(context.Background(), j.ReplyTo, game.AIResult{JobID: j.ID, Move: "d3"}); err != nil {
			t.Fatal(err)
		}
	}
	p := &probe{t: t, st: st, taken: map[string]bool{}}

	ask(userA, levelA)
	a1 := p.until(levelA)
	ask(userA, levelA)
	eventually(t, "A's second search is held", func() bool { return m.Stats().Held == 1 })
	ask(userB, levelB)
	b1 := p.until(levelB)
	if n := p.count(levelA); n != 1 {
		t.Fatalf("%d of A's jobs in the stream while A's first waits for its answer, want 1", n)
	}
	answer(a1)
	if err := <-errs; err != nil {
		t.Fatalf("A's first Move: %v", err)
	}
	a2 := p.until(levelA) // now A's second goes
	answer(b1)
	answer(a2)
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatalf("Move: %v", err)
		}
	}
	if s := m.Stats(); s.Held != 0 {
		t.Fatalf("Stats = %+v after every search was answered", s)
	}
}

// With AI_MODE=remote, two bot processes on one Redis post one job for a position however
// many requests for it they get while it is searched.
func TestOneJobPerPositionAcrossFronts(t *testing.T) {
	ctx := context.Background()
	st := storagetest.New(t)
	one := game.New(game.Config{Store: st, Mover: newMover(t, st)})
	defer one.Close()
	two := game.New(game.Config{Store: st, Mover: newMover(t, st)})
	defer two.Close()
	r, err := one.NewAIGame(ctx, game.Player{UserID: 7, Name: "Ann"}, 100, 8, 3, game.ChooseWhite)
	if err != nil {
		t.Fatal(err)
	}
	id := r.Game.ID
	done := make(chan error, 1)
	go func() { _, err := one.AIReply(ctx, id); done <- err }()
	p := &probe{t: t, st: st, taken: map[string]bool{}}
	job := p.until(3)
	for _, svc := range []*game.Service{one, two, one, two, two} {
		if r, err := svc.AIReply(ctx, id); err != nil || !r.Thinking {
			t.Fatalf("AIReply while the job is out = %+v, %v; want Thinking", r, err)
		}
	}
	if n, err := st.Client().XLen(ctx, st.AIJobStream()).Result(); err != nil || n != 1 {
		t.Fatalf("%d jobs in the stream (%v), want 1", n, err)
	}
	if err := st.PostAIResult(ctx, job.ReplyTo, game.AIResult{JobID: job.ID, Move: "d3"}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("AIReply: %v", err)
	}
}
