package bot_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reversibot/reversi/bot/botapi"
	"github.com/reversibot/reversi/bot/telegramtest"
)

// holdChat holds the budget of chat in the store the bot paces with, as a 429 from Telegram
// would: the bot may send nothing into chat for d.
func (h *harness) holdChat(chat int64, d time.Duration) {
	h.t.Helper()
	if err := h.store.PaceBudgets().Hold(context.Background(), botapi.ChatOf(chat).String(), d); err != nil {
		h.t.Fatal(err)
	}
}

// While the flood limits hold a private chat's board back, a move's tap is answered at once
// with the move and the AI's reply, and a tap on the board that is about to be redrawn says
// so; the board then shows both moves.
func TestTapAnswersWhileTheBoardWaits(t *testing.T) {
	h := newHarness(t)
	alice := h.user("Alice", "en")
	board := h.aiBoard(alice, alice.ID(), "/ai 8 1 black")
	h.holdChat(alice.ID(), 1500*time.Millisecond)
	move := legalMoves(board)[0]
	a := h.pressData(alice, board, move.CallbackData)
	sq := moveName(t, move)
	if !strings.Contains(a.Text, sq+" played; the bot answered ") || !strings.Contains(a.Text, "updates in a moment") || a.ShowAlert {
		t.Errorf("the move's tap answered %q (alert %v), want the move, the bot's reply and that the board updates", a.Text, a.ShowAlert)
	}
	if cur := h.current(board); boardPly(cur) != 0 {
		t.Fatalf("the board was redrawn while its chat was held: ply %d", boardPly(cur))
	}
	again := h.pressData(alice, board, legalMoves(board)[1].CallbackData)
	if !strings.Contains(again.Text, "about to be redrawn") {
		t.Errorf("a tap on the board about to be redrawn answered %q", again.Text)
	}
	h.waitState(board, "both moves", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 2 })
}

// In a group, the move's answer says the board is coming while the group's budget holds it.
func TestTapAnswerInAGroupWhileTheBoardWaits(t *testing.T) {
	var l *handledLog
	h := newHarness(t, withHandledLog(&l))
	alice, bob := h.user("Alice", "en"), h.user("Боб", "ru")
	chat := h.srv.NewGroup("Club", alice, bob)
	_, board := h.lobbyGame(l, alice, bob, chat.ID())
	h.holdChat(chat.ID(), 1500*time.Millisecond)
	g, err := h.store.Game(context.Background(), gameID(board))
	if err != nil {
		t.Fatal(err)
	}
	mover := alice // black moves first
	if g.Players[0].UserID == bob.ID() {
		mover = bob
	}
	move := legalMoves(board)[0]
	a := h.pressData(mover, board, move.CallbackData)
	sq := moveName(t, move)
	want := sq + " played. The board updates in a moment."
	if mover == bob {
		want = "Ход " + sq + " сделан. Доска сейчас обновится."
	}
	if a.Text != want {
		t.Errorf("the move's tap answered %q, want %q", a.Text, want)
	}
	h.waitState(board, "the move", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 1 })
}

// A player tapping out of turn on a board that is up to date spends none of the group's
// budget: no edit is even tried (before, each such tap redrew the board, and a player could
// drain the group's twenty edits a minute and hold back every game in it).
func TestOutOfTurnTapsSpendNoBudget(t *testing.T) {
	var l *handledLog
	h := newHarness(t, withHandledLog(&l))
	alice, bob := h.user("Alice", "en"), h.user("Bob", "en")
	chat := h.srv.NewGroup("Club", alice, bob)
	_, board := h.lobbyGame(l, alice, bob, chat.ID())
	g, err := h.store.Game(context.Background(), gameID(board))
	if err != nil {
		t.Fatal(err)
	}
	waiting := bob // black moves first
	if g.Players[0].UserID == bob.ID() {
		waiting = alice
	}
	board = h.current(board)
	// Only the board's own edits count (the lobby's last edit may land any time), only those
	// that reached the server after the taps began (the fake logs a call once it is done, so
	// the edit that gave the board its buttons may be logged after the board was read: its
	// sequence number, taken when it arrived, is below the mark), and they are counted once
	// the bot has stopped: every tap handled and every edit it queued done (a redraw queued by
	// a tap may land after its answer).
	var mark int64
	if err := h.srv.WaitFor(h.guard(), func(v telegramtest.View) bool { mark = v.Seq(); return true }); err != nil {
		t.Fatal(err)
	}
	edits := func() (n int) {
		for _, c := range h.srv.CallLog() {
			if c.Seq > mark && strings.HasPrefix(c.Method, "editMessage") && c.Params["chat_id"] == strconv.FormatInt(board.ChatID, 10) &&
				c.Params["message_id"] == strconv.Itoa(board.ID) {
				n++
			}
		}
		return n
	}
	for range 10 {
		if a := h.pressData(waiting, board, anyMove(t, board).CallbackData); !strings.Contains(a.Text, "not your turn") {
			t.Fatalf("out-of-turn tap answered %q", a.Text)
		}
	}
	h.drain()
	if got := edits(); got != 0 {
		t.Fatalf("ten out-of-turn taps made %d edits of the board, want none", got)
	}
}
