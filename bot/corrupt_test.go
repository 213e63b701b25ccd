package bot_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/storage"
)

// setAsideText is in the English answer to any step on a game whose record cannot be read.
const setAsideText = "could not be read"

// plants are the two ways a stored game cannot be played.
var plants = []struct {
	name  string
	plant func(t *testing.T, g *storage.Game) []byte
}{
	{"undecodable", func(*testing.T, *storage.Game) []byte { return []byte("\x02garbage, not a game") }},
	{"illegal moves", func(t *testing.T, g *storage.Game) []byte {
		g.Moves = append(g.Moves, g.Moves...) // every move again: the first repeat is on a taken square
		if len(g.Moves) == 0 {
			g.Moves = []byte{0x00} // a1 from the start flips nothing
		}
		data, err := g.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		return data
	}},
}

// corrupt replaces the record of the game board m shows by a corrupt one, and returns the game's
// id and the bytes planted. It stops the bot for that (so no handler still at work writes the
// record after it) and starts a new one over the same store, as after a restart.
func (h *harness) corrupt(m telegramtest.Message, plant func(*testing.T, *storage.Game) []byte) (string, []byte) {
	h.t.Helper()
	t := h.t.(*testing.T)
	h.stop()
	defer h.start()
	id := gameID(m)
	g, err := h.store.Game(context.Background(), id)
	if err != nil {
		t.Fatalf("game %q of the board: %v", id, err)
	}
	data := plant(t, g)
	if err := h.store.PutGameRecord(context.Background(), id, data); err != nil {
		t.Fatal(err)
	}
	return id, data
}

// wantSetAside checks that the record of game id was kept aside as planted and that the log
// names the key it went to.
func (h *harness) wantSetAside(id string, planted []byte) {
	h.t.Helper()
	if data, err := h.store.AsideRecord(context.Background(), id); err != nil || !bytes.Equal(data, planted) {
		h.t.Fatalf("aside record of %s = %q, %v; want the planted %q", id, data, err, planted)
	}
	if key := h.store.AsideKey(id); !strings.Contains(h.logs.String(), key) {
		h.t.Fatalf("the log does not name %s:\n%s", key, h.logs.String())
	}
}

// toldSetAside waits for the bot's answer in chat after message after.
func (h *harness) toldSetAside(chat int64, after int) {
	h.t.Helper()
	h.waitMsg(chat, "the game was set aside", func(m telegramtest.Message) bool {
		return m.ID > after && strings.Contains(m.Content(), setAsideText)
	})
}

// TestCorruptGameFreesTheChat plants corrupt records (undecodable; decodable with illegal moves)
// under games in a private chat, a group and an inline message: /board, a typed move and a tap
// on the old board each get a clear answer, the record is kept aside as it was with the log
// naming its key, and a new game starts at once where the old one was.
func TestCorruptGameFreesTheChat(t *testing.T) {
	for _, p := range plants {
		t.Run(p.name+"/private", func(t *testing.T) {
			h := newHarness(t)
			alice := h.user("Alice", "en")
			newAI := func() telegramtest.Message {
				last := h.lastID(alice.ID())
				h.send(alice, alice.ID(), "/ai 8 1 black")
				return h.boardIn(alice.ID(), last)
			}
			for _, step := range []string{"/board", "d3", "tap"} {
				board := newAI() // starts at once: the chat is free
				id, planted := h.corrupt(board, p.plant)
				last := h.lastID(alice.ID())
				if step == "tap" {
					if a := h.pressData(alice, board, legalMoves(board)[0].CallbackData); !a.ShowAlert || !strings.Contains(a.Text, setAsideText) {
						t.Errorf("tap on a corrupt game answered %+v", a)
					}
				} else {
					h.send(alice, alice.ID(), step)
					h.toldSetAside(alice.ID(), last)
				}
				h.wantSetAside(id, planted)
			}
			newAI()
		})

		t.Run(p.name+"/group", func(t *testing.T) {
			h := newHarness(t)
			alice, bob := h.user("Alice", "en"), h.user("Bob", "en")
			g := h.srv.NewGroup("Club", alice, bob)
			newGame := func() telegramtest.Message {
				last := h.lastID(g.ID())
				h.send(alice, g.ID(), "/new@"+telegramtest.DefaultBotUsername)
				lobby := h.waitMsg(g.ID(), "a lobby", func(m telegramtest.Message) bool {
					return m.ID > last && strings.Contains(m.Content(), "wants to play Reversi") && m.Markup != nil
				})
				last = h.lastID(g.ID())
				h.press(bob, lobby, "✅ Join")
				return h.boardIn(g.ID(), last)
			}
			for _, step := range []string{"/board@" + telegramtest.DefaultBotUsername, "/move d3", "tap"} {
				board := newGame() // opens at once: the group is free
				id, planted := h.corrupt(board, p.plant)
				last := h.lastID(g.ID())
				if step == "tap" {
					if a := h.pressData(bob, board, legalMoves(board)[0].CallbackData); !a.ShowAlert || !strings.Contains(a.Text, setAsideText) {
						t.Errorf("tap on a corrupt group game answered %+v", a)
					}
				} else {
					h.send(bob, g.ID(), step)
					h.toldSetAside(g.ID(), last)
				}
				h.wantSetAside(id, planted)
			}
			newGame()
		})

		t.Run(p.name+"/inline", func(t *testing.T) {
			h := newHarness(t)
			alice, bob := h.user("Alice", "en"), h.user("Bob", "en")
			chat := h.srv.NewGroup("Chat", alice, bob)
			qid, err := alice.InlineQuery("")
			if err != nil {
				t.Fatal(err)
			}
			ans, err := h.srv.WaitInlineAnswer(h.guard(), qid)
			if err != nil {
				t.Fatal(err)
			}
			post, err := alice.ChooseInlineResult(inlineResult(t, ans, 8), chat.ID())
			if err != nil {
				t.Fatal(err)
			}
			h.press(bob, post, "✅ Join")
			board := h.waitState(post, "the board in the post", func(m telegramtest.Message) bool {
				return boardPly(m) == 0 && strings.Contains(m.Content(), "To move")
			})
			id, planted := h.corrupt(board, p.plant)
			if a := h.pressData(alice, board, legalMoves(board)[0].CallbackData); !a.ShowAlert || !strings.Contains(a.Text, setAsideText) {
				t.Errorf("tap on a corrupt inline game answered %+v", a)
			}
			h.wantSetAside(id, planted)
			if _, err := h.store.GameByInline(context.Background(), post.InlineID); !errors.Is(err, storage.ErrNotFound) {
				t.Errorf("the inline message still has a game: %v", err)
			}
		})
	}
}
