package bot_test

import (
	"strings"
	"testing"

	"github.com/reversibot/reversi/bot/telegramtest"
)

// openedGame starts a game by invitation between alice (black) and bob and plays alice's
// first move, told to bob; it returns both boards, bob's showing his turn.
func openedGame(t *testing.T, h *harness, alice, bob *telegramtest.Person) (ab, bb telegramtest.ChatMessage) {
	t.Helper()
	ab = h.joinedBoard(alice, bob, "/new 8 black")
	id := gameID(ab)
	bb = h.waitMsg(bob.ID(), "Bob's board", func(m telegramtest.ChatMessage) bool { return gameID(m) == id })
	move := legalMoves(ab)[0]
	if a := h.pressData(alice, ab, move.CallbackData); !applied(a) {
		t.Fatalf("Alice's first move answered %q", a.Text)
	}
	want := "Alice played " + moveName(t, move) + ". Your move."
	h.waitMsg(bob.ID(), "the notice of Alice's move", func(m telegramtest.ChatMessage) bool { return m.Content() == want })
	bb = h.waitState(bb, "Bob's turn", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 1 })
	return ab, bb
}

// A notice that a step made false while it waited for its chat's budget is not sent: Bob's
// move leaves "Bob played c5. Your move." waiting in Alice's chat, Alice resigns meanwhile,
// and when her chat's budget frees the notice is dropped (it used to reach her after her
// resignation was on both boards).
func TestNoNoticeAfterResignation(t *testing.T) {
	var gate *paceGate
	h := newHarness(t, withPaceGate(&gate))
	alice, bob := h.user("Alice", "en"), h.user("Bob", "en")
	ab, bb := openedGame(t, h, alice, bob)
	gate.set(alice.ID(), true)
	t.Cleanup(func() { gate.set(alice.ID(), false) }) // before the bot stops, on a failure too
	move := legalMoves(bb)[0]
	sq := moveName(t, move)
	if a := h.pressData(bob, bb, move.CallbackData); !applied(a) {
		t.Fatalf("Bob's move answered %q", a.Text)
	}
	h.send(alice, alice.ID(), "/resign") // needs nothing sent into her chat
	h.waitMsg(bob.ID(), "the resignation notice", func(m telegramtest.ChatMessage) bool {
		return m.Content() == "Alice resigned. The game is over."
	})
	h.waitState(bb, "Bob's board at the end", finished)
	gate.set(alice.ID(), false)
	h.waitState(ab, "Alice's board at the end", finished)
	h.drain() // every notice is sent or dropped by now
	for _, m := range h.srv.BotMessages(alice.ID()) {
		if strings.Contains(m.Content(), "Bob played "+sq) {
			t.Errorf("Alice was told of Bob's move after she resigned: %q", m.Content())
		}
	}
}

// A "your move" notice that the player's own move made false is deleted: no old notice stays
// under a board that says it is the opponent's turn.
func TestFalseNoticeDeleted(t *testing.T) {
	h := newHarness(t)
	alice, bob := h.user("Alice", "en"), h.user("Bob", "en")
	ab, bb := openedGame(t, h, alice, bob)
	move := legalMoves(bb)[0]
	if a := h.pressData(bob, bb, move.CallbackData); !applied(a) {
		t.Fatalf("Bob's move answered %q", a.Text)
	}
	want := "Bob played " + moveName(t, move) + ". Your move."
	h.waitMsg(alice.ID(), "the notice of Bob's move", func(m telegramtest.ChatMessage) bool { return m.Content() == want })
	ab = h.waitState(ab, "Alice's turn", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 2 })
	if a := h.pressData(alice, ab, legalMoves(ab)[0].CallbackData); !applied(a) {
		t.Fatalf("Alice's second move answered %q", a.Text)
	}
	h.waitState(bb, "Bob's turn again", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 3 })
	if err := h.srv.WaitFor(h.guard(), func(v telegramtest.View) bool { return len(notices(v.BotMessages(alice.ID()))) == 0 }); err != nil {
		t.Fatalf("Alice moved, and her chat still has notices:%s", dump(notices(h.srv.BotMessages(alice.ID()))))
	}
	// Bob's notice of Alice's second move stands; his first was deleted when he moved.
	if err := h.srv.WaitFor(h.guard(), func(v telegramtest.View) bool { return len(notices(v.BotMessages(bob.ID()))) == 1 }); err != nil {
		t.Fatalf("Bob's chat has notices:%s", dump(notices(h.srv.BotMessages(bob.ID()))))
	}
}
