package storage_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/game/gametest"
	"github.com/reversibot/reversi/storage"
	"github.com/reversibot/reversi/storage/storagetest"
)

// The promises of game.AIStreams are checked by TestAIStreamsContract; these tests check what
// is Redis's own: acknowledged jobs leave the stream, streams are trimmed and expire, garbage
// entries are reported, and a stream deleted under the workers comes back.

func pending(t *testing.T, s *storage.Store) int64 {
	t.Helper()
	n, err := s.PendingAIJobs(context.Background())
	if err != nil {
		t.Fatalf("PendingAIJobs: %v", err)
	}
	return n
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
	if err := s.PostAIJob(ctx, gametest.AIJob("j1")); err != nil {
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

// TestAckedAIJobsLeaveTheStream: an acknowledged job is deleted from the stream, not only
// taken off the pending list.
func TestAckedAIJobsLeaveTheStream(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	for _, id := range []string{"j1", "j2"} {
		if err := s.PostAIJob(ctx, gametest.AIJob(id)); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.ReadAIJobs(ctx, "w1", 10, 0)
	if err != nil || len(got) != 2 {
		t.Fatalf("ReadAIJobs = %v, %v; want two jobs", got, err)
	}
	for _, d := range []game.AIDelivery{got[0], got[1], got[0]} { // the last: acked twice
		if err := s.AckAIJob(ctx, d.Entry); err != nil {
			t.Fatalf("AckAIJob: %v", err)
		}
	}
	if n, err := s.Client().XLen(ctx, s.AIJobStream()).Result(); err != nil || n != 0 {
		t.Errorf("XLEN of the job stream after acks = %d, %v; want 0 (acked jobs are deleted)", n, err)
	}
}

// TestAIReplyStreamExpires: a reply stream lives AIReplyTTL after its last result, so a dead
// front's stream goes away.
func TestAIReplyStreamExpires(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	if err := s.PostAIResult(ctx, "f1", game.AIResult{JobID: "a", Move: "d3"}); err != nil {
		t.Fatal(err)
	}
	ttl, err := s.Client().PTTL(ctx, s.AIReplyStream("f1")).Result()
	if err != nil || ttl <= 0 || ttl > storage.AIReplyTTL {
		t.Errorf("reply stream TTL = %v, %v; want within (0, %v]", ttl, err, storage.AIReplyTTL)
	}
}
