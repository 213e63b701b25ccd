package bot_test

import (
	"context"
	"strings"
	"testing"

	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/game"
)

// TestOldCopiesOfABoard: taps on a copy of a game's board that is not (or no longer) one of
// its recorded boards — an older copy after /board, or a board posted but never recorded (the
// process stopped between sending and recording it) — are never adopted: a stale tap there
// is told to send /board and that message is not drawn into; a current move still plays.
func TestOldCopiesOfABoard(t *testing.T) {
	var l *handledLog
	h := newHarness(t, withHandledLog(&l))
	alice := h.user("Alice", "en")
	first, id, stale := h.ownAIGame(alice)
	second := h.boardAfter(alice.ID(), func() { h.sendHandled(l, alice, alice.ID(), "/board") }) // posts the board and records it
	current := legalMoves(first)[0].CallbackData
	// /board moved the board: the older copy keeps no buttons (forged taps still reach it).
	first = h.waitState(first, "the older copy retired", func(m telegramtest.ChatMessage) bool { return m.Markup == nil })

	a := h.forge(l, alice, first, stale)
	if !a.ShowAlert || !strings.Contains(a.Text, "/board") {
		t.Errorf("a stale tap on the older copy answered %+v, want a pointer to /board", a)
	}
	h.boardsAre(id, second)
	// A move at the current ply on the older copy plays: the recorded board shows it.
	if a := h.forge(l, alice, first, current); a.ShowAlert {
		t.Fatalf("a current move on the older copy answered %q", a.Text)
	}
	second = h.waitState(second, "the recorded board after the move", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 4 })
	if cur := h.current(first); cur.Edits != first.Edits {
		t.Errorf("the older copy was drawn into:%s", dump([]telegramtest.ChatMessage{cur}))
	}
	h.boardsAre(id, second)

	// The process stopped before it recorded the board: nothing adopts it.
	g, err := h.store.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	g.Boards = nil
	if err := h.store.UpdateGame(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	a = h.forge(l, alice, second, stale)
	if !a.ShowAlert || !strings.Contains(a.Text, "/board") {
		t.Errorf("a stale tap on the unrecorded board answered %+v, want a pointer to /board", a)
	}
	h.boardsAre(id)
	third := h.boardAfter(alice.ID(), func() { h.sendHandled(l, alice, alice.ID(), "/board") })
	h.boardsAre(id, third)
	final, _, _ := playToEnd(h, alice, third, "⚫ Alice")
	if gameID(final) != id {
		t.Errorf("the game changed")
	}
}

// TestLobbyMessageAfterTheGameBegan: a Join tapped on a group lobby's message after someone
// joined is told so, and nothing changes.
func TestLobbyMessageAfterTheGameBegan(t *testing.T) {
	var l *handledLog
	h := newHarness(t, withHandledLog(&l))
	alice, bob, carol := h.user("Alice", "en"), h.user("Bob", "en"), h.user("Carol", "en")
	g := h.srv.NewGroup("Club", alice, bob, carol)
	lobby, board := h.lobbyGame(l, alice, bob, g.ID())
	join := lobby.Buttons()[0][0].CallbackData
	version, boards := h.gameState(gameID(board))
	if a := h.forge(l, carol, lobby, join); !strings.Contains(a.Text, "already joined") {
		t.Errorf("a late Join on the lobby message answered %+v", a)
	}
	h.unchanged("the game after a late Join", gameID(board), version, boards)
}

// boardsAre fails the test unless game id's recorded boards are exactly ms.
func (h *harness) boardsAre(id string, ms ...telegramtest.ChatMessage) {
	h.t.Helper()
	g, err := h.store.Game(context.Background(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	var want []game.MessageRef
	for _, m := range ms {
		want = append(want, game.MessageRef{ChatID: m.ChatID, MessageID: m.ID, InlineID: m.InlineID})
	}
	if len(g.Boards) != len(want) {
		h.t.Fatalf("game %s has boards %v, want %v", id, g.Boards, want)
	}
	for i := range want {
		if g.Boards[i] != want[i] {
			h.t.Fatalf("game %s has boards %v, want %v", id, g.Boards, want)
		}
	}
}
