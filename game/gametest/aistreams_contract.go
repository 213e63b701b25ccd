package gametest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/reversibot/reversi/game"
)

// TestAIStreams checks that the streams newStreams makes keep the contract of game.AIStreams:
// jobs go to one worker each, in order, and stay pending until acknowledged; a job whose
// worker went silent is claimed by another once idle long enough, and not before; a worker
// with pending jobs is never forgotten; results reach their front's stream only, in order,
// also while a read waits; incomplete jobs and results are refused, and short waits do not
// wait forever. idleTimes says whether the streams know how long a worker has been idle
// (Redis does; the embedded one does not): PruneAIWorkers is checked in full only then.
func TestAIStreams(t *testing.T, newStreams func(t *testing.T) game.AIStreams, idleTimes bool) {
	t.Helper()
	t.Run("RoundTrip", func(t *testing.T) { testAIJobRoundTrip(t, newStreams(t)) })
	t.Run("RejectsIncomplete", func(t *testing.T) { testAIRejectsIncomplete(t, newStreams(t)) })
	t.Run("Claim", func(t *testing.T) { testClaimAIJobs(t, newStreams(t)) })
	t.Run("Prune", func(t *testing.T) { testPruneAIWorkers(t, newStreams(t), idleTimes) })
	t.Run("Results", func(t *testing.T) { testAIStreamResults(t, newStreams(t)) })
	t.Run("ShortBlocks", func(t *testing.T) { testShortBlocks(t, newStreams(t)) })
}

// AIJob returns a well-formed job of the move kind, named id, replying to front "front1".
func AIJob(id string) game.AIJob {
	return game.AIJob{ID: id, Kind: game.AIJobMove, Position: "---------------------------OX------XO--------------------------- X",
		Size: 8, Level: 4, ReplyTo: "front1", Deadline: time.UnixMilli(time.Now().Add(time.Minute).UnixMilli())}
}

func pendingAIJobs(t *testing.T, s game.AIStreams) int64 {
	t.Helper()
	n, err := s.PendingAIJobs(bg)
	if err != nil {
		t.Fatalf("PendingAIJobs: %v", err)
	}
	return n
}

func testAIJobRoundTrip(t *testing.T, s game.AIStreams) {
	if n := pendingAIJobs(t, s); n != 0 {
		t.Fatalf("PendingAIJobs before any job = %d, want 0", n)
	}
	// A worker may start before any front.
	if got, err := s.ReadAIJobs(bg, "w1", 1, 0); err != nil || len(got) != 0 {
		t.Fatalf("ReadAIJobs on no stream = %v, %v; want nothing", got, err)
	}
	want := AIJob("j1")
	hint := AIJob("j2")
	hint.Kind, hint.Level = game.AIJobHint, 0
	for _, j := range []game.AIJob{want, hint} {
		if err := s.PostAIJob(bg, j); err != nil {
			t.Fatalf("PostAIJob(%s): %v", j.ID, err)
		}
	}
	got, err := s.ReadAIJobs(bg, "w1", 1, time.Second)
	if err != nil || len(got) != 1 {
		t.Fatalf("ReadAIJobs = %v, %v; want one job", got, err)
	}
	if got[0].Err != nil || got[0].Job != want {
		t.Errorf("ReadAIJobs = %+v, want %+v", got[0], want)
	}
	// The second job goes to the next reader, the first to nobody else.
	got2, err := s.ReadAIJobs(bg, "w2", 10, 0)
	if err != nil || len(got2) != 1 || got2[0].Job != hint {
		t.Fatalf("ReadAIJobs(w2) = %+v, %v; want the hint job", got2, err)
	}
	if more, err := s.ReadAIJobs(bg, "w3", 10, 0); err != nil || len(more) != 0 {
		t.Errorf("ReadAIJobs(w3) = %+v, %v; want nothing left", more, err)
	}
	if n := pendingAIJobs(t, s); n != 2 {
		t.Errorf("PendingAIJobs = %d, want 2", n)
	}
	for _, d := range []game.AIDelivery{got[0], got2[0], got[0]} { // the last: acked twice
		if err := s.AckAIJob(bg, d.Entry); err != nil {
			t.Fatalf("AckAIJob: %v", err)
		}
	}
	if n := pendingAIJobs(t, s); n != 0 {
		t.Errorf("PendingAIJobs after acks = %d, want 0", n)
	}
	if got, _, err := s.ClaimAIJobs(bg, "w4", 0, 10, ""); err != nil || len(got) != 0 {
		t.Errorf("ClaimAIJobs after the acks = %+v, %v; want nothing (acknowledged jobs are gone)", got, err)
	}
}

func testAIRejectsIncomplete(t *testing.T, s game.AIStreams) {
	for name, edit := range map[string]func(*game.AIJob){
		"no id":       func(j *game.AIJob) { j.ID = "" },
		"no front":    func(j *game.AIJob) { j.ReplyTo = "" },
		"no deadline": func(j *game.AIJob) { j.Deadline = time.Time{} },
		"bad kind":    func(j *game.AIJob) { j.Kind = "solve" },
	} {
		j := AIJob("j")
		edit(&j)
		if err := s.PostAIJob(bg, j); !errors.Is(err, game.ErrInvalid) {
			t.Errorf("%s: PostAIJob = %v, want ErrInvalid", name, err)
		}
	}
	if err := s.PostAIResult(bg, "f", game.AIResult{Move: "d3"}); !errors.Is(err, game.ErrInvalid) {
		t.Errorf("PostAIResult without a job id = %v, want ErrInvalid", err)
	}
	if err := s.PostAIResult(bg, "", game.AIResult{JobID: "a", Move: "d3"}); !errors.Is(err, game.ErrInvalid) {
		t.Errorf("PostAIResult without a front = %v, want ErrInvalid", err)
	}
}

// testClaimAIJobs: a job read by a worker that never acknowledges it is taken over by another
// once idle long enough, and not before.
func testClaimAIJobs(t *testing.T, s game.AIStreams) {
	if err := s.PostAIJob(bg, AIJob("j1")); err != nil {
		t.Fatal(err)
	}
	if got, err := s.ReadAIJobs(bg, "dead", 1, 0); err != nil || len(got) != 1 {
		t.Fatalf("ReadAIJobs(dead) = %v, %v", got, err)
	}
	if got, next, err := s.ClaimAIJobs(bg, "live", time.Hour, 10, ""); err != nil || len(got) != 0 || next != "0-0" {
		t.Fatalf("ClaimAIJobs(idle 1h) = %v, %q, %v; want nothing, cursor 0-0", got, next, err)
	}
	var claimed []game.AIDelivery
	for give := time.Now().Add(10 * time.Second); len(claimed) == 0; {
		if time.Now().After(give) {
			t.Fatal("the job was never claimed")
		}
		time.Sleep(2 * time.Millisecond) // the store counts idle time on its own clock: let it pass 20 ms
		var err error
		if claimed, _, err = s.ClaimAIJobs(bg, "live", 20*time.Millisecond, 10, "0-0"); err != nil {
			t.Fatal(err)
		}
	}
	if len(claimed) != 1 || claimed[0].Job.ID != "j1" || claimed[0].Err != nil {
		t.Fatalf("ClaimAIJobs = %+v, want job j1", claimed)
	}
	// Claimed again right away: its idle time restarted.
	if again, _, err := s.ClaimAIJobs(bg, "other", time.Minute, 10, ""); err != nil || len(again) != 0 {
		t.Errorf("ClaimAIJobs right after a claim = %v, %v; want nothing", again, err)
	}
	// The dead worker holds nothing now and can be forgotten; the live one cannot.
	if ok, err := s.RemoveAIWorker(bg, "live"); err != nil || ok {
		t.Errorf("RemoveAIWorker(live, 1 pending) = %v, %v; want false", ok, err)
	}
	if ok, err := s.RemoveAIWorker(bg, "dead"); err != nil || !ok {
		t.Errorf("RemoveAIWorker(dead, 0 pending) = %v, %v; want true", ok, err)
	}
	if n := pendingAIJobs(t, s); n != 1 {
		t.Errorf("PendingAIJobs = %d, want 1 (the claimed job survives removals)", n)
	}
	if err := s.AckAIJob(bg, claimed[0].Entry); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.RemoveAIWorker(bg, "live"); err != nil || !ok {
		t.Errorf("RemoveAIWorker(live) after the ack = %v, %v; want true", ok, err)
	}
}

func testPruneAIWorkers(t *testing.T, s game.AIStreams, idleTimes bool) {
	if n, err := s.PruneAIWorkers(bg, 0); err != nil || n != 0 {
		t.Fatalf("PruneAIWorkers on no stream = %d, %v; want 0", n, err)
	}
	for _, id := range []string{"j1", "j2"} {
		if err := s.PostAIJob(bg, AIJob(id)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.ReadAIJobs(bg, "busy", 1, 0); err != nil {
		t.Fatal(err)
	}
	// The idle worker did its job: nothing is pending on it.
	d, err := s.ReadAIJobs(bg, "idle", 1, 0)
	if err != nil || len(d) != 1 {
		t.Fatalf("ReadAIJobs(idle) = %v, %v", d, err)
	}
	if err := s.AckAIJob(bg, d[0].Entry); err != nil {
		t.Fatal(err)
	}
	if n, err := s.PruneAIWorkers(bg, time.Hour); err != nil || n != 0 {
		t.Errorf("PruneAIWorkers(1h) = %d, %v; want 0 (both just read)", n, err)
	}
	if !idleTimes {
		t.Skip("these streams report no worker's idle time; runs on those that do")
	}
	if n, err := s.PruneAIWorkers(bg, 0); err != nil || n != 1 {
		t.Errorf("PruneAIWorkers(0) = %d, %v; want 1 (the idle worker, not the busy one)", n, err)
	}
	if n := pendingAIJobs(t, s); n != 1 {
		t.Errorf("PendingAIJobs = %d, want 1", n)
	}
}

func testAIStreamResults(t *testing.T, s game.AIStreams) {
	if got, after, err := s.ReadAIResults(bg, "f1", "", 10, 0); err != nil || len(got) != 0 || after != "0" {
		t.Fatalf("ReadAIResults on no stream = %v, %q, %v", got, after, err)
	}
	want := []game.AIResult{{JobID: "a", Move: "d3"}, {JobID: "b", Failure: "bad position"}}
	for _, r := range want {
		if err := s.PostAIResult(bg, "f1", r); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.PostAIResult(bg, "f2", game.AIResult{JobID: "c", Move: "e6"}); err != nil {
		t.Fatal(err)
	}
	got, after, err := s.ReadAIResults(bg, "f1", "", 10, time.Second)
	if err != nil || len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("ReadAIResults(f1) = %+v, %v; want %+v", got, err, want)
	}
	if more, again, err := s.ReadAIResults(bg, "f1", after, 10, 0); err != nil || len(more) != 0 || again != after {
		t.Errorf("ReadAIResults after the last = %+v, %q, %v; want nothing, %q", more, again, err, after)
	}
	if got, _, err := s.ReadAIResults(bg, "f2", "", 10, 0); err != nil || len(got) != 1 || got[0].JobID != "c" {
		t.Errorf("ReadAIResults(f2) = %+v, %v; want job c only", got, err)
	}

	// A blocked read returns with the result posted while it waits.
	done := make(chan []game.AIResult, 1)
	go func() {
		r, _, _ := s.ReadAIResults(bg, "f1", after, 10, 5*time.Second)
		done <- r
	}()
	if err := s.PostAIResult(bg, "f1", game.AIResult{JobID: "d", Move: "c4"}); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if len(r) != 1 || r[0].JobID != "d" {
		t.Errorf("blocked ReadAIResults = %+v, want job d", r)
	}

	// A result with neither a move nor a failure is no answer: it comes back with Err.
	if err := s.PostAIResult(bg, "f3", game.AIResult{JobID: "e"}); err != nil {
		t.Fatal(err)
	}
	if got, _, err := s.ReadAIResults(bg, "f3", "", 10, 0); err != nil || len(got) != 1 || !errors.Is(got[0].Err, game.ErrInvalid) {
		t.Errorf("ReadAIResults of an empty result = %+v, %v; want one with Err ErrInvalid", got, err)
	}
}

// testShortBlocks: a wait under a millisecond must not become a wait forever (Redis's BLOCK 0).
func testShortBlocks(t *testing.T, s game.AIStreams) {
	ctx, cancel := context.WithTimeout(bg, 5*time.Second)
	defer cancel()
	if _, err := s.ReadAIJobs(ctx, "w", 1, time.Microsecond); err != nil {
		t.Errorf("ReadAIJobs(block 1µs) = %v", err)
	}
	if _, _, err := s.ReadAIResults(ctx, "f", "", 1, time.Microsecond); err != nil {
		t.Errorf("ReadAIResults(block 1µs) = %v", err)
	}
}
