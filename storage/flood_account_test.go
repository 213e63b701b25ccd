package storage_test

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/game/gametest"
	"github.com/reversibot/reversi/storage"
	"github.com/reversibot/reversi/storage/storagetest"
)

// What one account may keep in Redis however it floods the bot, and the flood that shows it.
const (
	// floodRate is the updates a second one user gets through the bot: bot.DefaultBudget's
	// sustained rate (its burst of 20 adds nothing over a day).
	floodRate = 5
	// floodGroups is how many groups the account floods at once (the bot paces its messages to
	// each group, which is what a real flood spreads over groups for).
	floodGroups = 12
	// accountBudget is the most one account may keep in Redis.
	accountBudget = 2 << 20
)

// flood is one account flooding a Service over a Redis store on a virtual clock.
type flood struct {
	svc   *game.Service
	store *storage.Store
	ctx   context.Context
	nonce int64
	// reviewData is the review of the first game reviewed, as the store keeps it.
	reviewData []byte
}

// resignRematch is "/resign, then Rematch" in the chat of game id (2 updates), with a move
// before (3 updates; the AI's answer is none) when moved: then the game has a result against
// the AI. It returns the rematch.
func (f *flood) resignRematch(id string, moved bool) (string, error) {
	if moved {
		if err := f.move(id); err != nil {
			return "", err
		}
	}
	if _, err := f.svc.Resign(f.ctx, id, alice.UserID); err != nil {
		return "", fmt.Errorf("resign: %w", err)
	}
	r, err := f.svc.Rematch(f.ctx, id, alice.UserID)
	if err != nil {
		return "", fmt.Errorf("rematch: %w", err)
	}
	return r.Game.ID, nil
}

// move plays the account's first legal move in game id (1 update) and lets the AI answer.
func (f *flood) move(id string) error {
	r, err := f.svc.Game(f.ctx, id)
	if err != nil {
		return err
	}
	if r, err = f.svc.Move(f.ctx, id, alice.UserID, r.Pos.LegalMoves()[0], game.Ply(r.Game)); err != nil {
		return fmt.Errorf("move: %w", err)
	}
	for r.Reply != nil {
		if r, err = r.Reply.Wait(f.ctx); err != nil {
			return fmt.Errorf("AI reply: %w", err)
		}
	}
	return nil
}

// playReview is "a move, /resign, Review, Rematch" in the chat of game id (4 updates): a
// result against the AI, a review and the last game of the chat kept, and the rematch, which
// it returns.
func (f *flood) playReview(id string) (string, error) {
	if err := f.move(id); err != nil {
		return "", err
	}
	if _, err := f.svc.Resign(f.ctx, id, alice.UserID); err != nil {
		return "", fmt.Errorf("resign: %w", err)
	}
	if err := f.review(id); err != nil {
		return "", err
	}
	r, err := f.svc.Rematch(f.ctx, id, alice.UserID)
	if err != nil {
		return "", fmt.Errorf("rematch: %w", err)
	}
	return r.Game.ID, nil
}

// review keeps the review of the finished game id as Service.Review does. The first is made
// by Service.Review itself; the rest are kept, of its size, straight away (a review's search
// is the AI pool's work, tens of milliseconds each, which takes nothing from the store).
func (f *flood) review(id string) error {
	if f.reviewData == nil {
		if _, err := f.svc.Review(f.ctx, id, alice.UserID, nil); err != nil {
			return fmt.Errorf("review: %w", err)
		}
		data, err := f.store.LoadReview(f.ctx, id)
		if err != nil {
			return fmt.Errorf("the review made was not kept: %w", err)
		}
		f.reviewData = data
		return nil
	}
	return f.store.SaveReview(f.ctx, id, f.reviewData, game.ReviewTTL)
}

// invite is /new in the account's private chat (1 update): an invitation lobby.
func (f *flood) invite() error {
	_, err := f.svc.OpenLobby(f.ctx, game.Lobby{Flow: game.FlowInvite, Creator: alice, Size: 8})
	return err
}

// inlinePost is an inline post chosen (1 update): its invitation claimed and its lobby opened.
func (f *flood) inlinePost() error {
	f.nonce++
	inline := fmt.Sprintf("AgAAAG%018dQ", f.nonce)
	if ok, err := f.svc.ClaimInvitation(f.ctx, alice.UserID, f.nonce, inline, 24*time.Hour+5*time.Minute); err != nil || !ok {
		return fmt.Errorf("claim invitation: %v, %w", ok, err)
	}
	_, err := f.svc.OpenLobby(f.ctx, game.Lobby{Flow: game.FlowInline, Creator: alice, InlineID: inline, Size: 8})
	return err
}

// kept returns the bytes of the store's keys (MEMORY USAGE; an embedded Redis estimates it).
func (f *flood) kept(t *testing.T) int64 {
	t.Helper()
	keys, err := f.store.MemoryUsage(f.ctx)
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, k := range keys {
		n += k.Bytes
	}
	return n
}

// roundUpdates is what one round of the flood costs the account: "/resign, Rematch" in half
// the groups and "a move, /resign, Rematch" in the other half, "a move, /resign, Review,
// Rematch" in its private chat, /new and three inline posts.
const roundUpdates = floodGroups/2*2 + floodGroups/2*3 + 4 + 1 + 3

// round runs one round of the flood, the chats' steps at once as the bot would take them from
// one account (each chat's in order), but one move at a time: the AI pool lets one user have
// only so many searches waiting (game.UserQueue).
func (f *flood) round(groups []string, private *string) error {
	errs := make([]error, len(groups)+2) // the even groups', the rest's, the lobbies'
	var wg sync.WaitGroup
	for i := 0; i < len(groups); i += 2 {
		wg.Go(func() { groups[i], errs[i] = f.resignRematch(groups[i], false) })
	}
	wg.Go(func() {
		var err error
		for i := 1; i < len(groups) && err == nil; i += 2 {
			groups[i], err = f.resignRematch(groups[i], true)
		}
		if err == nil {
			*private, err = f.playReview(*private)
		}
		errs[len(groups)] = err
	})
	wg.Go(func() {
		err := f.invite()
		for range 3 {
			if err == nil {
				err = f.inlinePost()
			}
		}
		errs[len(groups)+1] = err
	})
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// floodSpan, when set (REDIS_URL=… go test -run TestOneAccountFloodMemory -v ./storage/ -args
// -flood-span 24h), is how long TestOneAccountFloodMemory floods, instead of its default.
var floodSpan = flag.Duration("flood-span", 0, "how long TestOneAccountFloodMemory floods (simulated)")

// TestOneAccountFloodMemory floods the bot as one account at its full update budget, on a
// virtual clock, through game.Service as the bot drives it: in 12 groups "/resign, then
// Rematch" on AI games (a finished game and a rematch mark for every two updates; with a move
// first in half of them, a result against the AI too), in its private chat AI games moved,
// resigned, reviewed and rematched (result marks, reviews), invitation lobbies (/new) and
// inline posts (an invitation claimed and a lobby opened each).
//
// Six times in the flood it sums what the store keeps: MEMORY USAGE on a real Redis, where
// nothing expires while the test runs, so the sum can only over-count; an estimate on the
// embedded one, whose keys expire by the virtual clock. It must stay within accountBudget
// (2 MB), and so must what a day's flood would keep if the store went on growing as it did
// over the flood's last third: every cap fills within its first 6 minutes, after which what
// the account keeps must stay flat. By default the flood lasts 30 simulated minutes on a real
// Redis, 12 on the embedded one (whose scripts are slower); -flood-span 24h floods a whole
// day (on a real Redis, about 80 s).
func TestOneAccountFloodMemory(t *testing.T) {
	span := 30 * time.Minute
	if !storagetest.Real() {
		span = 12 * time.Minute
	}
	if *floodSpan > 0 {
		span = *floodSpan
	}
	every, trend := span/6, span/3
	const day = 24 * time.Hour
	start := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	clock := gametest.NewClock(start)
	var (
		st      *storage.Store
		advance = clock.Add
	)
	if storagetest.Real() {
		st = storagetest.New(t, storage.Options{Now: clock.Now})
	} else {
		var m interface{ FastForward(time.Duration) }
		st, m = storagetest.NewEmbedded(t, storage.Options{Prefix: "flood:", Now: clock.Now})
		advance = func(d time.Duration) { clock.Add(d); m.FastForward(d) }
	}
	pool := game.NewAIPool(2, 8)
	svc := game.New(game.Config{Store: st, Mover: gametest.FirstMover{}, Pool: pool, Now: clock.Now,
		Rand: rand.New(rand.NewPCG(1, 2))})
	t.Cleanup(func() { svc.Close(); pool.Close() })
	ctx := context.Background()
	if err := st.TouchUser(ctx, alice.UserID, alice.Name); err != nil {
		t.Fatal(err)
	}
	f := &flood{svc: svc, store: st, ctx: ctx}

	// The games to flood: one in each group and one in the private chat (13 updates).
	groups := make([]string, floodGroups)
	for i := range groups {
		r, err := svc.NewAIGame(ctx, alice, int64(-2000-i), 8, 1, game.ChooseBlack)
		if err != nil {
			t.Fatal(err)
		}
		groups[i] = r.Game.ID
	}
	r, err := svc.NewAIGame(ctx, alice, alice.ChatID, 8, 1, game.ChooseBlack)
	if err != nil {
		t.Fatal(err)
	}
	private := r.Game.ID
	updates := floodGroups + 1
	advance(time.Duration(updates) * time.Second / floodRate)

	// kept[i] is what the store kept after i+1 periods of every.
	var kept []int64
	for clock.Now().Sub(start) < span {
		if err := f.round(groups, &private); err != nil {
			t.Fatalf("after %d updates: %v", updates, err)
		}
		updates += roundUpdates
		advance(roundUpdates * time.Second / floodRate)
		if clock.Now().Sub(start) < time.Duration(len(kept)+1)*every {
			continue
		}
		n := f.kept(t)
		kept = append(kept, n)
		if n > accountBudget {
			t.Fatalf("after %v and %d updates one account keeps %d bytes in Redis, want at most %d",
				clock.Now().Sub(start), updates, n, accountBudget)
		}
	}
	last := kept[len(kept)-1]
	back := int(trend / every)
	if len(kept) <= back {
		t.Fatalf("a flood of %v has no trend over %v to tell", span, trend)
	}
	growth := max(0, last-kept[len(kept)-1-back])
	left := max(0, day-clock.Now().Sub(start))
	daily := last + growth*int64((left+trend-1)/trend)
	t.Logf("one account, %d updates in %v (%d a second): keeps %d bytes in Redis, at most %d; "+
		"%d more over the last %v, so a day's flood keeps %d at most",
		updates, clock.Now().Sub(start), floodRate, last, slices.Max(kept), growth, trend, daily)
	if daily > accountBudget {
		t.Fatalf("one account's flood for a day would keep %d bytes in Redis (growing by %d every %v), want at most %d",
			daily, growth, trend, accountBudget)
	}
}
