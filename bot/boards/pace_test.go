package boards

import (
	"testing"
	"time"

	"github.com/reversibot/reversi/bot/botapi"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/game/gametest"
)

// pacedFixture is newFixture with a Pacer on a virtual clock: every chat's budget one edit,
// then one a second.
func pacedFixture(t *testing.T) (*fixture, *gametest.Clock) {
	f := newFixture(t)
	c := gametest.NewClock(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
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
	c.AwaitTimers(t, 1, 1) // the edit waits for the chat's second
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
	c.Add(time.Second)
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
	c.AwaitTimers(t, 1, 1)
	f.e.Refresh(people)
	c.AwaitTimers(t, 2, 1) // the turn took the head and waits in its place
	c.Add(time.Second)
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
	// in flight, and then waits again: the clock moves a second while it waits until it goes.
	granted := f.e.Granted(ai.Boards[0])
	for waiting := true; waiting; {
		changed := c.Changed()
		if _, pending := c.Timers(); pending > 0 {
			c.Add(time.Second)
			continue
		}
		select {
		case <-granted:
			waiting = false
		case <-changed:
		case <-time.After(guard):
			t.Fatal("the AI's board never had its budget")
		}
	}
	f.settle()
	if _, edits := f.api.shown(ai.Boards[0]); len(edits) != 1 {
		t.Fatalf("the AI's board edits %q, want one", edits)
	}
}
