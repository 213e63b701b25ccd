package bot_test

import (
	"strings"
	"testing"

	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/render"
)

// Issue 12, item 1: a player taps, on someone else's message, data copied from a button of
// their own game. Nothing changes: neither the victim's message nor the victim's game nor the
// tapper's own game; each tap gets a short answer; the victim's game plays on to its end.

const foreignText = "does not belong to this message"

// tryTakeover forges every game-scoped tap of mallory's own AI game on message m (one that
// shows someone else's game or lobby) and checks that each was refused and changed nothing.
func tryTakeover(h *harness, l *handledLog, mallory *telegramtest.User, m telegramtest.Message) {
	h.t.Helper()
	own, id, stale := h.ownAIGame(mallory)
	current := legalMoves(own)[0].CallbackData
	version, boards := h.gameState(id)
	before := h.current(m)
	for _, data := range forgedActions(id, boardPly(own), stale, current) {
		a := h.forge(l, mallory, m, data)
		if !strings.Contains(a.Text, foreignText) {
			h.t.Errorf("forged tap %q on someone else's message answered %q, want %q", data, a.Text, foreignText)
		}
	}
	h.unchanged("the tapper's own game after the forged taps", id, version, boards)
	if cur := h.current(m); cur.Edits != before.Edits || cur.Content() != before.Content() {
		h.t.Errorf("the victim's message was edited:%s", dump([]telegramtest.Message{cur}))
	}
	if cur := h.current(own); cur.Edits != own.Edits {
		h.t.Errorf("the tapper's own board was edited:%s", dump([]telegramtest.Message{cur}))
	}
}

func TestTakeoverOfInlinePost(t *testing.T) {
	var l *handledLog
	h := newHarness(t, withHandledLog(&l))
	alice, bob, mallory := h.user("Alice", "en"), h.user("Bob", "en"), h.user("Mallory", "en")
	chat := h.srv.NewGroup("Chat", alice, bob, mallory)
	post := h.postInline(alice, 8, chat.ID())
	h.pressHandled(l, bob, post, "✅ Join") // the game began and its board is recorded
	board := h.waitState(post, "the board in the post", func(m telegramtest.Message) bool {
		return boardPly(m) == 0 && strings.Contains(m.Content(), "To move")
	})
	victim := gameID(board)
	version, boards := h.gameState(victim)

	tryTakeover(h, l, mallory, board)
	h.unchanged("the victim's game", victim, version, boards)
	final := playPeople(h, []seat{{alice, board, "Alice"}, {bob, board, "Bob"}}, 200)
	if !finished(final[0]) || gameID(final[0]) != victim {
		t.Fatalf("the victim's inline game did not play to its end:%s", dump(final))
	}
}

func TestTakeoverOfGroupBoard(t *testing.T) {
	var l *handledLog
	h := newHarness(t, withHandledLog(&l))
	alice, bob, mallory := h.user("Alice", "en"), h.user("Bob", "en"), h.user("Mallory", "en")
	g := h.srv.NewGroup("Club", alice, bob, mallory)
	h.send(alice, g.ID(), "/new@"+telegramtest.DefaultBotUsername)
	lobby := h.waitLobby(g.ID(), "wants to play Reversi")
	last := h.lastID(g.ID())
	h.pressHandled(l, bob, lobby, "✅ Join") // the game began and its board is recorded
	board := h.boardIn(g.ID(), last)
	victim := gameID(board)
	version, boards := h.gameState(victim)

	tryTakeover(h, l, mallory, board)
	h.unchanged("the victim's game", victim, version, boards)
	final := playPeople(h, []seat{{alice, board, "Alice"}, {bob, board, "Bob"}}, 200)
	if !finished(final[0]) || gameID(final[0]) != victim {
		t.Fatalf("the victim's group game did not play to its end:%s", dump(final))
	}
}

func TestTakeoverOfGroupLobby(t *testing.T) {
	var l *handledLog
	h := newHarness(t, withHandledLog(&l))
	alice, bob, mallory := h.user("Alice", "en"), h.user("Bob", "en"), h.user("Mallory", "en")
	g := h.srv.NewGroup("Club", alice, bob, mallory)
	h.send(alice, g.ID(), "/new@"+telegramtest.DefaultBotUsername)
	lobby := h.waitLobby(g.ID(), "wants to play Reversi")
	victim := gameID(lobby)
	version, boards := h.gameState(victim)

	tryTakeover(h, l, mallory, lobby)
	h.unchanged("the victim's lobby", victim, version, boards)
	last := h.lastID(g.ID())
	h.press(bob, h.current(lobby), "✅ Join")
	board := h.boardIn(g.ID(), last)
	final := playPeople(h, []seat{{alice, board, "Alice"}, {bob, board, "Bob"}}, 200)
	if !finished(final[0]) || gameID(final[0]) != victim {
		t.Fatalf("the victim's lobby did not become a game played to its end:%s", dump(final))
	}
}

// TestMenuTapsOnAGroupBoard: the menus edit the message they are tapped on; forged onto a
// group's board they would replace it. They are refused there, and the game plays on.
func TestMenuTapsOnAGroupBoard(t *testing.T) {
	var l *handledLog
	h := newHarness(t, withHandledLog(&l))
	alice, bob, mallory := h.user("Alice", "en"), h.user("Bob", "en"), h.user("Mallory", "en")
	g := h.srv.NewGroup("Club", alice, bob, mallory)
	h.send(alice, g.ID(), "/new@"+telegramtest.DefaultBotUsername)
	lobby := h.waitLobby(g.ID(), "wants to play Reversi")
	last := h.lastID(g.ID())
	h.pressHandled(l, bob, lobby, "✅ Join")
	board := h.boardIn(g.ID(), last)
	version, boards := h.gameState(gameID(board))
	for _, c := range []render.Callback{
		{Action: render.ActionSize, Arg: 8}, {Action: render.ActionLevel, Page: 8, Arg: 1},
		{Action: render.ActionColor, Page: 8, Ply: 1, Arg: 0}, {Action: render.ActionLang, Arg: 2},
		{Action: render.ActionMenu, Arg: 0}, {Action: render.ActionMenu, Arg: 1}, {Action: render.ActionCancel},
	} {
		if a := h.forge(l, mallory, board, c.Encode()); !strings.Contains(a.Text, foreignText) {
			t.Errorf("menu tap %+v on the group's board answered %q", c, a.Text)
		}
	}
	if cur := h.current(board); cur.Edits != board.Edits || cur.Content() != board.Content() {
		t.Errorf("a menu tap edited the group's board:%s", dump([]telegramtest.Message{cur}))
	}
	h.unchanged("the group's game", gameID(board), version, boards)
	final := playPeople(h, []seat{{alice, board, "Alice"}, {bob, board, "Bob"}}, 200)
	if !finished(final[0]) {
		t.Fatalf("the group's game did not play to its end:%s", dump(final))
	}
}

// TestOldInlineGameAfterRematch: after a rematch in an inline post, taps naming the old game
// (its buttons, kept by a client or forged) never draw the old game over the new one.
func TestOldInlineGameAfterRematch(t *testing.T) {
	var l *handledLog
	h := newHarness(t, withHandledLog(&l))
	alice, bob := h.user("Alice", "en"), h.user("Bob", "en")
	chat := h.srv.NewGroup("Chat", alice, bob)
	post := h.postInline(alice, 8, chat.ID())
	h.pressHandled(l, bob, post, "✅ Join")
	board := h.waitState(post, "the board in the post", func(m telegramtest.Message) bool {
		return boardPly(m) == 0 && strings.Contains(m.Content(), "To move")
	})
	old := gameID(board)
	h.pressHandled(l, alice, board, "🏳 Resign")
	over := h.waitState(post, "the resignation", finished)
	h.pressHandled(l, alice, over, "🔁 Rematch")
	rematch := h.waitState(post, "the rematch", func(m telegramtest.Message) bool {
		return gameID(m) != old && gameID(m) != "" && boardPly(m) == 0
	})
	id := gameID(rematch)
	version, boards := h.gameState(id)
	cb := func(a render.Action) string { return render.Callback{Action: a, Game: old}.Encode() }
	for _, data := range []string{cb(render.ActionRefresh), cb(render.ActionPage), cb(render.ActionMove), cb(render.ActionResign)} {
		if a := h.forge(l, bob, post, data); !strings.Contains(a.Text, "over") {
			t.Errorf("tap %q of the old game answered %q, want that it is over", data, a.Text)
		}
	}
	if a := h.forge(l, bob, post, cb(render.ActionRematch)); a.ShowAlert {
		t.Errorf("a second Rematch of the old game answered %q", a.Text)
	}
	h.unchanged("the rematch", id, version, boards)
	if cur := h.current(post); cur.Edits != rematch.Edits || gameID(cur) != id {
		t.Errorf("the post was drawn into after taps of the old game:%s", dump([]telegramtest.Message{cur}))
	}
	playPeople(h, []seat{{alice, rematch, "Alice"}, {bob, rematch, "Bob"}}, 6)
}
