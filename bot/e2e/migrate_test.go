package e2e_test

import (
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"

	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/engine"
)

// groupGame is a game in a group chat as its players see it: one board for both.
type groupGame struct {
	id    string
	chat  int64
	board telegramtest.ChatMessage
	users [2]*telegramtest.Person // black, white
	ref   *replica
	rng   *rand.Rand
}

// openGroupGame has a open a game in group chat and b join it, and returns it at ply 0.
func (c *cluster) openGroupGame(seed uint64, chat int64, a, b *telegramtest.Person) *groupGame {
	t := c.t
	t.Helper()
	last := c.lastID(chat)
	if _, err := a.Send(chat, "/new@"+telegramtest.DefaultBotUsername); err != nil {
		t.Fatal(err)
	}
	lobby := c.waitMsg(chat, "the lobby", last, func(m telegramtest.ChatMessage) bool { return m.Markup != nil })
	last = c.lastID(chat)
	if _, err := b.PressAt(lobby, 0, 0); err != nil { // the first button joins
		t.Fatal(err)
	}
	board := c.waitMsg(chat, "the board", last, func(m telegramtest.ChatMessage) bool { return boardPly(m) == 0 && gameID(m) != "" })
	return &groupGame{id: gameID(board), chat: chat, board: board, users: c.blackOf(board, a, b), ref: newReplica(t),
		rng: rand.New(rand.NewPCG(seed, 5))}
}

// pickGroup chooses the next move of g: the player to move, a legal square, and the board
// once it shows the moves so far.
func (c *cluster) pickGroup(g *groupGame) (*telegramtest.Person, engine.Square, telegramtest.ChatMessage) {
	c.t.Helper()
	legal := g.ref.legal()
	sq := legal[g.rng.IntN(len(legal))]
	g.board = c.waitPly(g.board, len(g.ref.moves))
	return g.users[g.ref.toMove()], sq, g.board
}

// groupStep plays one move of g and waits for the board to show it.
func (c *cluster) groupStep(g *groupGame) {
	c.t.Helper()
	u, sq, board := c.pickGroup(g)
	if ans := c.tap(u, board, sq); ans.ShowAlert {
		c.t.Fatalf("move %v refused: %q", sq, ans.Text)
	}
	g.ref.play(c.t, sq)
	g.board = c.waitPly(g.board, len(g.ref.moves))
}

// A basic group becomes a supergroup in the middle of a game, while a tap on its board is being
// handled, and the two service messages go to the two bots (each update to one bot in turn), in
// either order. The game, the group's language and its leaderboard move to the supergroup:
// the board is posted there once, the game goes on there to its end exactly as its reference
// replay, and /top there lists the players of both groups' games in the group's language.
// Every Bot API call succeeded but those on the old group, which Telegram refuses after the
// upgrade.
func TestSupergroupMidGame(t *testing.T) {
	for _, tc := range []struct {
		name  string
		order telegramtest.MigrateOrder
	}{{"old chat first", telegramtest.OldChatFirst}, {"new chat first", telegramtest.NewChatFirst}} {
		t.Run(tc.name, func(t *testing.T) {
			c := newClusterWith(t, redisURL(t), nil, healthyRedis)
			alice, bob := c.user("Alice"), c.user("Bob")
			grp := c.srv.NewBasicGroup("Club", alice, bob)
			last := c.lastID(grp.ID())
			if _, err := alice.Send(grp.ID(), "/lang@"+telegramtest.DefaultBotUsername+" ru"); err != nil {
				t.Fatal(err)
			}
			c.waitMsg(grp.ID(), "the language set", last, func(m telegramtest.ChatMessage) bool {
				return strings.Contains(m.Content(), "по-русски")
			})

			// A rated game for the group's leaderboard: each player moves, then the one to move
			// resigns.
			first := c.openGroupGame(1, grp.ID(), alice, bob)
			c.groupStep(first)
			c.groupStep(first)
			if _, err := first.users[first.ref.toMove()].Send(grp.ID(), "/resign@"+telegramtest.DefaultBotUsername); err != nil {
				t.Fatal(err)
			}
			c.waitMsg(grp.ID(), "the resigned board", 0, func(m telegramtest.ChatMessage) bool {
				return m.ID == first.board.ID && strings.Contains(m.Content(), "сдача")
			})

			g := c.openGroupGame(2, grp.ID(), alice, bob)
			for range 10 {
				c.groupStep(g)
			}
			u, sq, board := c.pickGroup(g)
			qid := c.press(u, board, sq)
			sg, err := grp.Upgrade(bob, tc.order)
			if err != nil {
				t.Fatal(err)
			}
			if ans, err := c.srv.WaitCallbackAnswer(guard(t), qid); err != nil || ans.ShowAlert {
				t.Fatalf("the tap during the upgrade: %+v, %v", ans, err)
			}
			g.ref.play(t, sq)
			g.chat = sg.ID()
			g.board = c.waitMsg(sg.ID(), "the board in the supergroup", 0, func(m telegramtest.ChatMessage) bool {
				return gameID(m) == g.id
			})
			for !g.ref.g.Over() {
				c.groupStep(g)
			}
			c.check(g.id, g.ref, g.board)

			last = c.lastID(sg.ID())
			if _, err := bob.Send(sg.ID(), "/top@"+telegramtest.DefaultBotUsername); err != nil {
				t.Fatal(err)
			}
			top := c.waitMsg(sg.ID(), "the leaderboard", last, func(m telegramtest.ChatMessage) bool {
				return strings.Contains(m.Content(), "Лучшие игроки этой группы")
			})
			if !strings.Contains(top.Content(), "Alice") || !strings.Contains(top.Content(), "Bob") {
				t.Fatalf("the supergroup's leaderboard:\n%s", top.Content())
			}
			if err := c.srv.WaitIdle(guard(t)); err != nil {
				t.Fatal(err)
			}
			c.stop()
			var boards []telegramtest.ChatMessage
			for _, m := range c.srv.BotMessages(sg.ID()) {
				if gameID(m) == g.id && !m.HasAnimation() {
					boards = append(boards, m)
				}
			}
			if len(boards) != 1 {
				t.Fatalf("the game's board was posted %d times in the supergroup, want once:%s", len(boards), dump(boards...))
			}
			for _, call := range c.srv.CallLog() {
				if call.Code != http.StatusOK && call.Code != http.StatusTooManyRequests &&
					!strings.Contains(call.Description, "message is not modified") &&
					!strings.Contains(call.Description, "upgraded to a supergroup") {
					t.Errorf("Bot API call %s failed: %d %s", call.Method, call.Code, call.Description)
				}
			}
			if n := strings.Count(c.logs.String(), "game moved"); n != 1 {
				t.Errorf("the game was moved %d times, want once", n)
			}
		})
	}
}
