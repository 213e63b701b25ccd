package game_test

import (
	"context"
	"reflect"
	"sync"
	"testing"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/engine/ai"
	"github.com/reversibot/reversi/game"
)

// finishedAIGame plays a 4×4 game of alice against the AI to its end.
func finishedAIGame(t *testing.T, e *env) *game.Game {
	t.Helper()
	r := e.ok(e.svc.NewAIGame(e.ctx, alice, alice.ChatID, 4, 1, game.ChooseBlack))
	r, _ = playAI(t, e, r, alice.UserID)
	return r.Game
}

// direct is the review of g made by the engine alone, step by step in order.
func direct(t *testing.T, g *game.Game) ai.GameReview {
	t.Helper()
	eg, err := engine.ReplayBytes(g.Size, g.Moves)
	if err != nil {
		t.Fatal(err)
	}
	r, err := ai.NewReview(eg, ai.ReviewOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range r.Steps() {
		if err := r.Step(context.Background(), i); err != nil {
			t.Fatal(err)
		}
	}
	gr, err := r.Result()
	if err != nil {
		t.Fatal(err)
	}
	return gr
}

func TestReviewOfAFinishedGame(t *testing.T) {
	e := newEnv(t)
	g := finishedAIGame(t, e)
	var steps []int
	res, err := e.svc.Review(e.ctx, g.ID, alice.UserID, func(done, total int) {
		if done < 1 || done > total {
			t.Errorf("progress %d of %d", done, total)
		}
		steps = append(steps, done)
	})
	if err != nil {
		t.Fatalf("Review: %v", err)
	}
	want := direct(t, g)
	if !reflect.DeepEqual(res.Review, want) || res.Cached {
		t.Fatalf("Review = %+v (cached %v), want the engine's %+v", res.Review, res.Cached, want)
	}
	if len(steps) == 0 || steps[len(steps)-1] != len(steps) {
		t.Errorf("progress %v, want 1, 2, … every step", steps)
	}
	// The second request reads the kept review.
	again, err := e.svc.Review(e.ctx, g.ID, bob.UserID, nil)
	if err != nil || !again.Cached || !reflect.DeepEqual(again.Review, want) {
		t.Fatalf("second Review = %+v, %v; want the kept review", again, err)
	}
	if again.Replay.Ply() != len(g.Moves) {
		t.Errorf("replay has %d moves, the game %d", again.Replay.Ply(), len(g.Moves))
	}
}

func TestReviewRefuses(t *testing.T) {
	e := newEnv(t)
	_, err := e.svc.Review(e.ctx, "NoSuchGame1", alice.UserID, nil)
	wantErr(t, "a game never stored", err, game.ErrNoGame)

	r := e.ok(e.svc.NewAIGame(e.ctx, alice, alice.ChatID, 6, 1, game.ChooseBlack))
	_, err = e.svc.Review(e.ctx, r.Game.ID, alice.UserID, nil)
	wantErr(t, "a game in play", err, game.ErrNotOver)

	over := e.ok(e.svc.Resign(e.ctx, r.Game.ID, alice.UserID))
	_, err = e.svc.Review(e.ctx, over.Game.ID, alice.UserID, nil)
	wantErr(t, "a game without a move", err, game.ErrNoMoves)

	ctx, cancel := context.WithCancel(e.ctx)
	cancel()
	g := finishedAIGame(t, e)
	_, err = e.svc.Review(ctx, g.ID, alice.UserID, nil)
	wantErr(t, "a review whose context ended", err, game.ErrBusy)
}

// TestConcurrentReviewsRunOnce: requests for one game at once share one review, and a user
// may lead one review at a time.
func TestConcurrentReviewsRunOnce(t *testing.T) {
	e := newEnv(t)
	g := finishedAIGame(t, e)
	var wg sync.WaitGroup
	results := make([]*game.Reviewed, 4)
	errs := make([]error, 4)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = e.svc.Review(e.ctx, g.ID, int64(1000+i), nil)
		}()
	}
	wg.Wait()
	for i := range results {
		if errs[i] != nil || !reflect.DeepEqual(results[i].Review, results[0].Review) {
			t.Fatalf("request %d: %v", i, errs[i])
		}
	}
	fresh := 0
	for _, r := range results {
		if !r.Cached {
			fresh++
		}
	}
	if fresh < 1 {
		t.Errorf("no request made the review")
	}
}

func TestClaimReviewPost(t *testing.T) {
	e := newEnv(t)
	release, ok, err := e.svc.ClaimReviewPost(e.ctx, "Game1", group)
	if err != nil || !ok {
		t.Fatalf("first claim = %v, %v", ok, err)
	}
	if _, ok, _ := e.svc.ClaimReviewPost(e.ctx, "Game1", group); ok {
		t.Fatal("a second post of the same review in the same chat was allowed")
	}
	if _, ok, _ := e.svc.ClaimReviewPost(e.ctx, "Game1", alice.ChatID); !ok {
		t.Fatal("another chat may have the review")
	}
	release()
	if _, ok, _ := e.svc.ClaimReviewPost(e.ctx, "Game1", group); !ok {
		t.Fatal("a released claim still held")
	}
}
