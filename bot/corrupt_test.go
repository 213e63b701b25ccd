package bot_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/storage"
)

// setAsideText is in the English answer to any step on a game whose record cannot be read.
const setAsideText = "could not be read"

// plants are the two ways a stored game cannot be played.
var plants = []struct {
	name  string
	plant func(t *testing.T, g *game.Game) []byte
}{
	{"undecodable", func(*testing.T, *game.Game) []byte { return []byte("\x02garbage, not a game") }},
	{"illegal moves", func(t *testing.T, g *game.Game) []byte {
		g.Moves = append(g.Moves, g.Moves...) // every move again: the first repeat is on a taken square
		if len(g.Moves) == 0 {
			g.Moves = []byte{0x00} // a1 from the start flips nothing
		}
		data, err := storage.EncodeGame(g)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}},
}

// corrupt replaces the record of the game board m shows by a corrupt one, and returns the game's
// id and the bytes planted. It stops the bot for that (so no handler still at work writes the
// record after it) and starts a new one over the same store, as after a restart.
func (h *harness) corrupt(m telegramtest.ChatMessage, plant func(*testing.T, *game.Game) []byte) (string, []byte) {
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

// tapSetAside has u tap the first legal move of board, whose game's record cannot be read,
// and checks that u is told the game was set aside; where names the game in the failure.
func (h *harness) tapSetAside(where string, u *telegramtest.Person, board telegramtest.ChatMessage) {
	h.t.Helper()
	if a := h.pressData(u, board, legalMoves(board)[0].CallbackData); !a.ShowAlert || !strings.Contains(a.Text, setAsideText) {
		h.t.Errorf("tap on a corrupt %s game answered %+v", where, a)
	}
}

// stepsOnCorrupt, for each step, starts a game with newGame (at once: the chat is free),
// plants a corrupt record under it and has u take the step in chat: "tap" taps a move on its
// board, anything else is sent as a message. Each step is told the game was set aside, and the
// record is kept aside as planted with the log naming its key; where names the game in the
// failures.
func (h *harness) stepsOnCorrupt(where string, u *telegramtest.Person, chat int64, steps []string,
	newGame func() telegramtest.ChatMessage, plant func(*testing.T, *game.Game) []byte) {
	h.t.Helper()
	for _, step := range steps {
		board := newGame()
		id, planted := h.corrupt(board, plant)
		last := h.lastID(chat)
		if step == "tap" {
			h.tapSetAside(where, u, board)
		} else {
			h.send(u, chat, step)
			h.toldSetAside(chat, last)
		}
		h.wantSetAside(id, planted)
	}
}

// toldSetAside waits for the bot's answer in chat after message after.
func (h *harness) toldSetAside(chat int64, after int) {
	h.t.Helper()
	h.waitMsg(chat, "the game was set aside", func(m telegramtest.ChatMessage) bool {
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
			newAI := func() telegramtest.ChatMessage { return h.sendForBoard(alice, alice.ID(), "/ai 8 1 black") }
			h.stepsOnCorrupt("private", alice, alice.ID(), []string{"/board", "d3", "tap"}, newAI, p.plant)
			newAI()
		})

		t.Run(p.name+"/group", func(t *testing.T) {
			h := newHarness(t)
			alice, bob := h.user("Alice", "en"), h.user("Bob", "en")
			g := h.srv.NewGroup("Club", alice, bob)
			newGame := func() telegramtest.ChatMessage {
				lobby := h.openLobby(alice, g.ID())
				return h.boardAfter(g.ID(), func() { h.press(bob, lobby, "✅ Join") })
			}
			steps := []string{"/board@" + telegramtest.DefaultBotUsername, "/move d3", "tap"}
			h.stepsOnCorrupt("group", bob, g.ID(), steps, newGame, p.plant)
			newGame()
		})

		t.Run(p.name+"/inline", func(t *testing.T) {
			h := newHarness(t)
			alice, bob := h.user("Alice", "en"), h.user("Bob", "en")
			chat := h.srv.NewGroup("Chat", alice, bob)
			post := h.postInline(alice, 8, chat.ID())
			h.press(bob, post, "✅ Join")
			board := h.postBoard(post)
			id, planted := h.corrupt(board, p.plant)
			h.tapSetAside("inline", alice, board)
			h.wantSetAside(id, planted)
			if _, err := h.store.GameByInline(context.Background(), post.InlineID); !errors.Is(err, game.ErrNotFound) {
				t.Errorf("the inline message still has a game: %v", err)
			}
		})
	}
}
