package bot_test

import (
	"bytes"
	"image/gif"
	"image/png"
	"strings"
	"testing"

	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/render"
)

const reviewButton = "🔍 Review"

// waitReplay waits for the replay the bot sends into chat when a game ends, checks that it
// decodes as an animation of more frames than the game had moves (start, moves, end), and
// returns it.
func (h *harness) waitReplay(chat int64, moves int) telegramtest.ChatMessage {
	h.t.Helper()
	m := h.waitMsg(chat, "the replay", telegramtest.ChatMessage.HasAnimation)
	anim, err := gif.DecodeAll(bytes.NewReader(m.Animation))
	if err != nil {
		h.t.Fatalf("replay does not decode: %v", err)
	}
	if len(anim.Image) <= moves {
		h.t.Errorf("replay of %d moves has %d frames", moves, len(anim.Image))
	}
	if !strings.Contains(m.Caption, "🎞 The whole game: ⚫ ") {
		h.t.Errorf("replay caption %q", m.Caption)
	}
	return m
}

// waitReview waits for the review posted in chat: a chart with the costliest moves under it.
func (h *harness) waitReview(chat int64) telegramtest.ChatMessage {
	h.t.Helper()
	m := h.waitMsg(chat, "the review", func(m telegramtest.ChatMessage) bool {
		return m.HasPhoto() && strings.HasPrefix(m.Caption, "🔍 Review: ⚫ ")
	})
	if _, err := png.DecodeConfig(bytes.NewReader(m.Photo)); err != nil {
		h.t.Errorf("review chart does not decode: %v", err)
	}
	return m
}

// movesOf counts the moves of a finished board from its game record ("Moves: 1. c4 …").
func movesOf(m telegramtest.ChatMessage) int {
	_, rec, _ := strings.Cut(m.Content(), "Moves: ")
	rec, _, _ = strings.Cut(rec, "\n")
	n := 0
	for _, w := range strings.Fields(rec) {
		if !strings.HasSuffix(w, ".") && w != "…" && w != "pass" {
			n++
		}
	}
	return n
}

// TestReplayAndReviewOfAnAIGame: when a game against the AI ends, its replay arrives; Review
// under the final board says how long it will take, then posts the chart and the costliest
// moves in place of that note, once: another tap or /review points to it.
func TestReplayAndReviewOfAnAIGame(t *testing.T) {
	h := newHarness(t)
	alice := h.user("Alice", "en")
	board := h.aiBoard(alice, alice.ID(), "/ai 4x4 1 black")
	h.send(alice, alice.ID(), "/review")
	h.waitText(alice.ID(), "The game is still going.")

	final, _, _ := playToEnd(h, alice, board, render.BlackDisc+" Alice")
	h.waitReplay(alice.ID(), movesOf(final))

	before := h.lastID(alice.ID())
	if a := h.press(alice, final, reviewButton); a.ShowAlert || a.Text != "" {
		t.Fatalf("Review answered %+v", a)
	}
	note := h.waitMsg(alice.ID(), "the note that the review is under way", func(m telegramtest.ChatMessage) bool {
		return m.ID > before && strings.Contains(m.Content(), "Looking over the game: about ")
	})
	review := h.waitReview(alice.ID())
	if c := review.Caption; !strings.Contains(c, "Alice") ||
		strings.Count(c, "the costliest moves:")+strings.Count(c, "no costly move.") != 2 {
		t.Errorf("review caption does not judge both sides:\n%s", c)
	}
	if err := h.srv.WaitFor(h.guard(), func(v telegramtest.View) bool {
		_, ok := v.Message(alice.ID(), note.ID)
		return !ok
	}); err != nil {
		t.Errorf("the note that the review was under way is still there: %v", err)
	}
	if a := h.press(alice, final, reviewButton); !strings.Contains(a.Text, "here already") {
		t.Errorf("a second tap on Review answered %+v, want the review is here already", a)
	}
	h.send(alice, alice.ID(), "/review")
	h.waitText(alice.ID(), "The review of this game is here already")
	photos := 0
	for _, m := range h.srv.BotMessages(alice.ID()) {
		if m.HasPhoto() && strings.HasPrefix(m.Caption, "🔍 Review") {
			photos++
		}
	}
	if photos != 1 {
		t.Errorf("%d reviews posted, want 1", photos)
	}
}

// TestReviewRefusals: /review with no game, and after a game aborted before its first move
// (which has no Review button and no replay), gets a clear answer and no review.
func TestReviewRefusals(t *testing.T) {
	h := newHarness(t)
	alice := h.user("Alice", "en")
	h.send(alice, alice.ID(), "/review")
	h.waitText(alice.ID(), "There is no game here")

	board := h.aiBoard(alice, alice.ID(), "/ai 4x4 1 black")
	h.resign(alice, board)
	over := h.waitState(board, "the aborted game", aborted)
	if _, err := over.Button(reviewButton); err == nil {
		t.Errorf("an aborted game offers a review:%s", dump([]telegramtest.ChatMessage{over}))
	}
	last := h.lastID(alice.ID())
	h.send(alice, alice.ID(), "/review") // an aborted game frees the chat at once
	h.waitMsg(alice.ID(), "the answer to /review", func(m telegramtest.ChatMessage) bool {
		return m.ID > last && strings.Contains(m.Content(), "There is no game here")
	})
	for _, m := range h.srv.BotMessages(alice.ID()) {
		if m.HasAnimation() {
			t.Error("an aborted game got a replay")
		}
	}
}

// TestReviewInAGroup: in a group the replay and the review are posted once for everyone; a
// watcher's tap on Review after it is posted points to it.
func TestReviewInAGroup(t *testing.T) {
	h := newHarness(t)
	alice, bob, carol := h.user("Alice", "en"), h.user("Bob", "en"), h.user("Carol", "en")
	g := h.srv.NewGroup("Club", alice, bob, carol)
	h.send(alice, g.ID(), "/new@"+telegramtest.DefaultBotUsername+" 4x4")
	lobby := h.waitLobby(g.ID(), "wants to play Reversi")
	last := h.lastID(g.ID())
	h.press(bob, lobby, "✅ Join")
	board := h.boardIn(g.ID(), last)
	final := playPeople(h, []seat{{alice, board, "Alice"}, {bob, board, "Bob"}}, 100)
	if !finished(final[0]) {
		t.Fatalf("group game not over:%s", dump(final))
	}
	h.waitReplay(g.ID(), movesOf(final[0]))
	h.press(carol, final[0], reviewButton)
	h.waitReview(g.ID())
	if a := h.press(bob, final[0], reviewButton); !strings.Contains(a.Text, "here already") {
		t.Errorf("a second tap on Review in the group answered %+v", a)
	}
	replays := 0
	for _, m := range h.srv.BotMessages(g.ID()) {
		if m.HasAnimation() {
			replays++
		}
	}
	if replays != 1 {
		t.Errorf("%d replays in the group, want 1", replays)
	}
}

// TestReviewOfAnInlineGame: an inline message cannot take the review under it, so Review
// opens the bot's private chat by a deep link, where a player gets the replay and the review;
// anyone else who follows the link is refused.
func TestReviewOfAnInlineGame(t *testing.T) {
	h := newHarness(t)
	alice, bob, carol := h.user("Alice", "en"), h.user("Bob", "en"), h.user("Carol", "en")
	chat := h.srv.NewGroup("Chat", alice, bob, carol)
	post := h.postInline(alice, 8, chat.ID())
	h.press(bob, post, "✅ Join")
	board := h.waitState(post, "the board in the post", func(m telegramtest.ChatMessage) bool {
		return boardPly(m) == 0 && strings.Contains(m.Content(), "To move")
	})
	h.resignAfter(alice, bob, board, 4)
	over := h.waitState(post, "the end in the post", finished)
	a := h.press(bob, over, reviewButton)
	link := "https://t.me/" + telegramtest.DefaultBotUsername + "?start=rv" + gameID(over)
	if a.URL != link {
		t.Fatalf("Review on an inline game answered %+v, want the link %s", a, link)
	}
	h.send(carol, carol.ID(), "/start rv"+gameID(over))
	h.waitText(carol.ID(), "Only the two players of this game")
	h.send(bob, bob.ID(), "/start rv"+gameID(over))
	h.waitReplay(bob.ID(), 4)
	h.waitReview(bob.ID())
}

// resignAfter plays n moves of the game on board (a shared board: inline or group), the two
// players tapping the first legal move in turn, then the one to move resigns.
func (h *harness) resignAfter(a, b *telegramtest.Person, board telegramtest.ChatMessage, n int) {
	h.t.Helper()
	final := playPeople(h, []seat{{a, board, "Alice"}, {b, board, "Bob"}}, n)
	cur := final[0]
	for _, u := range []*telegramtest.Person{a, b} {
		if toMove(cur, colorOf(h.t, cur, u.Model().FirstName)+" "+u.Model().FirstName) {
			h.resign(u, cur)
			return
		}
	}
	h.t.Fatalf("nobody to move:%s", dump(final))
}

// TestForgedReviewTap: a Review tap whose data names another person's game, sent on a message
// of the tapper's own game, posts nothing of that game: the message shows only the game the
// bot put there.
func TestForgedReviewTap(t *testing.T) {
	var l *handledLog
	h := newHarness(t, withHandledLog(&l))
	alice, bob := h.user("Alice", "en"), h.user("Bob", "en")
	bobs, _, _ := playToEnd(h, bob, h.aiBoard(bob, bob.ID(), "/ai 4x4 1 black"), render.BlackDisc+" Bob")
	h.waitReplay(bob.ID(), movesOf(bobs))
	own, _, _ := playToEnd(h, alice, h.aiBoard(alice, alice.ID(), "/ai 4x4 1 black"), render.BlackDisc+" Alice")
	h.waitReplay(alice.ID(), movesOf(own))
	before := h.lastID(alice.ID())
	forged := callback.Data{Action: callback.ActionReview, Game: gameID(bobs)}.Encode()
	if a := h.forge(l, alice, own, forged); a.Text == "" {
		t.Errorf("a Review tap naming another game was answered as done: %+v", a)
	}
	// Her own Review still works, and is the only thing posted after the forged tap.
	h.press(alice, own, reviewButton)
	review := h.waitReview(alice.ID())
	for _, m := range h.srv.MessagesSince(alice.ID(), before) {
		if m.ID != review.ID && !strings.Contains(m.Content(), "Looking over the game") {
			t.Errorf("after a forged Review tap the chat got:%s", dump([]telegramtest.ChatMessage{m}))
		}
	}
	if !strings.Contains(review.Caption, "Alice") || strings.Contains(review.Caption, "Bob") {
		t.Errorf("the review posted is not of Alice's game:\n%s", review.Caption)
	}
}
