package bot_test

import (
	"strings"
	"testing"
	"time"

	"github.com/reversibot/reversi/bot/telegramtest"
)

// A player who types a burst of moves and then taps their move gets an answer to the tap.
// The 25 typed moves (illegal: each is answered by a message) wait for the chat's flood
// limits, held here for as long as the test needs; waiting is not work in progress, so they
// do not fill the user's 8 updates in handling, and the tap, within the user's budget once a
// virtual second has refilled it, is played and answered. (It used to be refused as
// over the bound and dropped without an answer, the button left spinning.) A tap that comes
// while typed moves are still at work, before they reach the wait, finds the bound full and
// is answered "slow down"; the player taps again a second later.
func TestTapAfterTypedBurst(t *testing.T) {
	var gate *paceGate
	var l *handledLog
	h := newHarness(t, withBudget, withPaceGate(&gate), withHandledLog(&l))
	alice := h.user("Alice", "en")
	board := h.aiBoard(alice, alice.ID(), "/ai 8 1 black")
	l.wait(h, "message", alice, 2) // /help and /ai are over: nothing of Alice's is at work
	// Every message and edit into Alice's chat waits, until the test ends (before the bot
	// stops, on a failure too).
	gate.set(alice.ID(), true)
	t.Cleanup(func() { gate.set(alice.ID(), false) })
	for range 25 {
		h.send(alice, alice.ID(), "a1")
	}
	if err := h.srv.WaitIdle(h.guard()); err != nil {
		t.Fatalf("updates not taken: %v", err)
	}
	move := legalMoves(board)[0]
	guard := h.guard()
	for taps := 1; ; taps++ {
		h.clock.Add(time.Second) // room in the budget for a tap
		a := h.pressData(alice, board, move.CallbackData)
		if applied(a) {
			t.Logf("the tap was played at the %d. try; intake %+v", taps, h.b.Intake())
			break
		}
		if !strings.Contains(a.Text, slowDown) || guard.Err() != nil {
			t.Fatalf("tap %d answered %q (alert %v), want the move played, or slow down", taps, a.Text, a.ShowAlert)
		}
	}
	gate.set(alice.ID(), false)
	h.waitState(board, "the move on the board", func(m telegramtest.ChatMessage) bool { return boardPly(m) >= 1 })
}
