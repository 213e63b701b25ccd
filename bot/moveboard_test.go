package bot_test

import (
	"strings"
	"testing"

	"github.com/reversibot/reversi/bot/telegramtest"
)

// liveBoards counts the messages of chat whose buttons act on game id.
func (h *harness) liveBoards(chat int64, id string) int {
	n := 0
	for _, m := range h.srv.BotMessages(chat) {
		if gameID(m) == id {
			n++
		}
	}
	return n
}

// TestBoardMoves: /board moves the board to a new message. The old copy loses its buttons and
// says where the game went, a tap forged with its old data changes nothing, and the chat has
// exactly one live board of the game; the same for a picture board (its caption says it) and
// for a group's invitation.
func TestBoardMoves(t *testing.T) {
	var l *handledLog
	h := newHarness(t, withHandledLog(&l))
	alice := h.user("Alice", "en")
	check := func(what string, board telegramtest.ChatMessage, id, stale string) {
		t.Helper()
		fresh := h.sendForBoard(alice, alice.ID(), "/board")
		h.waitState(fresh, "the new board's buttons", func(m telegramtest.ChatMessage) bool { return gameID(m) == id })
		old := h.waitState(board, "the old board retired", func(m telegramtest.ChatMessage) bool {
			return m.Markup == nil && strings.Contains(m.Content(), "moved to the board below")
		})
		if board.HasPhoto() != old.HasPhoto() {
			t.Errorf("%s: the old board changed kind:%s", what, dump([]telegramtest.ChatMessage{old}))
		}
		if n := h.liveBoards(alice.ID(), id); n != 1 {
			t.Errorf("%s: %d live boards of the game, want 1:%s", what, n, dump(h.srv.BotMessages(alice.ID())))
		}
		version, boards := h.gameState(id)
		h.forge(l, alice, old, stale)
		h.unchanged(what+": a tap with old data on the retired board", id, version, boards)
		if cur := h.current(old); cur.Markup != nil {
			t.Errorf("%s: the tap brought buttons back:%s", what, dump([]telegramtest.ChatMessage{cur}))
		}
	}
	board, id, stale := h.ownAIGame(alice)
	check("8×8 buttons", board, id, stale)
	h.send(alice, alice.ID(), "/resign")
	h.waitMsg(alice.ID(), "resigned", finished)

	board = h.sendForBoard(alice, alice.ID(), "/ai 10 1 black")
	board = h.waitState(board, "its buttons", func(m telegramtest.ChatMessage) bool { return len(legalMoves(m)) > 0 })
	id, stale = gameID(board), legalMoves(board)[0].CallbackData
	h.pressData(alice, board, stale)
	board = h.waitState(board, "the AI's reply", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 2 })
	check("10×10 picture", board, id, stale)
	h.send(alice, alice.ID(), "/resign")
	h.waitMsg(alice.ID(), "resigned", finished)

	// A group's invitation moves the same way.
	bob := h.user("Bob", "en")
	g := h.srv.NewGroup("Club", alice, bob)
	lobby := h.openLobby(alice, g.ID())
	last := h.lastID(g.ID())
	h.send(alice, g.ID(), "/board@"+telegramtest.DefaultBotUsername)
	moved := h.waitMsg(g.ID(), "the invitation again", func(m telegramtest.ChatMessage) bool {
		return m.ID > last && strings.Contains(m.Content(), "wants to play Reversi") && m.Markup != nil
	})
	h.waitState(lobby, "the old invitation retired", func(m telegramtest.ChatMessage) bool {
		return m.Markup == nil && strings.Contains(m.Content(), "invitation moved")
	})
	id = gameID(moved)
	if n := h.liveBoards(g.ID(), id); n != 1 {
		t.Errorf("%d live invitations, want 1:%s", n, dump(h.srv.BotMessages(g.ID())))
	}
}
