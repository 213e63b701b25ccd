package bot_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/game"
)

// Issue 12, item 2: who opened a game is never taken from callback data a client could make
// up. The Join button of an inline post names its creator; when no lobby exists yet for the
// message (inline feedback off, or a tap that beats chosen_inline_result) the bot opens one
// from that data only when the bot signed it.

const victimID = 4503599627370495 // a user id that never talked to the bot

// noGameOn fails the test when the inline message of post hosts a game.
func (h *harness) noGameOn(post telegramtest.ChatMessage) {
	h.t.Helper()
	if g, err := h.store.GameByInline(context.Background(), post.InlineID); !errors.Is(err, game.ErrNotFound) {
		h.t.Errorf("the inline post hosts game %+v (%v), want none", g, err)
	}
}

// unknown fails the test when the store has a profile of user id.
func (h *harness) unknown(id int64) {
	h.t.Helper()
	if known, err := h.store.Known(context.Background(), id); err != nil || known {
		h.t.Errorf("Known(%d) = %v, %v; want no profile", id, known, err)
	}
}

func TestForgedInlineCreator(t *testing.T) {
	var l *handledLog
	h := newHarness(t, withHandledLog(&l))
	h.srv.SetInlineFeedback(false)
	mallory, bob := h.user("Mallory", "en"), h.user("Bob", "en")
	chat := h.srv.NewGroup("Chat", mallory, bob)
	post := h.postInline(mallory, 8, chat.ID())
	genuine, err := callback.Parse(post.Buttons()[0][0].CallbackData)
	if err != nil {
		t.Fatal(err)
	}
	tag := "u" + strconv.FormatInt(victimID, 36)
	forged := []callback.Data{
		{Action: callback.ActionJoin, Game: tag, Arg: 8},                                                         // the old unsigned form
		{Action: callback.ActionJoin, Game: tag, Ply: genuine.Ply, Page: genuine.Page, Arg: 8, MAC: genuine.MAC}, // another's MAC
		{Action: callback.ActionJoin, Game: tag, Arg: 8, MAC: strings.Repeat("\x00", callback.MACLen)},
		{Action: callback.ActionJoin, Game: genuine.Game, Ply: genuine.Ply, Page: genuine.Page, Arg: 16, MAC: genuine.MAC}, // another size
	}
	for _, c := range forged {
		a := h.forge(l, mallory, post, c.Encode())
		if !a.ShowAlert || !strings.Contains(a.Text, "not valid") {
			t.Errorf("forged Join %+v answered %+v, want the invalid-invitation alert", c, a)
		}
		h.noGameOn(post)
	}
	h.unknown(victimID)
	if cur := h.current(post); cur.Edits != 0 {
		t.Errorf("the post was edited after forged taps:%s", dump([]telegramtest.ChatMessage{cur}))
	}

	// The genuine button still opens the lobby without chosen_inline_result: Bob joins and
	// plays Mallory.
	h.press(bob, post, "✅ Join")
	board := h.postBoard(post)
	g, err := h.store.GameByInline(context.Background(), post.InlineID)
	if err != nil {
		t.Fatal(err)
	}
	ids := []int64{g.Players[0].UserID, g.Players[1].UserID}
	if !(ids[0] == mallory.ID() && ids[1] == bob.ID() || ids[0] == bob.ID() && ids[1] == mallory.ID()) {
		t.Fatalf("the inline game's players are %v, want Mallory and Bob", ids)
	}
	if !strings.Contains(board.Content(), "Mallory") || !strings.Contains(board.Content(), "Bob") {
		t.Errorf("the board does not name both players:%s", dump([]telegramtest.ChatMessage{board}))
	}
	h.unknown(victimID)
}

// TestInvitationCopiedToAnotherPost: a genuine invitation, copied from the post it was made
// for onto another inline post with no lobby yet, opens nothing there; the original still
// works.
func TestInvitationCopiedToAnotherPost(t *testing.T) {
	for _, feedback := range []bool{true, false} {
		t.Run("feedback="+strconv.FormatBool(feedback), func(t *testing.T) {
			var l *handledLog
			h := newHarness(t, withHandledLog(&l))
			alice, bob, mallory := h.user("Alice", "en"), h.user("Bob", "en"), h.user("Mallory", "en")
			chat := h.srv.NewGroup("Chat", alice, bob, mallory)
			h.srv.SetInlineFeedback(feedback)
			original := h.postInline(alice, 8, chat.ID())
			data := original.Buttons()[0][0].CallbackData
			if feedback {
				l.wait(h, "chosen_inline_result", alice, 1) // it opened the lobby of the original
			} else {
				// Without feedback the first tap on the original opens its lobby.
				if a := h.press(alice, original, "✅ Join"); !strings.Contains(a.Text, "your own game") {
					t.Fatalf("Alice's tap on her post answered %q", a.Text)
				}
			}
			// Mallory's own post, which no lobby is open for yet (feedback off for it).
			h.srv.SetInlineFeedback(false)
			other := h.postInline(mallory, 8, chat.ID())
			if a := h.forge(l, mallory, other, data); !strings.Contains(a.Text, "not valid") {
				t.Errorf("the copied invitation answered %+v", a)
			}
			h.noGameOn(other)
			h.press(bob, original, "✅ Join")
			h.waitState(original, "the board in the original post", func(m telegramtest.ChatMessage) bool {
				return boardPly(m) == 0 && strings.Contains(m.Content(), "To move")
			})
		})
	}
}

// TestInvitationExpires: a post's invitation opens a lobby for a day after it was made.
func TestInvitationExpires(t *testing.T) {
	h := newHarness(t)
	h.srv.SetInlineFeedback(false)
	alice, bob := h.user("Alice", "en"), h.user("Bob", "en")
	chat := h.srv.NewGroup("Chat", alice, bob)
	post := h.postInline(alice, 8, chat.ID())
	h.clock.Add(24*time.Hour + time.Second)
	if a := h.press(bob, post, "✅ Join"); !a.ShowAlert || !strings.Contains(a.Text, "expired") {
		t.Errorf("a day-old invitation answered %+v", a)
	}
	h.noGameOn(post)
}
