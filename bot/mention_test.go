package bot_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/render"
)

// mentioned returns the users m's text mentions, failing when a mention does not cover
// exactly the name the turn line gives the player to move.
func mentioned(t testing.TB, m telegramtest.ChatMessage) []int64 {
	t.Helper()
	for _, e := range m.Entities {
		if e.Type != "text_mention" {
			continue
		}
		name := telegramtest.EntityText(m.Content(), e)
		if !strings.HasSuffix(m.Content(), render.BlackDisc+" "+name) && !strings.HasSuffix(m.Content(), render.WhiteDisc+" "+name) {
			t.Fatalf("mention covers %q, not the name in the turn line:%s", name, dump([]telegramtest.ChatMessage{m}))
		}
	}
	return m.Mentions()
}

// playMentioned plays taps moves of a game between people on its one board (a group's or an
// inline message), the player the board mentions always tapping, and checks after each move
// that the board mentions exactly the player to move and never the one who just moved.
func playMentioned(h *harness, board telegramtest.ChatMessage, players map[int64]*telegramtest.Person, taps int) {
	h.t.Helper()
	for ply := 0; ply < taps; ply++ {
		cur := h.waitState(board, "the board before the move", func(m telegramtest.ChatMessage) bool { return boardPly(m) == ply })
		if finished(cur) {
			return
		}
		ids := mentioned(h.t, cur)
		if len(ids) != 1 || players[ids[0]] == nil {
			h.t.Fatalf("ply %d: the board mentions %v, want one of the players:%s", ply, ids, dump([]telegramtest.ChatMessage{cur}))
		}
		mover := players[ids[0]]
		if name := mover.Model().FirstName; !strings.HasSuffix(cur.Content(), " "+name) {
			h.t.Fatalf("ply %d: the mention is of %s, the turn line names another:%s", ply, name, dump([]telegramtest.ChatMessage{cur}))
		}
		if a := h.pressData(mover, cur, legalMoves(cur)[0].CallbackData); !applied(a) {
			h.t.Fatalf("ply %d: the mentioned player's move answered %q", ply, a.Text)
		}
		next := h.waitState(board, "the board after the move", func(m telegramtest.ChatMessage) bool { return boardPly(m) == ply+1 })
		if finished(next) {
			if ids := mentioned(h.t, next); len(ids) != 0 {
				h.t.Fatalf("a finished board mentions %v", ids)
			}
			return
		}
		for _, id := range mentioned(h.t, next) {
			if id == mover.ID() && !strings.HasSuffix(next.Content(), " "+mover.Model().FirstName) {
				h.t.Fatalf("ply %d: the board mentions the mover %d", ply, id)
			}
		}
	}
}

// TestTurnMentionGroup: the board of a game between people in a group names the player to move
// by a text_mention of exactly them (a name with an emoji, offsets in UTF-16 units), on the
// board posted when the game starts and after every move, never the mover.
func TestTurnMentionGroup(t *testing.T) {
	for _, size := range []int{8, 10} { // buttons, and a picture whose caption carries it
		h := newHarness(t)
		alice, bob := h.user("Alice", "en"), h.user("Боб 🦊", "ru")
		g := h.srv.NewGroup("Club", alice, bob)
		h.send(alice, g.ID(), fmt.Sprintf("/new@%s %d", telegramtest.DefaultBotUsername, size))
		lobby := h.waitLobby(g.ID(), "wants to play Reversi")
		board := h.boardAfter(g.ID(), func() { h.press(bob, lobby, "✅ Join") })
		if board.HasPhoto() != (size > 8) || len(mentioned(t, board)) != 1 {
			t.Fatalf("the new group board mentions %v:%s", board.Mentions(), dump([]telegramtest.ChatMessage{board}))
		}
		playMentioned(h, board, map[int64]*telegramtest.Person{alice.ID(): alice, bob.ID(): bob}, 4)
	}
}

// TestTurnMentionInline: so does the board of an inline game, and a large one drawn as text.
func TestTurnMentionInline(t *testing.T) {
	for _, size := range []int{8, 16} {
		h := newHarness(t, withPictures) // a large inline board is a picture
		alice, bob := h.user("Алиса", "ru"), h.user("Bob 🦊", "en")
		chat := h.srv.NewGroup("Chat", alice, bob)
		post := h.postInline(alice, size, chat.ID())
		join, _ := post.ButtonAt(0, 0) // the first button joins, in Alice's language
		h.pressData(bob, post, join.CallbackData)
		board := h.waitState(post, "the board in the post", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 0 })
		playMentioned(h, board, map[int64]*telegramtest.Person{alice.ID(): alice, bob.ID(): bob}, 4)
	}
}

// TestNoMentionAI: an AI game's board mentions nobody, and neither does a player's own board
// in a game by invitation (the turn notice tells them there).
func TestNoMentionAI(t *testing.T) {
	h := newHarness(t)
	alice, bob, carol := h.user("Alice", "en"), h.user("Bob", "en"), h.user("Carol", "en")
	ai := h.aiBoard(alice, alice.ID(), "/ai 8 2 black")
	h.pressData(alice, ai, legalMoves(ai)[0].CallbackData)
	ai = h.waitState(ai, "the AI's reply", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 2 })
	if len(ai.Entities) != 0 {
		t.Errorf("AI board entities %+v", ai.Entities)
	}
	own := h.joinedBoard(carol, bob, "/new 8 black")
	if len(own.Entities) != 0 {
		t.Errorf("own board in a game by invitation has entities %+v", own.Entities)
	}
}
