package botapi_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/reversibot/reversi/bot/botapi"
	"github.com/reversibot/reversi/game/gametest"
)

// epoch is where a test's clock starts.
var epoch = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

// newClock returns a virtual clock at epoch for a Pacer to go by.
func newClock() *gametest.Clock { return gametest.NewClock(epoch) }

// started is a Wait running in its own goroutine, whose call, once let go, is answered at once
// (Done).
type started chan error

func start(ctx context.Context, p *botapi.Pacer, chat botapi.ChatKey, kind botapi.PaceKind) started {
	s := make(started, 1)
	go func() {
		_, err := p.Wait(ctx, chat, kind)
		if err == nil {
			err = p.Done(ctx, chat, true)
		}
		s <- err
	}()
	return s
}

// done reports whether the Wait returned (without waiting for it) and fails on its error.
func (s started) done(t *testing.T) bool {
	t.Helper()
	select {
	case err := <-s:
		if err != nil {
			t.Fatalf("Wait: %v", err)
		}
		return true
	default:
		return false
	}
}

// result waits for the Wait to return (a watchdog fails a hung test) and returns its error.
func (s started) result(t *testing.T) error {
	t.Helper()
	select {
	case err := <-s:
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("Wait did not return")
		return nil
	}
}

func newPacer(c *gametest.Clock, l botapi.PaceLimits) *botapi.Pacer {
	return botapi.NewPacer(botapi.PaceOptions{Limits: l, Clock: c})
}

// mustWait calls Wait and fails unless it returns at once without error, then answers its call
// at once (Done). It goes by what Wait reports rather than by the clock's timers, since a Wait
// running beside it (in the same chat) may set a timer of its own meanwhile.
func mustWait(t *testing.T, p *botapi.Pacer, chat botapi.ChatKey, kind botapi.PaceKind) {
	t.Helper()
	waited, err := p.Wait(context.Background(), chat, kind)
	if err != nil {
		t.Fatalf("Wait(%v): %v", chat, err)
	}
	if waited {
		t.Fatalf("Wait(%v) waited", chat)
	}
	if err := p.Done(context.Background(), chat, true); err != nil {
		t.Fatalf("Done(%v): %v", chat, err)
	}
}

func TestChatKey(t *testing.T) {
	for _, tc := range []struct {
		k             botapi.ChatKey
		s             string
		group, inline bool
	}{
		{botapi.ChatOf(42), "p:42", false, false},
		{botapi.ChatOf(-100123), "g:-100123", true, false},
		{botapi.InlineOf("AAQx-1"), "i:AAQx-1", false, true},
	} {
		if tc.k.String() != tc.s || tc.k.Group() != tc.group || tc.k.Inline() != tc.inline {
			t.Errorf("%v: String %q Group %v Inline %v; want %q %v %v",
				tc.k, tc.k.String(), tc.k.Group(), tc.k.Inline(), tc.s, tc.group, tc.inline)
		}
	}
}

// A private chat gets its burst of 2 at once, then one a second.
func TestPacePrivateChatSpacing(t *testing.T) {
	c := newClock()
	p := newPacer(c, botapi.PaceLimits{})
	chat := botapi.ChatOf(7)
	for range 2 {
		mustWait(t, p, chat, botapi.PaceBoard)
	}
	for i := range 3 {
		made, _ := c.Timers()
		made++
		want := c.Now().Add(time.Second)
		s := start(context.Background(), p, chat, botapi.PaceBoard)
		if next := c.AwaitTimers(t, made, 1); !next.Equal(want) {
			t.Fatalf("send %d waits until %v, want %v", 3+i, next.Sub(epoch), want.Sub(epoch))
		}
		c.Add(want.Sub(c.Now()) - time.Millisecond)
		if s.done(t) {
			t.Fatalf("send %d went before its second", 3+i)
		}
		c.Add(time.Millisecond)
		if err := s.result(t); err != nil {
			t.Fatal(err)
		}
	}
}

// sendFor sends to chat back to back for d of virtual time, each call answered at once, and
// returns when each went (since the start).
func sendFor(t *testing.T, c *gametest.Clock, p *botapi.Pacer, chat botapi.ChatKey, d time.Duration) []time.Duration {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	var sent []time.Duration
	begin := c.Now()
	end := begin.Add(d)
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		for _, err := p.Wait(ctx, chat, botapi.PaceBoard); err == nil; _, err = p.Wait(ctx, chat, botapi.PaceBoard) {
			mu.Lock()
			sent = append(sent, c.Now().Sub(begin))
			mu.Unlock()
			if err := p.Done(ctx, chat, true); err != nil {
				t.Errorf("Done: %v", err)
			}
		}
	}()
	for {
		next := c.AwaitTimers(t, 0, 1)
		if next.After(end) {
			break
		}
		made, _ := c.Timers()
		c.Add(next.Sub(c.Now()))
		// Wait for the sender to come back for the next: its next timer.
		c.AwaitTimers(t, made+1, 1)
	}
	cancel()
	<-stopped
	mu.Lock()
	defer mu.Unlock()
	return sent
}

// A group gets its burst of 3, then one every three seconds, and never more than twenty in any
// minute, wherever the minute starts (before, its rate with the burst on top let 23 go in the
// first minute, and Telegram refused the 21st). Sent back to back for five minutes, it uses
// the whole budget: a hundred.
func TestPaceGroupAnyMinute(t *testing.T) {
	c := newClock()
	p := newPacer(c, botapi.PaceLimits{})
	for _, chat := range []botapi.ChatKey{botapi.ChatOf(-1001), botapi.InlineOf("x")} { // an inline message has a group's budget
		sent := sendFor(t, c, p, chat, 5*time.Minute-time.Millisecond)
		if len(sent) != 100 {
			t.Errorf("%v sent %d in five minutes, want 100", chat, len(sent))
		}
		if want := []time.Duration{0, 0, 0, 3 * time.Second}; len(sent) < 4 || !slices.Equal(sent[:4], want) {
			t.Errorf("%v sent its first four at %v, want %v", chat, sent[:min(4, len(sent))], want)
		}
		for i, at := range sent {
			n := 0
			for _, x := range sent[i:] {
				if x-at < time.Minute {
					n++
				}
			}
			if n > 20 {
				t.Fatalf("%v sent %d in the minute from %v: %v", chat, n, at, sent)
			}
		}
		c.Add(time.Hour)
	}
}

// The global budget holds across chats, each of which has room: two a second, in any second.
func TestPaceGlobalAcrossChats(t *testing.T) {
	c := newClock()
	p := newPacer(c, botapi.PaceLimits{Global: botapi.Limit{Rate: 2, Per: time.Second, Burst: 2}})
	mustWait(t, p, botapi.ChatOf(1), botapi.PaceBoard)
	mustWait(t, p, botapi.ChatOf(2), botapi.PaceBoard)
	s := start(context.Background(), p, botapi.ChatOf(3), botapi.PaceBoard)
	if next := c.AwaitTimers(t, 1, 1); !next.Equal(epoch.Add(time.Second)) {
		t.Fatalf("third chat waits until %v, want the global second", next.Sub(epoch))
	}
	c.Add(time.Second)
	if err := s.result(t); err != nil {
		t.Fatal(err)
	}
}

// When a chat's budget is short, a board that comes after an info still goes first, and the
// info waits while the board does.
func TestPaceBoardBeforeInfo(t *testing.T) {
	c := newClock()
	p := newPacer(c, botapi.PaceLimits{Private: botapi.Limit{Rate: 1, Per: time.Second, Burst: 1}})
	chat := botapi.ChatOf(9)
	mustWait(t, p, chat, botapi.PaceBoard)
	info := start(context.Background(), p, chat, botapi.PaceInfo)
	c.AwaitTimers(t, 1, 1) // the info waits for the chat's second
	board := start(context.Background(), p, chat, botapi.PaceBoard)
	// The board takes the head: the info's timer stops, the board's starts.
	c.AwaitTimers(t, 2, 1)
	if b, i := p.Waiting(chat); b != 1 || i != 1 {
		t.Fatalf("Waiting = %d boards, %d infos; want 1, 1", b, i)
	}
	c.Add(time.Second)
	if err := board.result(t); err != nil {
		t.Fatal(err)
	}
	if info.done(t) {
		t.Fatal("the info took the token the board waited for")
	}
	// Now the info waits for the next second.
	if next := c.AwaitTimers(t, 3, 1); !next.Equal(epoch.Add(2 * time.Second)) {
		t.Fatalf("the info waits until %v, want 2s", next.Sub(epoch))
	}
	c.Add(time.Second)
	if err := info.result(t); err != nil {
		t.Fatal(err)
	}
	if b, i := p.Waiting(chat); b != 0 || i != 0 {
		t.Fatalf("Waiting after all went = %d, %d", b, i)
	}
}

// A 429 holds its chat until retry_after, and no other chat.
func TestPaceThrottledHoldsOnlyItsChat(t *testing.T) {
	c := newClock()
	p := newPacer(c, botapi.PaceLimits{})
	a, b := botapi.ChatOf(-5), botapi.ChatOf(6)
	if err := p.Throttled(context.Background(), a, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	mustWait(t, p, b, botapi.PaceBoard)
	s := start(context.Background(), p, a, botapi.PaceBoard)
	if next := c.AwaitTimers(t, 1, 1); !next.Equal(epoch.Add(30 * time.Second)) {
		t.Fatalf("the throttled chat waits until %v, want 30s", next.Sub(epoch))
	}
	mustWait(t, p, b, botapi.PaceBoard)
	c.Add(30 * time.Second)
	if err := s.result(t); err != nil {
		t.Fatal(err)
	}
}

// A Wait whose context ends returns its error and leaves the queue: the info behind the
// cancelled board goes next.
func TestPaceWaitCancelled(t *testing.T) {
	c := newClock()
	p := newPacer(c, botapi.PaceLimits{Private: botapi.Limit{Rate: 1, Per: time.Second, Burst: 1}})
	chat := botapi.ChatOf(11)
	mustWait(t, p, chat, botapi.PaceBoard)
	info := start(context.Background(), p, chat, botapi.PaceInfo)
	c.AwaitTimers(t, 1, 1)
	ctx, cancel := context.WithCancel(context.Background())
	board := start(ctx, p, chat, botapi.PaceBoard)
	c.AwaitTimers(t, 2, 1) // the board is the head and waits
	cancel()
	if err := board.result(t); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled Wait = %v, want context.Canceled", err)
	}
	// The info is the head again and waits for the second.
	if next := c.AwaitTimers(t, 3, 1); !next.Equal(epoch.Add(time.Second)) {
		t.Fatalf("the info waits until %v, want 1s", next.Sub(epoch))
	}
	if b, i := p.Waiting(chat); b != 0 || i != 1 {
		t.Fatalf("Waiting = %d boards, %d infos; want 0, 1", b, i)
	}
	c.Add(time.Second)
	if err := info.result(t); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Wait(ctx, chat, botapi.PaceBoard); !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait on an ended context = %v", err)
	}
}

// A turn (a player waits for the board) goes before a board that came first.
func TestPaceTurnBeforeBoard(t *testing.T) {
	c := newClock()
	p := newPacer(c, botapi.PaceLimits{Group: botapi.Limit{Rate: 1, Per: time.Second, Burst: 1}})
	chat := botapi.ChatOf(-9)
	mustWait(t, p, chat, botapi.PaceBoard)
	board := start(context.Background(), p, chat, botapi.PaceBoard)
	c.AwaitTimers(t, 1, 1)
	turn := start(context.Background(), p, chat, botapi.PaceTurn)
	c.AwaitTimers(t, 2, 1) // the turn took the head
	c.Add(time.Second)
	if err := turn.result(t); err != nil {
		t.Fatal(err)
	}
	if board.done(t) {
		t.Fatal("the board took the token the turn waited for")
	}
	c.AwaitTimers(t, 3, 1)
	c.Add(time.Second)
	if err := board.result(t); err != nil {
		t.Fatal(err)
	}
}

// An info goes only when the chat has room for it and one more: the last unit of a burst is
// the boards'.
func TestPaceInfoLeavesTheLastUnitToBoards(t *testing.T) {
	c := newClock()
	p := newPacer(c, botapi.PaceLimits{Group: botapi.Limit{Rate: 1, Per: time.Minute, Burst: 2}})
	chat := botapi.ChatOf(-10)
	mustWait(t, p, chat, botapi.PaceInfo) // two units: the info takes one
	info := start(context.Background(), p, chat, botapi.PaceInfo)
	if next := c.AwaitTimers(t, 1, 1); !next.Equal(epoch.Add(time.Minute)) {
		t.Fatalf("the second info waits until %v, want the minute's refill", next.Sub(epoch))
	}
	// The board behind it goes at once with the unit the info left.
	mustWait(t, p, chat, botapi.PaceBoard)
	if info.done(t) {
		t.Fatal("the info went on the boards' unit")
	}
}

// Wait reports whether it had to wait.
func TestPaceWaitReportsWaiting(t *testing.T) {
	c := newClock()
	p := newPacer(c, botapi.PaceLimits{Private: botapi.Limit{Rate: 1, Per: time.Second, Burst: 1}})
	chat := botapi.ChatOf(12)
	if waited, err := p.Wait(context.Background(), chat, botapi.PaceTurn); err != nil || waited {
		t.Fatalf("first Wait = %v, %v; want no wait", waited, err)
	}
	if err := p.Done(context.Background(), chat, true); err != nil {
		t.Fatal(err)
	}
	got := make(chan bool, 1)
	go func() {
		waited, _ := p.Wait(context.Background(), chat, botapi.PaceTurn)
		got <- waited
	}()
	c.AwaitTimers(t, 1, 1)
	c.Add(time.Second)
	if !<-got {
		t.Fatal("a Wait that waited for its second reports no wait")
	}
}

// Faster divides every refill period, keeping rates and bursts.
func TestPaceLimitsFaster(t *testing.T) {
	l := botapi.PaceLimits{Private: botapi.Limit{Rate: -1}}.Faster(10)
	if l.Group != (botapi.Limit{Rate: 20, Per: 6 * time.Second, Burst: 3}) {
		t.Errorf("Faster(10).Group = %+v", l.Group)
	}
	if l.Global != (botapi.Limit{Rate: 25, Per: 100 * time.Millisecond, Burst: 20}) {
		t.Errorf("Faster(10).Global = %+v", l.Global)
	}
	if l.Private.Rate != -1 || l.Private.Per != 0 {
		t.Errorf("Faster changed the unlimited budget: %+v", l.Private)
	}
	if d := (botapi.PaceLimits{}).Faster(1); d != botapi.DefaultPaceLimits {
		t.Errorf("Faster(1) = %+v, want the defaults", d)
	}
}

// A 429 of one chat holds that chat only; a 429 of a second chat while the first's hold lasts
// is the bot's (the global limit): every chat waits.
func TestPaceThrottledTwoChatsHoldsTheBot(t *testing.T) {
	c := newClock()
	p := newPacer(c, botapi.PaceLimits{})
	ctx := context.Background()
	a, b, other := botapi.ChatOf(1), botapi.ChatOf(2), botapi.ChatOf(3)
	if err := p.Throttled(ctx, a, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	if err := p.Throttled(ctx, a, 10*time.Second); err != nil { // the same chat again: still its own
		t.Fatal(err)
	}
	mustWait(t, p, other, botapi.PaceBoard)
	if err := p.Throttled(ctx, b, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	s := start(ctx, p, other, botapi.PaceBoard)
	if next := c.AwaitTimers(t, 1, 1); !next.Equal(epoch.Add(5 * time.Second)) {
		t.Fatalf("a third chat waits until %v, want the global hold's 5s", next.Sub(epoch))
	}
	c.Add(5 * time.Second)
	if err := s.result(t); err != nil {
		t.Fatal(err)
	}
}

// The global budget serves its waiters in order (turns first), so that no chat starves while
// others keep finding room first.
func TestPaceGlobalInOrder(t *testing.T) {
	c := newClock()
	p := newPacer(c, botapi.PaceLimits{Global: botapi.Limit{Rate: 1, Per: time.Second, Burst: 1}})
	mustWait(t, p, botapi.ChatOf(1), botapi.PaceBoard)
	first := start(context.Background(), p, botapi.ChatOf(2), botapi.PaceBoard)
	c.AwaitTimers(t, 1, 1)
	second := start(context.Background(), p, botapi.ChatOf(3), botapi.PaceBoard)
	turn := start(context.Background(), p, botapi.ChatOf(4), botapi.PaceTurn)
	c.AwaitTimers(t, 2, 1) // the turn took the head of the global queue
	c.Add(time.Second)
	if err := turn.result(t); err != nil {
		t.Fatal(err)
	}
	if first.done(t) || second.done(t) {
		t.Fatal("a board went in the turn's second")
	}
	c.AwaitTimers(t, 3, 1)
	c.Add(time.Second)
	if err := first.result(t); err != nil {
		t.Fatal(err)
	}
	if second.done(t) {
		t.Fatal("the later board went with the earlier one")
	}
	c.AwaitTimers(t, 4, 1)
	c.Add(time.Second)
	if err := second.result(t); err != nil {
		t.Fatal(err)
	}
}

// OnWait is told each Wait's kind and how long it waited.
func TestPaceOnWait(t *testing.T) {
	c := newClock()
	var mu sync.Mutex
	var seen []string
	p := botapi.NewPacer(botapi.PaceOptions{Clock: c, Budgets: botapi.NewLocalBudgets(c),
		Limits: botapi.PaceLimits{Private: botapi.Limit{Rate: 1, Per: time.Second, Burst: 1}},
		OnWait: func(kind botapi.PaceKind, d time.Duration) {
			mu.Lock()
			defer mu.Unlock()
			seen = append(seen, fmt.Sprintf("%v %v", kind, d))
		}})
	mustWait(t, p, botapi.ChatOf(1), botapi.PaceTurn)
	s := start(context.Background(), p, botapi.ChatOf(1), botapi.PaceInfo)
	c.AwaitTimers(t, 1, 1)
	c.Add(time.Second)
	if err := s.result(t); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"turn 0s", "info 1s"}; !slices.Equal(seen, want) {
		t.Fatalf("OnWait saw %q, want %q", seen, want)
	}
}
