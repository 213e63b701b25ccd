package bot_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game/gametest"
	"github.com/reversibot/reversi/render"
)

// countMessages waits until chat holds at least n bot messages matching pred.
func (h *harness) countMessages(chat int64, n int, what string, pred func(telegramtest.ChatMessage) bool) {
	h.t.Helper()
	err := h.srv.WaitChat(h.guard(), chat, func(v telegramtest.View) bool {
		got := 0
		for _, m := range v.BotMessages(chat) {
			if pred(m) {
				got++
			}
		}
		return got >= n
	})
	if err != nil {
		h.t.Fatalf("waiting for %d messages %s in chat %d: %v\nmessages: %s", n, what, chat, err, dump(h.srv.BotMessages(chat)))
	}
}

// While the AI owes a move in a group game, its player's typed moves ("not your turn"), stale
// taps and other members' /board each get their answer, and the position is searched once.
func TestAIFloodSearchesAPositionOnce(t *testing.T) {
	m := gametest.NewGatedMover()
	h := newHarness(t, func(o *options) { o.Mover = m; o.AIWorkers = 2 })
	t.Cleanup(m.Open) // before the bot stops
	alice, bob := h.user("Alice", "en"), h.user("Bob", "en")
	g := h.srv.NewGroup("Club", alice, bob)
	board := h.aiBoard(alice, g.ID(), "/ai 8 3 white") // the AI plays black: it moves first
	first := gametest.Receive(t, m.Started, "the AI did not start thinking")

	const n = 6
	d3, _ := engine.ParseSquare("d3")
	stale := callback.Data{Action: callback.ActionMove, Game: gameID(board), Ply: 7, Square: d3}.Encode()
	for range n {
		h.send(alice, g.ID(), "/move d3")
		qid, err := alice.PressData(board.ChatID, board.ID, stale) // as a modified client could
		if err != nil {
			t.Fatal(err)
		}
		if a := h.waitAnswer(qid); !a.ShowAlert && !strings.Contains(a.Text, "about to be redrawn") {
			t.Fatalf("stale tap answered %+v, want an alert or that the board is about to be redrawn", a)
		}
		h.send(bob, g.ID(), "/board")
	}
	h.countMessages(g.ID(), n, `"not your turn"`, func(m telegramtest.ChatMessage) bool { return strings.Contains(m.Content(), "not your turn") })
	// Boards posted (a board replaced by a newer one in the chat keeps no buttons and says
	// where the game went).
	h.countMessages(g.ID(), n+1, "boards", func(m telegramtest.ChatMessage) bool {
		return strings.Contains(m.Content(), "To move: ") || strings.Contains(m.Content(), "moved to the board below")
	})

	m.Open()
	h.waitMsg(g.ID(), "the AI's move", func(m telegramtest.ChatMessage) bool {
		return gameID(m) != "" && toMove(m, render.WhiteDisc+" Alice")
	})
	h.stop() // every update handled
	if got := m.Count(first); got != 1 {
		t.Fatalf("the position was searched %d times during the flood, want once", got)
	}
}

// User A keeps the only AI worker busy and more searches queued (AI games in several groups);
// user B's reply starts as soon as one of A's searches ends.
func TestAIFairBetweenUsers(t *testing.T) {
	m := gametest.NewHeldMover()
	h := newHarness(t, func(o *options) { o.Mover = m; o.AIWorkers = 1 })
	t.Cleanup(func() { close(m.Stop) }) // before the bot stops
	alice, bob := h.user("Alice", "en"), h.user("Bob", "en")
	pool := h.pool
	const games = 4
	for i := range games {
		g := h.srv.NewGroup("Club "+strconv.Itoa(i), alice)
		h.send(alice, g.ID(), "/ai 8 2 white")
		if i == 0 {
			if s := m.Next(t); s != "level 2" {
				t.Fatalf("first search: %s", s)
			}
		}
	}
	gametest.Until(t, "A's searches wait", func() bool { return pool.Waiting() == games-1 })
	h.send(bob, bob.ID(), "/ai 8 1 white")
	gametest.Until(t, "B's search waits", func() bool { return pool.Waiting() == games })

	m.Release <- struct{}{} // one of A's searches ends
	if s := m.Next(t); s != "level 1" {
		t.Fatalf("after one of A's searches ended, a %s search started; want B's level-1 reply", s)
	}
	for range games {
		m.Release <- struct{}{}
	}
	for range games - 1 {
		m.Next(t)
	}
	h.waitMsg(bob.ID(), "the AI's reply to B", func(m telegramtest.ChatMessage) bool {
		return gameID(m) != "" && toMove(m, render.WhiteDisc+" Bob")
	})
}
