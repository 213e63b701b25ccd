package bot_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/render"
)

// seat is a player of a game between people and the board they look at.
type seat struct {
	u     *telegramtest.Person
	board telegramtest.ChatMessage
	name  string // as the status shows it, without the colour symbol
}

// colorOf returns the disc symbol the status gives name on board m.
func colorOf(t testing.TB, m telegramtest.ChatMessage, name string) string {
	t.Helper()
	for _, sym := range []string{render.BlackDisc, render.WhiteDisc} {
		if strings.Contains(m.Content(), sym+" "+name+" —") {
			return sym
		}
	}
	t.Fatalf("board does not name %s:%s", name, dump([]telegramtest.ChatMessage{m}))
	return ""
}

// playPeople plays a game between two people to the end (or maxTaps taps), each tapping
// the first legal move on their own board when the board says it is their turn, and checks
// after every move that all boards show the same ply. It returns the final boards.
func playPeople(h *harness, seats []seat, maxTaps int) []telegramtest.ChatMessage {
	h.t.Helper()
	who := make([]string, len(seats))
	for i, s := range seats {
		who[i] = colorOf(h.t, s.board, s.name) + " " + s.name
	}
	for taps := 0; taps < maxTaps; taps++ {
		cur := h.current(seats[0].board)
		if finished(cur) {
			break
		}
		mover := -1
		for i := range seats {
			if toMove(cur, who[i]) {
				mover = i
			}
		}
		if mover < 0 {
			h.t.Fatalf("nobody to move:%s", dump([]telegramtest.ChatMessage{cur}))
		}
		board := h.current(seats[mover].board)
		moves := legalMoves(board)
		if len(moves) == 0 {
			h.t.Fatalf("no legal move for %s:%s", who[mover], dump([]telegramtest.ChatMessage{board}))
		}
		ply := boardPly(board)
		if a := h.pressData(seats[mover].u, board, moves[0].CallbackData); a.ShowAlert {
			h.t.Fatalf("%s's move answered with alert %q", who[mover], a.Text)
		}
		for i, s := range seats {
			c := h.waitState(s.board, fmt.Sprintf("board after ply %d", ply), func(c telegramtest.ChatMessage) bool {
				return boardPly(c) == ply+1 || finished(c) && boardPly(c) >= ply+1
			})
			// A player's own keyboard board offers moves only while they may make them.
			if s.board.ChatID != s.u.ID() || c.Photo != nil || c.PhotoFileID != "" || finished(c) {
				continue
			}
			if marks, mine := len(legalMoves(c)) > 0, toMove(c, who[i]); marks != mine {
				h.t.Fatalf("%s's own board after ply %d marks moves: %v, their turn: %v:%s",
					s.name, ply+1, marks, mine, dump([]telegramtest.ChatMessage{c}))
			}
		}
	}
	out := make([]telegramtest.ChatMessage, len(seats))
	for i, s := range seats {
		out[i] = h.current(s.board)
	}
	return out
}

// boardIn waits for the game board the bot posts in chat after seq (a message with game
// buttons).
func (h *harness) boardIn(chat int64, after int) telegramtest.ChatMessage {
	h.t.Helper()
	return h.waitMsg(chat, "a board", func(m telegramtest.ChatMessage) bool {
		return m.ID > after && boardPly(m) >= 0 && !strings.Contains(m.Content(), "invite")
	})
}

// lastID is the id of the newest message of chat (0 when none).
func (h *harness) lastID(chat int64) int {
	if m, ok := h.srv.LastMessage(chat); ok {
		return m.ID
	}
	return 0
}

// joinedBoard has creator send cmd (a /new command) in their private chat and joiner open the
// invitation's "▶ Play" link, and returns the board the creator then gets.
func (h *harness) joinedBoard(creator, joiner *telegramtest.Person, cmd string) telegramtest.ChatMessage {
	h.t.Helper()
	h.send(creator, creator.ID(), cmd)
	invite := h.waitLobby(creator.ID(), "invites you to play")
	last := h.lastID(creator.ID())
	h.openLink(joiner, invite, "▶ Play")
	return h.boardIn(creator.ID(), last)
}

// openLink follows the deep link of a URL button as its user would (after a forward).
func (h *harness) openLink(u *telegramtest.Person, m telegramtest.ChatMessage, label string) {
	h.t.Helper()
	b, err := m.Button(label)
	if err != nil || b.URL == "" {
		h.t.Fatalf("no URL button %q: %v", label, err)
	}
	link, err := url.Parse(b.URL)
	if err != nil {
		h.t.Fatal(err)
	}
	h.send(u, u.ID(), "/start "+link.Query().Get("start"))
}

func TestInvite(t *testing.T) {
	for _, size := range []int{8, 12} {
		t.Run(fmt.Sprintf("%dx%d", size, size), func(t *testing.T) {
			h := newHarness(t)
			alice, bob := h.user("Alice", "en"), h.user("Bob", "ru")
			h.send(alice, alice.ID(), fmt.Sprintf("/new %d black", size))
			invite := h.waitLobby(alice.ID(), "invites you to play")
			if first := invite.Buttons()[0][0]; !strings.Contains(first.URL, "start=") {
				t.Fatalf("first button of the invite %+v is not a join link", first)
			}
			// The creator opening their own link is told to send it on.
			bobLast := h.lastID(bob.ID())
			h.openLink(alice, invite, "▶ Play")
			h.waitText(alice.ID(), "your own invitation")
			aliceLast := h.lastID(alice.ID())

			h.openLink(bob, invite, "▶ Play")
			ab, bb := h.boardIn(alice.ID(), aliceLast), h.boardIn(bob.ID(), bobLast)
			if ab.HasPhoto() != (size > 8) || bb.HasPhoto() != (size > 8) {
				t.Fatalf("boards photo = %v/%v for size %d", ab.HasPhoto(), bb.HasPhoto(), size)
			}
			if !strings.Contains(bb.Content(), "Ходит") {
				t.Errorf("Bob's board is not in Russian:%s", dump([]telegramtest.ChatMessage{bb}))
			}
			if colorOf(t, ab, "Alice") != render.BlackDisc {
				t.Errorf("Alice chose black but plays %s", colorOf(t, ab, "Alice"))
			}
			h.waitState(invite, "the invite marked started", func(m telegramtest.ChatMessage) bool {
				return strings.Contains(m.Content(), " vs ") && m.Markup == nil
			})
			maxTaps := 200
			if size > 8 {
				maxTaps = 12 // a start is enough on the big board: the flow is the same
			}
			final := playPeople(h, []seat{{alice, ab, "Alice"}, {bob, bb, "Bob"}}, maxTaps)
			if size == 8 {
				if !finished(final[0]) || !finished(final[1]) {
					t.Fatalf("game not over on both boards:%s", dump(final))
				}
				if boardPly(final[0]) != boardPly(final[1]) {
					t.Errorf("boards out of step at the end: %d vs %d", boardPly(final[0]), boardPly(final[1]))
				}
				// Results count: both appear in the leaderboard.
				h.send(alice, alice.ID(), "/top")
				top := h.waitText(alice.ID(), "Best players")
				if !strings.Contains(top.Text, "Alice") || !strings.Contains(top.Text, "Bob") {
					t.Errorf("top lacks the players: %q", top.Text)
				}
				// Rematch: Bob offers, Alice accepts; colours swap, both get new boards.
				aliceLast, bobLast = h.lastID(alice.ID()), h.lastID(bob.ID())
				rematchData, _ := final[0].Button("🔁 Rematch")
				h.press(bob, final[1], "🔁 Реванш")
				offered := h.waitState(final[0], "the offer on Alice's board", func(m telegramtest.ChatMessage) bool {
					_, err := m.Button("✅ Accept")
					return err == nil && strings.Contains(m.Content(), "Bob offers you a rematch")
				})
				h.press(alice, offered, "✅ Accept")
				ab2, bb2 := h.boardIn(alice.ID(), aliceLast), h.boardIn(bob.ID(), bobLast)
				if gameID(ab2) == gameID(ab) || gameID(ab2) != gameID(bb2) {
					t.Fatalf("rematch game ids %q %q (first %q)", gameID(ab2), gameID(bb2), gameID(ab))
				}
				if colorOf(t, ab2, "Alice") != render.WhiteDisc {
					t.Errorf("colours did not swap in the rematch")
				}
				// A second tap on Rematch (by Alice, on the button the board had) does not make
				// another game.
				before := h.lastID(alice.ID())
				qid, err := alice.PressData(alice.ID(), final[0].ID, rematchData.CallbackData)
				if err != nil {
					t.Fatal(err)
				}
				h.waitAnswer(qid)
				if got := h.lastID(alice.ID()); got != before {
					t.Errorf("second rematch tap posted another board")
				}
			} else {
				// Resign ends it for both.
				h.resign(alice, h.current(ab))
				h.waitState(bb, "resignation on Bob's board", func(m telegramtest.ChatMessage) bool {
					return strings.Contains(m.Content(), "сдача")
				})
			}
		})
	}
}

func TestGroup(t *testing.T) {
	for _, size := range []int{8, 10} {
		t.Run(fmt.Sprintf("%dx%d", size, size), func(t *testing.T) {
			h := newHarness(t)
			alice, bob, carol := h.user("Alice", "en"), h.user("Bob", "en"), h.user("Carol", "en")
			g := h.srv.NewGroup("Club", alice, bob, carol)
			h.send(alice, g.ID(), fmt.Sprintf("/new@%s %d", telegramtest.DefaultBotUsername, size))
			lobby := h.waitLobby(g.ID(), "wants to play Reversi")
			if b, ok := lobby.ButtonAt(0, 0); !ok || b.Text != "✅ Join" {
				t.Fatalf("first button of the lobby is %+v", b)
			}
			// A second lobby in the same group is refused.
			h.send(carol, g.ID(), "/new")
			h.waitText(g.ID(), "already going on here")
			last := h.lastID(g.ID())
			h.press(bob, lobby, "✅ Join")
			board := h.boardIn(g.ID(), last)
			if board.HasPhoto() != (size > 8) {
				t.Fatalf("group board photo = %v", board.HasPhoto())
			}
			// Carol, a spectator, taps: a toast (no alert to dismiss), nothing changes.
			moves := legalMoves(board)
			a := h.pressData(carol, board, moves[0].CallbackData)
			if a.ShowAlert || !strings.Contains(a.Text, "only the two players") {
				t.Errorf("spectator's tap answered %+v", a)
			}
			// So does a player out of turn.
			black := "Alice"
			if colorOf(t, board, "Bob") == render.BlackDisc {
				black = "Bob"
			}
			waiting := map[string]*telegramtest.Person{"Alice": bob, "Bob": alice}[black]
			a = h.pressData(waiting, board, moves[0].CallbackData)
			if a.ShowAlert || !strings.Contains(a.Text, "not your turn") {
				t.Errorf("out-of-turn tap answered %+v", a)
			}
			if cur := h.current(board); cur.Edits != board.Edits {
				t.Errorf("board changed after rejected taps")
			}
			maxTaps := 200
			if size > 8 {
				maxTaps = 10
			}
			final := playPeople(h, []seat{{alice, board, "Alice"}, {bob, board, "Bob"}}, maxTaps)
			if size == 8 && !finished(final[0]) {
				t.Fatalf("game not over:%s", dump(final))
			}
			// /top in the group lists the group's players.
			if size == 8 {
				h.send(carol, g.ID(), "/top@"+telegramtest.DefaultBotUsername)
				h.waitText(g.ID(), "Best players")
			}
		})
	}
}

func TestInline(t *testing.T) {
	for _, size := range []int{8, 16} {
		t.Run(fmt.Sprintf("%dx%d", size, size), func(t *testing.T) {
			h := newHarness(t, withPictures) // a large inline board is a picture
			alice, bob, carol := h.user("Alice", "en"), h.user("Bob", "en"), h.user("Carol", "en")
			chat := h.srv.NewGroup("Chat", alice, bob, carol) // stands in for a chat between people
			qid, err := alice.InlineQuery("")
			if err != nil {
				t.Fatal(err)
			}
			ans, err := h.srv.WaitInlineAnswer(h.guard(), qid)
			if err != nil {
				t.Fatal(err)
			}
			if len(ans.Results) != 4 {
				t.Fatalf("inline answer offers %d results, want one per size", len(ans.Results))
			}
			post, err := alice.ChooseInlineResult(inlineResult(t, ans, size), chat.ID())
			if err != nil {
				t.Fatal(err)
			}
			if post.InlineID == "" {
				t.Fatal("the post has no inline_message_id")
			}
			// Alice taps her own post: told to wait for a friend.
			a := h.press(alice, post, "✅ Join")
			if !strings.Contains(a.Text, "your own game") {
				t.Errorf("creator's join answered %q", a.Text)
			}
			h.press(bob, post, "✅ Join")
			board := h.waitState(post, "the board in the post", func(m telegramtest.ChatMessage) bool {
				return boardPly(m) == 0 && strings.Contains(m.Content(), "To move")
			})
			if size > 8 && !strings.HasPrefix(board.PhotoURL, "https://reversi.example/pic/") {
				t.Errorf("large inline board is not the bot's picture:%s", dump([]telegramtest.ChatMessage{board}))
			}
			moves := legalMoves(board)
			if a := h.pressData(carol, board, moves[0].CallbackData); a.ShowAlert || !strings.Contains(a.Text, "only the two players") {
				t.Errorf("spectator's tap answered %+v, want the toast that only the players move", a)
			}
			maxTaps := 200
			if size > 8 {
				maxTaps = 8
			}
			final := playPeople(h, []seat{{alice, board, "Alice"}, {bob, board, "Bob"}}, maxTaps)
			if size == 8 && !finished(final[0]) {
				t.Fatalf("inline game not over:%s", dump(final))
			}
			if size == 8 {
				// Rematch in the same message: Alice offers, Bob accepts there.
				h.press(alice, final[0], "🔁 Rematch")
				offered := h.waitState(post, "the offer in the post", func(m telegramtest.ChatMessage) bool {
					_, err := m.Button("✅ Accept")
					return err == nil
				})
				h.press(bob, offered, "✅ Accept")
				h.waitState(post, "the rematch in the post", func(m telegramtest.ChatMessage) bool {
					return boardPly(m) == 0 && gameID(m) != gameID(final[0]) && gameID(m) != ""
				})
			}
		})
	}
}

func TestFindAndCancel(t *testing.T) {
	h := newHarness(t)
	alice, bob, carol := h.user("Alice", "en"), h.user("Bob", "en"), h.user("Carol", "en")
	h.send(carol, carol.ID(), "/find 10")
	h.waitText(carol.ID(), "Looking for an opponent")
	h.send(carol, carol.ID(), "/cancel")
	h.waitText(carol.ID(), "no longer looking")

	h.send(alice, alice.ID(), "/find 10")
	h.waitText(alice.ID(), "Looking for an opponent")
	aliceLast, bobLast := h.lastID(alice.ID()), h.lastID(bob.ID())
	h.send(bob, bob.ID(), "/find 10")
	h.waitText(alice.ID(), "Opponent found: Bob")
	h.waitText(bob.ID(), "Opponent found: Alice")
	ab, bb := h.boardIn(alice.ID(), aliceLast), h.boardIn(bob.ID(), bobLast)
	if !ab.HasPhoto() || gameID(ab) != gameID(bb) {
		t.Fatalf("paired boards: photo %v, games %q %q", ab.HasPhoto(), gameID(ab), gameID(bb))
	}
	playPeople(h, []seat{{alice, ab, "Alice"}, {bob, bb, "Bob"}}, 6)
	// Carol is no longer queued: her next /find waits again rather than pairing.
	h.send(carol, carol.ID(), "/find 8")
	h.waitMsg(carol.ID(), "queued again", func(m telegramtest.ChatMessage) bool {
		return strings.Contains(m.Text, "Looking for an opponent on 8×8")
	})
	// /find 8 on the other side pairs at 8×8 and the game plays to the end.
	dave := h.user("Dave", "en")
	carolLast, daveLast := h.lastID(carol.ID()), h.lastID(dave.ID())
	h.send(dave, dave.ID(), "/find")
	cb, db := h.boardIn(carol.ID(), carolLast), h.boardIn(dave.ID(), daveLast)
	final := playPeople(h, []seat{{carol, cb, "Carol"}, {dave, db, "Dave"}}, 200)
	if !finished(final[0]) || !finished(final[1]) {
		t.Fatalf("match game not over:%s", dump(final))
	}
}
