package bot_test

import (
	"errors"
	"testing"
	"time"

	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/game"
)

// TestMiniAppWakesAnOwedAI: a move the Mini App refuses wakes an AI that owes its move (its
// search was cut short), as a tap on the chat board does, and the AI's reply is drawn in the
// chat.
func TestMiniAppWakesAnOwedAI(t *testing.T) {
	mover := gateMover{entered: make(chan struct{}, 1), gate: make(chan struct{})}
	h := newHarness(t, func(o *options) { o.Mover = mover; o.HandlerTimeout = 300 * time.Millisecond })
	alice := h.user("Alice", "en")
	board := h.aiBoard(alice, alice.ID(), "/ai 8 1 black")
	id := gameID(board)
	h.pressData(alice, board, legalMoves(board)[0].CallbackData)
	<-mover.entered
	h.waitText(alice.ID(), "I am busy") // the tap's reply was cut short: the AI owes its move
	close(mover.gate)                   // the AI answers at once from now on

	app := h.b.MiniApp()
	ctx := h.guard()
	res, err := app.Game(ctx, id)
	if err != nil || len(res.Game.Moves) != 1 {
		t.Fatalf("Game = %+v, %v; want Alice's one move, the AI's owed", res, err)
	}
	sq := res.Pos.LegalMoves()[0]
	if _, err := app.Move(ctx, id, alice.ID(), sq, res.Pos.Tag()); !errors.Is(err, game.ErrNotYourTurn) {
		t.Fatalf("Move(%v) while the AI is to move = %v, want ErrNotYourTurn", sq, err)
	}
	h.waitState(h.current(board), "the AI's owed move after the Mini App's refused move", func(m telegramtest.ChatMessage) bool {
		return boardPly(m) == 2
	})
}
