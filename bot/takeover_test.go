package bot_test

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/storage"
)

// Issue 12, item 1: a player taps, on someone else's message, data copied from a button of
// their own game. Nothing changes: neither the victim's message nor the victim's game nor the
// tapper's own game; each tap gets a short answer; the victim's game plays on to its end.

const foreignText = "does not belong to this message"

// tryTakeover forges every game-scoped tap of mallory's own AI game on message m (one that
// shows someone else's game or lobby) and checks that each was refused and changed nothing.
func tryTakeover(h *harness, l *handledLog, mallory *telegramtest.Person, m telegramtest.ChatMessage) {
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
		h.t.Errorf("the victim's message was edited:%s", dump([]telegramtest.ChatMessage{cur}))
	}
	if cur := h.current(own); cur.Edits != own.Edits {
		h.t.Errorf("the tapper's own board was edited:%s", dump([]telegramtest.ChatMessage{cur}))
	}
}

// takeoverScene is a chat of Alice, Bob and Mallory on a bot that logs the updates it
// handled: Alice and Bob play, Mallory forges taps.
type takeoverScene struct {
	h                   *harness
	l                   *handledLog
	alice, bob, mallory *telegramtest.Person
	chat                int64
}

func newTakeoverScene(t *testing.T, title string) *takeoverScene {
	s := &takeoverScene{}
	// Every game id looks like an inline invitation's creator tag ("u" and base-36 letters),
	// as one id in 62 does: a forged Join naming one must still be refused as foreign.
	var n atomic.Int64
	tagLike := func() string { return fmt.Sprintf("u%09d", n.Add(1)) }
	s.h = newHarnessOver(t, storage.Options{NewID: tagLike}, withHandledLog(&s.l))
	s.alice, s.bob, s.mallory = s.h.user("Alice", "en"), s.h.user("Bob", "en"), s.h.user("Mallory", "en")
	s.chat = s.h.srv.NewGroup(title, s.alice, s.bob, s.mallory).ID()
	return s
}

// resists checks that Mallory's forged taps on target, a message that shows Alice's and
// Bob's game (or lobby), change nothing (what names that game in the failure), and that the
// two then play that game to its end on the board play returns; notPlayed is the failure
// when they do not.
func (s *takeoverScene) resists(what string, target telegramtest.ChatMessage, play func() telegramtest.ChatMessage, notPlayed string) {
	h := s.h
	h.t.Helper()
	victim := gameID(target)
	version, boards := h.gameState(victim)

	tryTakeover(h, s.l, s.mallory, target)
	h.unchanged(what, victim, version, boards)
	board := play()
	final := playPeople(h, []seat{{s.alice, board, "Alice"}, {s.bob, board, "Bob"}}, 200)
	if !finished(final[0]) || gameID(final[0]) != victim {
		h.t.Fatalf("%s:%s", notPlayed, dump(final))
	}
}

func TestTakeoverOfInlinePost(t *testing.T) {
	s := newTakeoverScene(t, "Chat")
	post := s.h.postInline(s.alice, 8, s.chat)
	s.h.pressHandled(s.l, s.bob, post, "✅ Join") // the game began and its board is recorded
	board := s.h.postBoard(post)
	s.resists("the victim's game", board, func() telegramtest.ChatMessage { return board },
		"the victim's inline game did not play to its end")
}

func TestTakeoverOfGroupBoard(t *testing.T) {
	s := newTakeoverScene(t, "Club")
	_, board := s.h.lobbyGame(s.l, s.alice, s.bob, s.chat)
	s.resists("the victim's game", board, func() telegramtest.ChatMessage { return board },
		"the victim's group game did not play to its end")
}

func TestTakeoverOfGroupLobby(t *testing.T) {
	s := newTakeoverScene(t, "Club")
	lobby := s.h.openLobby(s.alice, s.chat)
	s.resists("the victim's lobby", lobby, func() telegramtest.ChatMessage {
		return s.h.boardAfter(s.chat, func() { s.h.press(s.bob, s.h.current(lobby), "✅ Join") })
	}, "the victim's lobby did not become a game played to its end")
}

// TestMenuTapsOnAGroupBoard: the menus edit the message they are tapped on; forged onto a
// group's board they would replace it. They are refused there, and the game plays on.
func TestMenuTapsOnAGroupBoard(t *testing.T) {
	s := newTakeoverScene(t, "Club")
	h, l, alice, bob, mallory := s.h, s.l, s.alice, s.bob, s.mallory
	_, board := h.lobbyGame(l, alice, bob, s.chat)
	version, boards := h.gameState(gameID(board))
	for _, c := range []callback.Data{
		{Action: callback.ActionSize, Arg: 8}, {Action: callback.ActionLevel, Page: 8, Arg: 1},
		{Action: callback.ActionColor, Page: 8, Ply: 1, Arg: 0}, {Action: callback.ActionLang, Arg: 2},
		{Action: callback.ActionMenu, Arg: 0}, {Action: callback.ActionMenu, Arg: 1}, {Action: callback.ActionCancel},
	} {
		if a := h.forge(l, mallory, board, c.Encode()); !strings.Contains(a.Text, foreignText) {
			t.Errorf("menu tap %+v on the group's board answered %q", c, a.Text)
		}
	}
	if cur := h.current(board); cur.Edits != board.Edits || cur.Content() != board.Content() {
		t.Errorf("a menu tap edited the group's board:%s", dump([]telegramtest.ChatMessage{cur}))
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
	board := h.postBoard(post)
	old := gameID(board)
	h.resign(alice, board)
	over := h.waitState(post, "the resignation", finished)
	h.pressHandled(l, alice, over, "🔁 Rematch")
	offered := h.waitState(post, "the offer", func(m telegramtest.ChatMessage) bool {
		_, err := m.Button("✅ Accept")
		return err == nil
	})
	h.pressHandled(l, bob, offered, "✅ Accept")
	rematch := h.waitState(post, "the rematch", func(m telegramtest.ChatMessage) bool {
		return gameID(m) != old && gameID(m) != "" && boardPly(m) == 0
	})
	id := gameID(rematch)
	version, boards := h.gameState(id)
	cb := func(a callback.Action) string { return callback.Data{Action: a, Game: old}.Encode() }
	for _, data := range []string{cb(callback.ActionRefresh), cb(callback.ActionPage), cb(callback.ActionMove), cb(callback.ActionResign)} {
		if a := h.forge(l, bob, post, data); !strings.Contains(a.Text, "over") {
			t.Errorf("tap %q of the old game answered %q, want that it is over", data, a.Text)
		}
	}
	if a := h.forge(l, bob, post, cb(callback.ActionRematch)); a.ShowAlert {
		t.Errorf("a second Rematch of the old game answered %q", a.Text)
	}
	h.unchanged("the rematch", id, version, boards)
	if cur := h.current(post); cur.Edits != rematch.Edits || gameID(cur) != id {
		t.Errorf("the post was drawn into after taps of the old game:%s", dump([]telegramtest.ChatMessage{cur}))
	}
	playPeople(h, []seat{{alice, rematch, "Alice"}, {bob, rematch, "Bob"}}, 6)
}
