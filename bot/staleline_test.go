package bot_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/engine"
)

// The undo-then-replay attack: a player keeps the buttons of a board (an old copy their
// client still shows, or data they saved), takes the moves back and plays another line to
// the same ply. The old buttons name the same game and a current ply, and their square may be
// legal on the new position too; played there, they would make a move on a position the
// player never saw. Every button that acts on the position must name the position itself.

// legalSquares maps the legal moves marked on board m to their buttons' data.
func legalSquares(t testing.TB, m telegramtest.ChatMessage) map[engine.Square]string {
	t.Helper()
	out := map[engine.Square]string{}
	for _, b := range legalMoves(m) {
		c, err := callback.Parse(b.CallbackData)
		if err != nil {
			t.Fatal(err)
		}
		out[c.Square] = b.CallbackData
	}
	return out
}

// actionData returns the data of m's first button of action a.
func actionData(t testing.TB, m telegramtest.ChatMessage, a callback.Action) string {
	t.Helper()
	for _, row := range m.Buttons() {
		for _, b := range row {
			if c, err := callback.Parse(b.CallbackData); err == nil && c.Action == a {
				return b.CallbackData
			}
		}
	}
	t.Fatalf("no %v button:%s", a, dump([]telegramtest.ChatMessage{m}))
	return ""
}

// discsOf is the board of keyboard m as its squares' texts, row by row.
func discsOf(m telegramtest.ChatMessage) string {
	var sb strings.Builder
	for _, row := range m.Buttons() {
		for _, b := range row {
			if c, err := callback.Parse(b.CallbackData); err == nil && (c.Action == callback.ActionMove || c.Action == callback.ActionNoop) {
				sb.WriteString(b.Text)
			}
		}
	}
	return sb.String()
}

// yourMoveAt waits until board shows ply with u's moves marked.
func (h *harness) yourMoveAt(board telegramtest.ChatMessage, ply int) telegramtest.ChatMessage {
	h.t.Helper()
	return h.waitState(board, "the player to move at ply "+strconv.Itoa(ply), func(m telegramtest.ChatMessage) bool {
		return boardPly(m) == ply && len(legalMoves(m)) > 0
	})
}

// undoneLine plays, in alice's AI game on board, her first legal move (the AI replies), then
// takes both back with Undo and plays another first move, until the game stands at ply 2 on a
// position that shares a legal move with the first line's. It returns the first line's board
// (its buttons as a client that missed the redraws still shows them), the board now, and a
// square legal on both.
func (h *harness) undoneLine(l *handledLog, alice *telegramtest.Person, board telegramtest.ChatMessage) (old, now telegramtest.ChatMessage, sq engine.Square) {
	h.t.Helper()
	start := legalMoves(board)
	h.pressData(alice, board, start[0].CallbackData)
	old = h.yourMoveAt(board, 2)
	oldLegal := legalSquares(h.t, old)
	for _, first := range start[1:] {
		h.pressHandled(l, alice, h.current(board), actionData(h.t, h.current(board), callback.ActionUndo))
		start := h.yourMoveAt(board, 0)
		h.pressData(alice, start, sameMove(h.t, start, first).CallbackData)
		now = h.yourMoveAt(board, 2)
		if discsOf(now) == discsOf(old) {
			h.t.Fatalf("another first move led to the same board:%s", dump([]telegramtest.ChatMessage{now}))
		}
		for s := range legalSquares(h.t, now) {
			if _, ok := oldLegal[s]; ok {
				return old, now, s
			}
		}
	}
	h.t.Fatalf("no other line shares a legal move with the first:%s", dump([]telegramtest.ChatMessage{old}))
	return
}

// TestUndoneLineBoardPlaysNothing: after an undo and another line back to the same ply, a
// move tapped on the first line's board, and its Undo, are answered that the board is being
// redrawn, change nothing, and leave the board showing the game as it is; the current
// buttons still play.
func TestUndoneLineBoardPlaysNothing(t *testing.T) {
	var l *handledLog
	h := newHarness(t, withHandledLog(&l))
	alice := h.user("Alice", "en")
	board := h.aiBoard(alice, alice.ID(), "/ai 8 1 black")
	id := gameID(board)
	old, now, sq := h.undoneLine(l, alice, board)
	version, boards := h.gameState(id)

	for _, tap := range []struct{ what, data string }{
		{"a move of the undone line", legalSquares(t, old)[sq]},
		{"Undo of the undone line", actionData(t, old, callback.ActionUndo)},
	} {
		a := h.forge(l, alice, board, tap.data)
		if a.ShowAlert || !strings.Contains(a.Text, "about to be redrawn") {
			t.Errorf("%s answered %+v, want that the board is redrawn", tap.what, a)
		}
		h.unchanged(tap.what, id, version, boards)
		if cur := h.current(board); discsOf(cur) != discsOf(now) || boardPly(cur) != 2 {
			t.Errorf("after %s the board shows:%s\nwant:%s", tap.what, dump([]telegramtest.ChatMessage{cur}), dump([]telegramtest.ChatMessage{now}))
		}
	}

	// The board as it is plays.
	if a := h.pressData(alice, now, legalSquares(t, now)[sq]); !applied(a) {
		t.Fatalf("the current move answered %+v", a)
	}
	h.yourMoveAt(board, 4)
}

// TestResignAnswerOfAnotherPosition: "Resign? Yes" asked on one position and tapped after a
// move (from a board that still shows the question) resigns nothing: the board is redrawn.
func TestResignAnswerOfAnotherPosition(t *testing.T) {
	var l *handledLog
	h := newHarness(t, withHandledLog(&l))
	alice := h.user("Alice", "en")
	board := h.aiBoard(alice, alice.ID(), "/ai 8 1 black")
	id := gameID(board)
	h.pressHandled(l, alice, board, actionData(t, board, callback.ActionResign))
	asked := h.waitState(board, "the question whether to resign", func(m telegramtest.ChatMessage) bool {
		_, ok := resignButton(m, callback.ResignYes)
		return ok
	})
	yes, _ := resignButton(asked, callback.ResignYes)
	h.pressData(alice, asked, legalMoves(asked)[0].CallbackData) // she plays instead; the AI replies
	now := h.yourMoveAt(board, 2)
	version, boards := h.gameState(id)

	a := h.forge(l, alice, board, yes)
	if a.ShowAlert || !strings.Contains(a.Text, "about to be redrawn") {
		t.Errorf("the old Yes answered %+v, want that the board is redrawn", a)
	}
	h.unchanged("the old Yes", id, version, boards)
	if cur := h.current(board); finished(cur) || discsOf(cur) != discsOf(now) {
		t.Errorf("after the old Yes the board shows:%s", dump([]telegramtest.ChatMessage{cur}))
	}
}

// TestBoardOfBeforePositionsIsStale: data of a board drawn before buttons named their
// position (a move and an Undo as the previous version wrote them, with a current ply) plays
// nothing: it is answered as stale and the board is redrawn with buttons that do.
func TestBoardOfBeforePositionsIsStale(t *testing.T) {
	var l *handledLog
	h := newHarness(t, withHandledLog(&l))
	alice := h.user("Alice", "en")
	board := h.aiBoard(alice, alice.ID(), "/ai 8 1 black")
	id := gameID(board)
	sq := engine.SquareAt(3, 2) // d3
	version, boards := h.gameState(id)
	for _, c := range []callback.Data{
		{Action: callback.ActionMove, Game: id, Square: sq},
		{Action: callback.ActionUndo, Game: id},
		{Action: callback.ActionPage, Game: id, Page: 1},
	} {
		if a := h.forge(l, alice, board, c.Encode()); a.ShowAlert || !strings.Contains(a.Text, "about to be redrawn") {
			t.Errorf("%q answered %+v, want that the board is redrawn", c.Encode(), a)
		}
	}
	h.unchanged("taps of an older version", id, version, boards)
	if a := h.pressData(alice, board, legalSquares(t, board)[sq]); !applied(a) {
		t.Fatalf("the current d3 answered %+v", a)
	}
	h.yourMoveAt(board, 2)
}

// sameMove returns the button of board m that plays the move of button b, drawn on another
// drawing of the same position (its data names the game's version then: callback.Data.Arg).
func sameMove(t testing.TB, m telegramtest.ChatMessage, b models.InlineKeyboardButton) models.InlineKeyboardButton {
	t.Helper()
	want, err := callback.Parse(b.CallbackData)
	if err != nil {
		t.Fatalf("button %q: %v", b.CallbackData, err)
	}
	for _, row := range m.Buttons() {
		for _, c := range row {
			if got, err := callback.Parse(c.CallbackData); err == nil && got.Action == callback.ActionMove &&
				got.Square == want.Square && got.Pos == want.Pos {
				return c
			}
		}
	}
	t.Fatalf("no button plays %v on the same position:%s", want.Square, dump([]telegramtest.ChatMessage{m}))
	return models.InlineKeyboardButton{}
}
