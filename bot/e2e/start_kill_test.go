package e2e_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/game"
)

// TestBotKilledMidStart runs the real reversibot binary (long polling) against the fake Bot
// API and a Redis reached through the test's proxy, and SIGKILLs it in the middle of /ai, each
// time restarting it on the same Redis:
//
//   - before the start script reached Redis: nothing of the game exists, /board says so, and
//     /ai again starts it;
//   - after Redis ran the script, before the process heard back: the game exists, bound to the
//     chat, so /board after the restart posts its board and another /ai is refused.
//
// Either way the store holds nothing of the step or all of it: never a game the chat does not
// show.
func TestBotKilledMidStart(t *testing.T) {
	ctx := context.Background()
	c, proxy, prefix, run := killableBot(t)
	st := c.stores[0]
	send := func(u *telegramtest.Person, text string) int {
		last := c.lastID(u.ID())
		if _, err := u.Send(u.ID(), text); err != nil {
			t.Fatal(err)
		}
		return last
	}
	board := func(u *telegramtest.Person, after int) telegramtest.ChatMessage {
		return c.waitMsg(u.ID(), "a board", after, func(m telegramtest.ChatMessage) bool { return gameID(m) != "" })
	}

	p := run()
	ann := c.user("Ann")
	chatKey := prefix + "{g}c:" + fmt.Sprint(ann.ID())

	// 1. Killed before the start reached Redis.
	hold := proxy.hold(holdRequest, chatKey)
	send(ann, "/ai 8 1 black")
	waitHeld(t, hold, "the start script")
	if err := c.srv.WaitIdle(guard(t)); err != nil { // the update is taken: the kill loses it
		t.Fatal(err)
	}
	p.kill()
	if g, err := st.GameByChat(ctx, ann.ID()); !errors.Is(err, game.ErrNotFound) {
		t.Fatalf("after a kill before the start: the chat shows %v (%v), want nothing", g, err)
	}
	p = run()
	last := send(ann, "/board")
	c.waitMsg(ann.ID(), "no game", last, func(m telegramtest.ChatMessage) bool { return strings.Contains(m.Content(), "no game here") })
	first := board(ann, send(ann, "/ai 8 1 black"))
	send(ann, "/resign")
	err := c.srv.WaitFor(guard(t), func(v telegramtest.View) bool {
		m, ok := v.Message(first.ChatID, first.ID)
		return ok && strings.Contains(m.Content(), "Aborted") // no move made: aborted
	})
	if err != nil {
		t.Fatalf("the board never showed the resignation: %v", err)
	}

	// 2. Killed after Redis ran the start, before the reply reached the process.
	hold = proxy.hold(holdReply, chatKey)
	send(ann, "/ai 8 1 black")
	waitHeld(t, hold, "the reply to the start script")
	if err := c.srv.WaitIdle(guard(t)); err != nil {
		t.Fatal(err)
	}
	p.kill()
	g, err := st.GameByChat(ctx, ann.ID())
	if err != nil || g.Status != game.StatusPlaying || g.ID == gameID(first) {
		t.Fatalf("after a kill past the start: the chat shows %v (%v), want the new game in play", g, err)
	}
	p = run()
	if b := board(ann, send(ann, "/board")); gameID(b) != g.ID {
		t.Fatalf("/board after the restart posted game %s, want %s", gameID(b), g.ID)
	}
	last = send(ann, "/ai 8 1 black")
	c.waitMsg(ann.ID(), "the refusal", last, func(m telegramtest.ChatMessage) bool {
		return strings.Contains(m.Content(), "already going on")
	})
	p.stop()
}
