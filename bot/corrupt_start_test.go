package bot_test

import (
	"strings"
	"testing"

	"github.com/reversibot/reversi/bot/telegramtest"
)

// TestCorruptGameNewGameAtOnce: /ai in a private chat and /new in a group whose game in play
// cannot be read (undecodable; decodable with illegal moves) start the new game at once, with
// no step on the old one first: the old record is kept aside and the log names its key.
func TestCorruptGameNewGameAtOnce(t *testing.T) {
	for _, p := range plants {
		t.Run(p.name+"/ai", func(t *testing.T) {
			h := newHarness(t)
			alice := h.user("Alice", "en")
			last := h.lastID(alice.ID())
			h.send(alice, alice.ID(), "/ai 8 1 black")
			id, planted := h.corrupt(h.boardIn(alice.ID(), last), p.plant)
			last = h.lastID(alice.ID())
			h.send(alice, alice.ID(), "/ai 8 1 black")
			if board := h.boardIn(alice.ID(), last); gameID(board) == id {
				t.Fatalf("/ai showed the corrupt game %s", id)
			}
			h.wantSetAside(id, planted)
		})

		t.Run(p.name+"/group", func(t *testing.T) {
			h := newHarness(t)
			alice, bob := h.user("Alice", "en"), h.user("Bob", "en")
			g := h.srv.NewGroup("Club", alice, bob)
			newLobby := func() telegramtest.Message {
				last := h.lastID(g.ID())
				h.send(alice, g.ID(), "/new@"+telegramtest.DefaultBotUsername)
				return h.waitMsg(g.ID(), "a lobby", func(m telegramtest.Message) bool {
					return m.ID > last && strings.Contains(m.Content(), "wants to play Reversi") && m.Markup != nil
				})
			}
			lobby := newLobby()
			last := h.lastID(g.ID())
			h.press(bob, lobby, "✅ Join")
			id, planted := h.corrupt(h.boardIn(g.ID(), last), p.plant)
			newLobby()
			h.wantSetAside(id, planted)
		})
	}
}
