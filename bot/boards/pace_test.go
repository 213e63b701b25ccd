package boards

import (
	"sync"
	"testing"
	"time"

	"github.com/reversibot/reversi/bot/botapi"
	"github.com/reversibot/reversi/game"
)

// manualClock is a botapi.Clock whose time moves only when the test advances it; armed gets a
// value for every timer made.
type manualClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []manualTimer
	armed  chan struct{}
}

type manualTimer struct {
	at time.Time
	c  chan time.Time
}

func newManualClock() *manualClock {
	return &manualClock{now: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), armed: make(chan struct{}, 100)}
}

func (c *manualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *manualClock) Timer(d time.Duration) (<-chan time.Time, func() bool) {
	c.mu.Lock()
	t := manualTimer{at: c.now.Add(d), c: make(chan time.Time, 1)}
	c.timers = append(c.timers, t)
	c.mu.Unlock()
	c.armed <- struct{}{}
	return t.c, func() bool { return true }
}

// advance moves the time on by d and fires the timers due.
func (c *manualClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	kept := c.timers[:0]
	for _, t := range c.timers {
		if t.at.After(c.now) {
			kept = append(kept, t)
			continue
		}
		t.c <- c.now
	}
	c.timers = kept
}

// awaitArmed waits until n more timers were made.
func (f *fixture) awaitArmed(c *manualClock, n int) {
	f.t.Helper()
	for range n {
		select {
		case <-c.armed:
		case <-time.After(guard):
			f.t.Fatal("no edit waited for its budget")
		}
	}
}

// pacedFixture is newFixture with a Pacer on a manual clock: every chat's budget one edit,
// then one a second.
func pacedFixture(t *testing.T) (*fixture, *manualClock) {
	f := newFixture(t)
	c := newManualClock()
	one := botapi.Limit{Rate: 1, Per: time.Second, Burst: 1}
	f.e.o.Pacer = botapi.NewPacer(botapi.PaceOptions{Clock: c,
		Limits: botapi.PaceLimits{Private: one, Group: one, Inline: one, Global: botapi.Limit{Rate: -1}}})
	return f, c
}

// While a message's edit waits for its chat's budget, every newer request of it collapses
// into that edit, which draws the newest state once the budget has room; Granted tells when.
func TestPacedEditsCollapseWhileWaiting(t *testing.T) {
	f, c := pacedFixture(t)
	one := twoPlayers("g")
	one.Boards = one.Boards[:1]
	g := f.r.put(one)
	ref := g.Boards[0]
	f.e.Refresh(g) // the budget's one unit
	f.wait(f.e.Granted(ref), "the first edit's budget")
	f.settle()
	f.e.Refresh(f.r.move("g"))
	f.awaitArmed(c, 1) // the edit waits for the chat's second
	granted := f.e.Granted(ref)
	f.e.Refresh(f.r.move("g"))
	f.e.Refresh(f.r.move("g"))
	if !f.e.Pending(ref) {
		t.Fatal("Pending is false while an edit waits")
	}
	select {
	case <-granted:
		t.Fatal("Granted before the budget had room")
	default:
	}
	c.advance(time.Second)
	f.wait(granted, "the waiting edit's budget")
	f.settle()
	if _, edits := f.api.shown(ref); len(edits) != 2 || edits[1] != "v4" {
		t.Fatalf("edits %q, want the first and then only the newest (v4)", edits)
	}
	if f.e.Pending(ref) {
		t.Fatal("Pending after the edits landed")
	}
	select {
	case <-f.e.Granted(ref):
	default:
		t.Fatal("Granted with no edit waiting is not closed")
	}
}

// When a group's budget is short, the board of a game whose player is to move goes before the
// board of a game the AI is to move in, though that one was asked for first.
func TestPacedTurnBeforeBoard(t *testing.T) {
	f, c := pacedFixture(t)
	const group = -100
	f.r.put(&game.Game{ID: "ai", Size: 8, Flow: game.FlowGroup, Status: game.StatusPlaying, AILevel: 1,
		ChatID: group, Players: [2]game.Player{{UserID: 1, Name: "A"}, {Name: "Bot"}},
		Boards: []game.MessageRef{refOf(group, 20, "")}})
	people := f.r.put(&game.Game{ID: "pp", Size: 8, Flow: game.FlowGroup, Status: game.StatusPlaying,
		ChatID: group, Players: [2]game.Player{{UserID: 1, Name: "A"}, {UserID: 2, Name: "B"}},
		Boards: []game.MessageRef{refOf(group, 21, "")}})
	ai := f.r.move("ai") // black (the person) moved: the AI is to move
	if Kind(ai) != botapi.PaceBoard || Kind(people) != botapi.PaceTurn {
		t.Fatalf("Kind: AI to move %v, person to move %v", Kind(ai), Kind(people))
	}
	spend := f.r.put(&game.Game{ID: "x", Size: 8, Flow: game.FlowGroup, Status: game.StatusFinished, ChatID: group,
		Boards: []game.MessageRef{refOf(group, 22, "")}})
	f.e.Refresh(spend) // takes the group's one unit
	f.wait(f.e.Granted(spend.Boards[0]), "the first edit's budget")
	// Its edit lands before the others take: a call still in flight counts as a whole
	// window from the moment a waiter looks (botapi.LocalBudgets), which would move the
	// turn's wait past the second this test gives it.
	f.settle()
	f.e.Refresh(ai)
	f.awaitArmed(c, 1)
	f.e.Refresh(people)
	f.awaitArmed(c, 1) // the turn took the head and waits in its place
	c.advance(time.Second)
	f.wait(f.e.Granted(people.Boards[0]), "the turn's budget")
	if f.e.Pending(people.Boards[0]) && !f.e.Pending(ai.Boards[0]) {
		t.Fatal("the AI's board went first")
	}
	select {
	case <-f.e.Granted(ai.Boards[0]):
		t.Fatal("the AI's board had budget in the same second as the turn")
	default:
	}
	// The next second is the AI's board's. It took while the turn's edit may still have been
	// in flight, and then waits again: the clock moves a second at each wait until it goes.
	granted := f.e.Granted(ai.Boards[0])
	for waiting := true; waiting; {
		select {
		case <-granted:
			waiting = false
		case <-c.armed:
			c.advance(time.Second)
		case <-time.After(guard):
			t.Fatal("the AI's board never had its budget")
		}
	}
	f.settle()
	if _, edits := f.api.shown(ai.Boards[0]); len(edits) != 1 {
		t.Fatalf("the AI's board edits %q, want one", edits)
	}
}
