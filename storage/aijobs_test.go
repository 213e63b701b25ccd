package storage_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/storage"
	"github.com/reversibot/reversi/storage/storagetest"
)

func testJob(id string) game.AIJob {
	return game.AIJob{ID: id, Kind: game.AIJobMove, Position: "---------------------------OX------XO--------------------------- X",
		Size: 8, Level: 4, ReplyTo: "front1", Deadline: time.UnixMilli(time.Now().Add(time.Minute).UnixMilli())}
}

func pending(t *testing.T, s *storage.Store) int64 {
	t.Helper()
	n, err := s.PendingAIJobs(context.Background())
	if err != nil {
		t.Fatalf("PendingAIJobs: %v", err)
	}
	return n
}

func TestAIJobRoundTrip(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	if n := pending(t, s); n != 0 {
		t.Fatalf("PendingAIJobs before any job = %d, want 0", n)
	}
	// A worker may start before any front: reading makes the group.
	if got, err := s.ReadAIJobs(ctx, "w1", 1, 0); err != nil || len(got) != 0 {
		t.Fatalf("ReadAIJobs on no stream = %v, %v; want nothing", got, err)
	}
	want := testJob("j1")
	hint := testJob("j2")
	hint.Kind, hint.Level = game.AIJobHint, 0
	for _, j := range []game.AIJob{want, hint} {
		if err := s.PostAIJob(ctx, j); err != nil {
			t.Fatalf("PostAIJob(%s): %v", j.ID, err)
		}
	}
	got, err := s.ReadAIJobs(ctx, "w1", 1, time.Second)
	if err != nil || len(got) != 1 {
		t.Fatalf("ReadAIJobs = %v, %v; want one job", got, err)
	}
	if got[0].Err != nil || got[0].Job != want {
		t.Errorf("ReadAIJobs = %+v, want %+v", got[0], want)
	}
	// The second job goes to the next reader, the first to nobody else.
	got2, err := s.ReadAIJobs(ctx, "w2", 10, 0)
	if err != nil || len(got2) != 1 || got2[0].Job != hint {
		t.Fatalf("ReadAIJobs(w2) = %+v, %v; want the hint job", got2, err)
	}
	if more, err := s.ReadAIJobs(ctx, "w3", 10, 0); err != nil || len(more) != 0 {
		t.Errorf("ReadAIJobs(w3) = %+v, %v; want nothing left", more, err)
	}
	if n := pending(t, s); n != 2 {
		t.Errorf("PendingAIJobs = %d, want 2", n)
	}
	for _, d := range []game.AIDelivery{got[0], got2[0], got[0]} { // the last: acked twice
		if err := s.AckAIJob(ctx, d.Entry); err != nil {
			t.Fatalf("AckAIJob: %v", err)
		}
	}
	if n := pending(t, s); n != 0 {
		t.Errorf("PendingAIJobs after acks = %d, want 0", n)
	}
	if n, err := s.Client().XLen(ctx, s.AIJobStream()).Result(); err != nil || n != 0 {
		t.Errorf("XLEN of the job stream after acks = %d, %v; want 0 (acked jobs are deleted)", n, err)
	}
}

func TestPostAIJobRejectsIncompleteJobs(t *testing.T) {
	s := storagetest.New(t)
	for name, edit := range map[string]func(*game.AIJob){
		"no id":       func(j *game.AIJob) { j.ID = "" },
		"no front":    func(j *game.AIJob) { j.ReplyTo = "" },
		"no deadline": func(j *game.AIJob) { j.Deadline = time.Time{} },
		"bad kind":    func(j *game.AIJob) { j.Kind = "solve" },
	} {
		j := testJob("j")
		edit(&j)
		if err := s.PostAIJob(context.Background(), j); !errors.Is(err, game.ErrInvalid) {
			t.Errorf("%s: PostAIJob = %v, want ErrInvalid", name, err)
		}
	}
	if err := s.PostAIResult(context.Background(), "f", game.AIResult{Move: "d3"}); !errors.Is(err, game.ErrInvalid) {
		t.Errorf("PostAIResult without a job id = %v, want ErrInvalid", err)
	}
}

// TestAIJobGarbage: entries that are not jobs come out with Err set, never panic, and can be
// acknowledged like any job.
func TestAIJobGarbage(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	good := map[string]any{"v": "1", "id": "j", "k": "move", "p": "pos", "n": "8", "l": "3", "r": "f", "d": "1700000000000"}
	with := func(k string, v any) map[string]any {
		m := map[string]any{}
		for a, b := range good {
			m[a] = b
		}
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
		return m
	}
	bad := []map[string]any{
		{"x": "y"},
		with("v", "2"), with("v", nil), with("id", ""), with("k", "solve"), with("p", ""),
		with("n", "9x"), with("n", "18"), with("n", "2"), with("l", "-1"), with("l", "many"),
		with("r", nil), with("d", "0"), with("d", "soon"), with("d", "99999999999999999999"),
	}
	for _, v := range bad {
		if err := s.Client().XAdd(ctx, &redis.XAddArgs{Stream: s.AIJobStream(), Values: v}).Err(); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Client().XAdd(ctx, &redis.XAddArgs{Stream: s.AIJobStream(), Values: good}).Err(); err != nil {
		t.Fatal(err)
	}
	got, err := s.ReadAIJobs(ctx, "w", 100, 0)
	if err != nil || len(got) != len(bad)+1 {
		t.Fatalf("ReadAIJobs = %d deliveries, %v; want %d", len(got), err, len(bad)+1)
	}
	for i, d := range got[:len(bad)] {
		if !errors.Is(d.Err, game.ErrInvalid) {
			t.Errorf("entry %v: Err = %v, want ErrInvalid", bad[i], d.Err)
		}
		if err := s.AckAIJob(ctx, d.Entry); err != nil {
			t.Errorf("AckAIJob(garbage): %v", err)
		}
	}
	if last := got[len(bad)]; last.Err != nil || last.Job.Level != 3 || last.Job.Deadline.UnixMilli() != 1700000000000 {
		t.Errorf("well-formed entry = %+v", last)
	}
	if n := pending(t, s); n != 1 {
		t.Errorf("PendingAIJobs = %d, want 1 (the well-formed one)", n)
	}
}

// TestClaimAIJobs: a job read by a worker that never acknowledges it is taken over by another
// once idle long enough, and not before.
func TestClaimAIJobs(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	if err := s.PostAIJob(ctx, testJob("j1")); err != nil {
		t.Fatal(err)
	}
	if got, err := s.ReadAIJobs(ctx, "dead", 1, 0); err != nil || len(got) != 1 {
		t.Fatalf("ReadAIJobs(dead) = %v, %v", got, err)
	}
	if got, next, err := s.ClaimAIJobs(ctx, "live", time.Hour, 10, ""); err != nil || len(got) != 0 || next != "0-0" {
		t.Fatalf("ClaimAIJobs(idle 1h) = %v, %q, %v; want nothing, cursor 0-0", got, next, err)
	}
	var claimed []game.AIDelivery
	for give := time.Now().Add(10 * time.Second); len(claimed) == 0; {
		if time.Now().After(give) {
			t.Fatal("the job was never claimed")
		}
		time.Sleep(2 * time.Millisecond) // Redis counts the job's idle time on its own clock: let it pass 20 ms
		var err error
		if claimed, _, err = s.ClaimAIJobs(ctx, "live", 20*time.Millisecond, 10, "0-0"); err != nil {
			t.Fatal(err)
		}
	}
	if len(claimed) != 1 || claimed[0].Job.ID != "j1" || claimed[0].Err != nil {
		t.Fatalf("ClaimAIJobs = %+v, want job j1", claimed)
	}
	// Claimed again right away: its idle time restarted.
	if again, _, err := s.ClaimAIJobs(ctx, "other", time.Minute, 10, ""); err != nil || len(again) != 0 {
		t.Errorf("ClaimAIJobs right after a claim = %v, %v; want nothing", again, err)
	}
	// The dead worker holds nothing now and can be forgotten; the live one cannot.
	if ok, err := s.RemoveAIWorker(ctx, "live"); err != nil || ok {
		t.Errorf("RemoveAIWorker(live, 1 pending) = %v, %v; want false", ok, err)
	}
	if ok, err := s.RemoveAIWorker(ctx, "dead"); err != nil || !ok {
		t.Errorf("RemoveAIWorker(dead, 0 pending) = %v, %v; want true", ok, err)
	}
	if n := pending(t, s); n != 1 {
		t.Errorf("PendingAIJobs = %d, want 1 (the claimed job survives removals)", n)
	}
	if err := s.AckAIJob(ctx, claimed[0].Entry); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.RemoveAIWorker(ctx, "live"); err != nil || !ok {
		t.Errorf("RemoveAIWorker(live) after the ack = %v, %v; want true", ok, err)
	}
}

func TestPruneAIWorkers(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	if n, err := s.PruneAIWorkers(ctx, 0); err != nil || n != 0 {
		t.Fatalf("PruneAIWorkers on no stream = %d, %v; want 0", n, err)
	}
	for _, id := range []string{"j1", "j2"} {
		if err := s.PostAIJob(ctx, testJob(id)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.ReadAIJobs(ctx, "busy", 1, 0); err != nil {
		t.Fatal(err)
	}
	// The idle worker did its job: nothing is pending on it.
	d, err := s.ReadAIJobs(ctx, "idle", 1, 0)
	if err != nil || len(d) != 1 {
		t.Fatalf("ReadAIJobs(idle) = %v, %v", d, err)
	}
	if err := s.AckAIJob(ctx, d[0].Entry); err != nil {
		t.Fatal(err)
	}
	if n, err := s.PruneAIWorkers(ctx, time.Hour); err != nil || n != 0 {
		t.Errorf("PruneAIWorkers(1h) = %d, %v; want 0 (both just read)", n, err)
	}
	if !storagetest.Real() {
		// miniredis v2.40 does not track when a consumer last read: XINFO CONSUMERS says idle -1.
		t.Skip("embedded Redis (miniredis) reports no consumer idle time in XINFO CONSUMERS; runs with REDIS_URL")
	}
	if n, err := s.PruneAIWorkers(ctx, 0); err != nil || n != 1 {
		t.Errorf("PruneAIWorkers(0) = %d, %v; want 1 (the idle worker, not the busy one)", n, err)
	}
	if n := pending(t, s); n != 1 {
		t.Errorf("PendingAIJobs = %d, want 1", n)
	}
}

// TestAIJobGroupComesBack: a job stream deleted under the workers (a flush, a test clean-up) is
// made again with its group on the next read.
func TestAIJobGroupComesBack(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	if _, err := s.ReadAIJobs(ctx, "w", 1, 0); err != nil {
		t.Fatal(err)
	}
	if err := s.Client().Del(ctx, s.AIJobStream()).Err(); err != nil {
		t.Fatal(err)
	}
	if err := s.PostAIJob(ctx, testJob("j1")); err != nil {
		t.Fatal(err)
	}
	got, err := s.ReadAIJobs(ctx, "w", 1, 0)
	if err != nil || len(got) != 1 || got[0].Job.ID != "j1" {
		t.Fatalf("ReadAIJobs after the stream went = %+v, %v; want job j1", got, err)
	}
	if _, _, err := s.ClaimAIJobs(ctx, "w", time.Minute, 1, ""); err != nil {
		t.Errorf("ClaimAIJobs: %v", err)
	}
}

func TestAIResults(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	if got, after, err := s.ReadAIResults(ctx, "f1", "", 10, 0); err != nil || len(got) != 0 || after != "0" {
		t.Fatalf("ReadAIResults on no stream = %v, %q, %v", got, after, err)
	}
	want := []game.AIResult{{JobID: "a", Move: "d3"}, {JobID: "b", Failure: "bad position"}}
	for _, r := range want {
		if err := s.PostAIResult(ctx, "f1", r); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.PostAIResult(ctx, "f2", game.AIResult{JobID: "c", Move: "e6"}); err != nil {
		t.Fatal(err)
	}
	got, after, err := s.ReadAIResults(ctx, "f1", "", 10, time.Second)
	if err != nil || len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("ReadAIResults(f1) = %+v, %v; want %+v", got, err, want)
	}
	if more, again, err := s.ReadAIResults(ctx, "f1", after, 10, 0); err != nil || len(more) != 0 || again != after {
		t.Errorf("ReadAIResults after the last = %+v, %q, %v; want nothing, %q", more, again, err, after)
	}
	ttl, err := s.Client().PTTL(ctx, s.AIReplyStream("f1")).Result()
	if err != nil || ttl <= 0 || ttl > storage.AIReplyTTL {
		t.Errorf("reply stream TTL = %v, %v; want within (0, %v]", ttl, err, storage.AIReplyTTL)
	}

	// A blocked read returns with the result posted while it waits.
	done := make(chan []game.AIResult, 1)
	go func() {
		r, _, _ := s.ReadAIResults(ctx, "f1", after, 10, 5*time.Second)
		done <- r
	}()
	if err := s.PostAIResult(ctx, "f1", game.AIResult{JobID: "d", Move: "c4"}); err != nil {
		t.Fatal(err)
	}
	if r := <-done; len(r) != 1 || r[0].JobID != "d" {
		t.Errorf("blocked ReadAIResults = %+v, want job d", r)
	}
}

func TestAIResultGarbage(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	for _, v := range []map[string]any{
		{"x": "y"}, {"v": "1"}, {"v": "2", "id": "a", "m": "d3"}, {"v": "1", "id": "a"},
		{"v": "1", "id": "a", "m": "d3", "e": "and failed"},
	} {
		if err := s.Client().XAdd(ctx, &redis.XAddArgs{Stream: s.AIReplyStream("f"), Values: v}).Err(); err != nil {
			t.Fatal(err)
		}
	}
	got, _, err := s.ReadAIResults(ctx, "f", "", 100, 0)
	if err != nil || len(got) != 5 {
		t.Fatalf("ReadAIResults = %d results, %v; want 5", len(got), err)
	}
	for i, r := range got {
		if !errors.Is(r.Err, game.ErrInvalid) {
			t.Errorf("result %d: Err = %v, want ErrInvalid", i, r.Err)
		}
	}
}

// TestAIStreamsAreBounded: a reply stream nobody reads stays near MaxAIResults entries.
func TestAIStreamsAreBounded(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	for i := range storage.MaxAIResults + 500 {
		if err := s.PostAIResult(ctx, "f", game.AIResult{JobID: fmt.Sprint(i), Move: "d3"}); err != nil {
			t.Fatal(err)
		}
	}
	n, err := s.Client().XLen(ctx, s.AIReplyStream("f")).Result()
	// Approximate trimming removes whole nodes of (by default) 100 entries.
	if err != nil || n < storage.MaxAIResults || n > storage.MaxAIResults+200 {
		t.Errorf("XLEN of the reply stream = %d, %v; want about %d", n, err, storage.MaxAIResults)
	}
}

// TestShortBlocksDoNotWaitForever: a wait under a millisecond must not become BLOCK 0, which
// waits forever.
func TestShortBlocksDoNotWaitForever(t *testing.T) {
	s := storagetest.New(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := s.ReadAIJobs(ctx, "w", 1, time.Microsecond); err != nil {
		t.Errorf("ReadAIJobs(block 1µs) = %v", err)
	}
	if _, _, err := s.ReadAIResults(ctx, "f", "", 1, time.Microsecond); err != nil {
		t.Errorf("ReadAIResults(block 1µs) = %v", err)
	}
}
