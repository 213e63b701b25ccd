package bot_test

import (
	"strings"
	"testing"

	"github.com/reversibot/reversi/bot/telegramtest"
)

// notices returns the turn notices among msgs (a chat's messages that are not deleted):
// messages that tell whose move it is, or that the game is over, in either language.
func notices(msgs []telegramtest.ChatMessage) []telegramtest.ChatMessage {
	var out []telegramtest.ChatMessage
	for _, m := range msgs {
		if c := m.Content(); strings.Contains(c, "Your move.") || strings.Contains(c, "Теперь ваш ход.") ||
			strings.Contains(c, "The game is over") || strings.Contains(c, "Партия окончена") {
			out = append(out, m)
		}
	}
	return out
}

// In a game by invitation, the player to move is told of each of the opponent's moves by one
// message in their language, which replaces the one before; nobody is told of their own move;
// a resignation is told to the opponent.
func TestTurnNotices(t *testing.T) {
	h := newHarness(t)
	alice, bob := h.user("Alice", "en"), h.user("Bob", "ru")
	board := h.joinedBoard(alice, bob, "/new 8 black")
	id := gameID(board)
	boards := map[int64]telegramtest.ChatMessage{alice.ID(): board,
		bob.ID(): h.waitMsg(bob.ID(), "Bob's board", func(m telegramtest.ChatMessage) bool { return gameID(m) == id })}
	players := []*telegramtest.Person{alice, bob} // Alice is black
	for ply := range 6 {
		mover, other := players[ply%2], players[1-ply%2]
		cur := h.waitState(boards[mover.ID()], "the mover's turn", func(m telegramtest.ChatMessage) bool { return boardPly(m) == ply })
		move := legalMoves(cur)[0]
		sq := moveName(t, move)
		if a := h.pressData(mover, cur, move.CallbackData); !applied(a) {
			t.Fatalf("ply %d: move %s answered %q", ply, sq, a.Text)
		}
		want := "Alice: ход " + sq + ". Теперь ваш ход." // Bob reads Russian
		if mover == bob {
			want = "Bob played " + sq + ". Your move."
		}
		h.waitMsg(other.ID(), "the notice of "+sq, func(m telegramtest.ChatMessage) bool { return m.Content() == want })
		// The notice before it is gone: one notice in the chat, none in the mover's for this move.
		if err := h.srv.WaitFor(h.guard(), func(v telegramtest.View) bool { return len(notices(v.BotMessages(other.ID()))) == 1 }); err != nil {
			t.Fatalf("ply %d: %s's chat has notices %s", ply, other.Model().FirstName, dump(notices(h.srv.BotMessages(other.ID()))))
		}
		for _, n := range notices(h.srv.BotMessages(mover.ID())) {
			if strings.Contains(n.Content(), sq) && strings.Contains(n.Content(), mover.Model().FirstName) {
				t.Fatalf("ply %d: %s was told of their own move: %q", ply, mover.Model().FirstName, n.Content())
			}
		}
	}
	h.resign(alice, h.current(boards[alice.ID()]))
	h.waitMsg(bob.ID(), "the resignation notice", func(m telegramtest.ChatMessage) bool {
		return m.Content() == "Alice сдаётся. Партия окончена."
	})
}

// TestAbortedNotice: in a game by invitation, a resignation before each player has moved
// aborts the game, and the opponent who did not end it is told so in their language; the one
// who ended it is told nothing (a notice replaces the one before, as every turn notice does).
func TestAbortedNotice(t *testing.T) {
	h := newHarness(t)
	alice, bob := h.user("Alice", "en"), h.user("Bob", "ru")
	aborted := func(who *telegramtest.Person) []telegramtest.ChatMessage {
		var out []telegramtest.ChatMessage
		for _, m := range h.srv.BotMessages(who.ID()) {
			if c := m.Content(); strings.Contains(c, "before it really began") || strings.Contains(c, "толком не началась") {
				out = append(out, m)
			}
		}
		return out
	}
	// Alice resigns before any move.
	board := h.joinedBoard(alice, bob, "/new 8 black")
	h.resign(alice, board)
	h.waitMsg(bob.ID(), "the notice to Bob", func(m telegramtest.ChatMessage) bool {
		return m.Content() == "Alice отменяет партию, которая толком не началась: результата не будет."
	})
	// Alice (black) moves, Bob resigns before his first move.
	board = h.joinedBoard(alice, bob, "/new 8 black")
	if a := h.pressData(alice, board, legalMoves(board)[0].CallbackData); !applied(a) {
		t.Fatalf("Alice's move answered %q", a.Text)
	}
	id := gameID(board)
	bb := h.waitMsg(bob.ID(), "Bob's turn", func(m telegramtest.ChatMessage) bool { return gameID(m) == id && boardPly(m) == 1 })
	h.resign(bob, bb)
	h.waitMsg(alice.ID(), "the notice to Alice", func(m telegramtest.ChatMessage) bool {
		return m.Content() == "Bob cancelled the game before it really began: no result."
	})
	h.waitState(bb, "Bob's aborted board", finished)
	if got := aborted(alice); len(got) != 1 {
		t.Errorf("Alice's chat has %d notices of an abort, want 1:%s", len(got), dump(got))
	}
	// Bob's notice of Alice's abort was replaced by the notice of her move since.
	if got := aborted(bob); len(got) != 0 {
		t.Errorf("Bob was told of his own abort:%s", dump(got))
	}
}
