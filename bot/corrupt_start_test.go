package bot_test

import (
	"testing"
)

// TestCorruptGameNewGameAtOnce: /ai in a private chat and /new in a group whose game in play
// cannot be read (undecodable; decodable with illegal moves) start the new game at once, with
// no step on the old one first: the old record is kept aside and the log names its key.
func TestCorruptGameNewGameAtOnce(t *testing.T) {
	for _, p := range plants {
		t.Run(p.name+"/ai", func(t *testing.T) {
			h := newHarness(t)
			alice := h.user("Alice", "en")
			id, planted := h.corrupt(h.sendForBoard(alice, alice.ID(), "/ai 8 1 black"), p.plant)
			if board := h.sendForBoard(alice, alice.ID(), "/ai 8 1 black"); gameID(board) == id {
				t.Fatalf("/ai showed the corrupt game %s", id)
			}
			h.wantSetAside(id, planted)
		})

		t.Run(p.name+"/group", func(t *testing.T) {
			h := newHarness(t)
			alice, bob := h.user("Alice", "en"), h.user("Bob", "en")
			g := h.srv.NewGroup("Club", alice, bob)
			lobby := h.openLobby(alice, g.ID())
			id, planted := h.corrupt(h.boardAfter(g.ID(), func() { h.press(bob, lobby, "✅ Join") }), p.plant)
			h.openLobby(alice, g.ID())
			h.wantSetAside(id, planted)
		})
	}
}
