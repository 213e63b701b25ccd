package bot_test

import (
	"strings"
	"testing"

	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/game/gametest"
	"github.com/reversibot/reversi/render"
)

// A group's lobby follows the group into its supergroup, in either order of the two service
// messages: the invitation is posted again there in the group's language, joined there, and
// the game's board is drawn there in the style of whoever opened it; the group's /top
// answers there in its language; the old group gets nothing more.
func TestUpgradeMovesLobby(t *testing.T) {
	for _, tc := range []struct {
		name  string
		order telegramtest.MigrateOrder
	}{{"old chat first", telegramtest.OldChatFirst}, {"new chat first", telegramtest.NewChatFirst}} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			alice, bob := h.user("Alice", "en"), h.user("Bob", "en")
			h.send(alice, alice.ID(), "/style image")
			h.waitText(alice.ID(), "8×8 boards will be drawn as")
			grp := h.srv.NewBasicGroup("Club", alice, bob)
			h.send(alice, grp.ID(), "/lang ru")
			h.waitText(grp.ID(), "Буду говорить по-русски.")
			h.send(alice, grp.ID(), "/new")
			old := h.waitLobby(grp.ID(), "хочет сыграть")
			before := len(h.srv.BotMessages(grp.ID()))

			sg, err := grp.Upgrade(bob, tc.order)
			if err != nil {
				t.Fatal(err)
			}
			lobby := h.waitLobby(sg.ID(), "хочет сыграть")
			h.press(bob, lobby, "✅ Присоединиться")
			board := h.waitMsg(sg.ID(), "the board", func(m telegramtest.ChatMessage) bool {
				return gameID(m) != "" && strings.Contains(m.Content(), "Ходит")
			})
			if !board.HasPhoto() {
				t.Fatalf("the board in the supergroup is not a picture, as Alice's style asks:%s", dump([]telegramtest.ChatMessage{board}))
			}
			if gameID(board) != gameID(old) {
				t.Fatalf("the supergroup plays game %s, the group's lobby was %s", gameID(board), gameID(old))
			}
			h.send(alice, sg.ID(), "/top")
			h.waitText(sg.ID(), "Ещё никто не закончил")
			if n := len(h.srv.BotMessages(grp.ID())); n != before {
				t.Fatalf("the old group got %d bot messages after the upgrade", n-before)
			}
		})
	}
}

// When the service messages are lost, the first call on the old group that Telegram refuses
// moves the game: the AI's reply to a group game, which lands after the upgrade, is drawn on a
// board posted in the supergroup, where the game goes on.
func TestUpgradeFoundByRefusedCall(t *testing.T) {
	m := gametest.NewGatedMover()
	h := newHarness(t, func(o *options) { o.Mover = m })
	t.Cleanup(m.Open) // before the bot stops
	alice := h.user("Alice", "en")
	grp := h.srv.NewBasicGroup("Club", alice)
	board := h.aiBoard(alice, grp.ID(), "/ai 8 1 black")
	if a := h.press(alice, board, legalMoves(board)[0].CallbackData); !applied(a) {
		t.Fatalf("the first move was refused: %+v", a)
	}
	m.Next(t) // the AI thinks
	sg, err := grp.Upgrade(alice, telegramtest.Silent)
	if err != nil {
		t.Fatal(err)
	}
	m.Open()
	moved := h.waitMsg(sg.ID(), "the board after the AI's reply", func(m telegramtest.ChatMessage) bool {
		return gameID(m) == gameID(board) && boardPly(m) == 2 && toMove(m, render.BlackDisc+" Alice")
	})
	if a := h.press(alice, moved, legalMoves(moved)[0].CallbackData); !applied(a) {
		t.Fatalf("the move in the supergroup was refused: %+v", a)
	}
	h.waitState(moved, "the AI's next reply", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 4 })
}

// A tap on the group's old board, which its players still see in the supergroup's history,
// plays on: the move is made and drawn on the board in the supergroup, and nothing is drawn
// into the old message (Telegram would refuse it).
func TestUpgradeOldBoardTap(t *testing.T) {
	h := newHarness(t)
	alice, bob := h.user("Alice", "en"), h.user("Bob", "en")
	grp := h.srv.NewBasicGroup("Club", alice, bob)
	h.send(alice, grp.ID(), "/new 8 black")
	h.press(bob, h.waitLobby(grp.ID(), "wants to play"), "✅ Join")
	old := h.waitMsg(grp.ID(), "the board", func(m telegramtest.ChatMessage) bool { return len(legalMoves(m)) > 0 })
	if a := h.press(alice, old, legalMoves(old)[0].CallbackData); !applied(a) {
		t.Fatalf("the first move was refused: %+v", a)
	}
	old = h.waitState(old, "the first move", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 1 && len(legalMoves(m)) > 0 })
	sg, err := grp.Upgrade(alice, telegramtest.OldChatFirst)
	if err != nil {
		t.Fatal(err)
	}
	board := h.waitMsg(sg.ID(), "the board in the supergroup", func(m telegramtest.ChatMessage) bool {
		return gameID(m) == gameID(old) && boardPly(m) == 1 && len(legalMoves(m)) > 0
	})
	if a := h.press(bob, old, legalMoves(old)[0].CallbackData); !applied(a) {
		t.Fatalf("the tap on the old board was refused: %+v", a)
	}
	h.waitState(board, "the move tapped on the old board", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 2 })
	if cur := h.current(old); cur.Edits != old.Edits {
		t.Fatalf("the old board was edited after the upgrade:%s", dump([]telegramtest.ChatMessage{cur}))
	}
}

// A Join tapped on the group's old invitation, after the upgrade, joins the lobby that moved
// to the supergroup: the game starts there on one board, the invitation posted again there
// says who plays, and nothing is drawn into the old message.
func TestUpgradeOldInvitationJoin(t *testing.T) {
	h := newHarness(t)
	alice, bob := h.user("Alice", "en"), h.user("Bob", "en")
	grp := h.srv.NewBasicGroup("Club", alice, bob)
	h.send(alice, grp.ID(), "/new 8 black")
	old := h.waitLobby(grp.ID(), "wants to play")
	sg, err := grp.Upgrade(alice, telegramtest.NewChatFirst)
	if err != nil {
		t.Fatal(err)
	}
	again := h.waitLobby(sg.ID(), "wants to play")
	if a := h.press(bob, old, "✅ Join"); a.ShowAlert {
		t.Fatalf("the Join on the old invitation was refused: %+v", a)
	}
	board := h.waitMsg(sg.ID(), "the board", func(m telegramtest.ChatMessage) bool { return len(legalMoves(m)) > 0 })
	if a := h.press(alice, board, legalMoves(board)[0].CallbackData); !applied(a) {
		t.Fatalf("the first move was refused: %+v", a)
	}
	h.waitState(board, "the first move", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 1 })
	h.waitState(again, "the invitation saying who plays", func(m telegramtest.ChatMessage) bool {
		return strings.Contains(m.Content(), "Alice") && strings.Contains(m.Content(), "Bob") && m.Markup == nil
	})
	h.stop()
	if cur := h.current(old); cur.Edits != old.Edits {
		t.Fatalf("the old invitation was edited after the upgrade:%s", dump([]telegramtest.ChatMessage{cur}))
	}
	if ms := h.srv.BotMessages(sg.ID()); len(ms) != 2 {
		t.Fatalf("%d bot messages in the supergroup, want the invitation and the board:%s", len(ms), dump(ms))
	}
}
