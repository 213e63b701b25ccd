package bot_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reversibot/reversi/bot/botapi"
	"github.com/reversibot/reversi/bot/telegramtest"
)

// paceLog records the pace kind (botapi.WithPaceKind) of every sendMessage the bot makes.
type paceLog struct {
	next http.RoundTripper
	mu   sync.Mutex
	sent []botapi.PaceKind
}

func (l *paceLog) RoundTrip(r *http.Request) (*http.Response, error) {
	if strings.HasSuffix(r.URL.Path, "/sendMessage") {
		l.mu.Lock()
		l.sent = append(l.sent, botapi.PaceKindOf(r.Context()))
		l.mu.Unlock()
	}
	return l.next.RoundTrip(r)
}

// newPaceLog returns a paceLog over a transport of its own, whose idle connections are
// closed once the test's bot has stopped (the cleanup runs after the harness's).
func newPaceLog(t *testing.T) *paceLog {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	t.Cleanup(tr.CloseIdleConnections)
	return &paceLog{next: tr}
}

// since returns the kinds recorded after the first n.
func (l *paceLog) since(n int) []botapi.PaceKind {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]botapi.PaceKind(nil), l.sent[n:]...)
}

func (l *paceLog) len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.sent)
}

const remindAfter = 10 * time.Minute

// withReminders turns the turn reminders on (after remindAfter, sent by Reminders.Now, the loop
// polling too seldom to matter) and records the pace kinds of the bot's sendMessage calls.
func withReminders(log *paceLog) func(*options) {
	return func(o *options) {
		o.HTTPClient = &http.Client{Transport: log, Timeout: time.Minute}
		o.Reminders, o.RemindAfter, o.RemindPoll = o.Store, remindAfter, time.Hour
	}
}

// reminders returns the turn reminders among msgs, in either language.
func reminders(msgs []telegramtest.ChatMessage) []telegramtest.ChatMessage {
	var out []telegramtest.ChatMessage
	for _, m := range msgs {
		if c := m.Content(); strings.Contains(c, "it is your move in the game against") || strings.Contains(c, "ваш ход! Соперник") {
			out = append(out, m)
		}
	}
	return out
}

// remindNow has the bot send the reminders due and checks how many it sent, each paced as an
// info.
func (h *harness) remindNow(log *paceLog, want int) {
	h.t.Helper()
	n0 := log.len()
	n, err := h.b.Reminders.Now(h.guard())
	if err != nil || n != want {
		h.t.Fatalf("Reminders.Now sent %d reminders (%v), want %d", n, err, want)
	}
	for _, k := range log.since(n0) {
		if k != botapi.PaceInfo {
			h.t.Errorf("a reminder was paced as %v, want %v", k, botapi.PaceInfo)
		}
	}
}

// TestTurnRemindersGroup: in a group game the player to move gets one reminder that mentions
// exactly them once they have not moved for RemindAfter, not before, at most one per turn,
// also after a restart of the bot; their move deletes it, and the next turn's reminder
// mentions the other player. An AI game in the group gets none.
func TestTurnRemindersGroup(t *testing.T) {
	log := newPaceLog(t)
	h := newHarness(t, withReminders(log))
	alice, bob := h.user("Alice", "en"), h.user("Боб 🦊", "ru")
	players := map[int64]*telegramtest.Person{alice.ID(): alice, bob.ID(): bob}
	g := h.srv.NewGroup("Club", alice, bob)
	lobby := h.openLobby(alice, g.ID())
	board := h.boardAfter(g.ID(), func() { h.press(bob, lobby, "✅ Join") })
	toMove := mentioned(t, board)[0]

	h.remindNow(log, 0) // not due yet
	h.clock.Add(remindAfter - 2*time.Second)
	h.remindNow(log, 0)
	// The reminder is in the store: a new process sends it.
	h.stop()
	h.start()
	h.clock.Add(2 * time.Second)
	h.remindNow(log, 1)
	rs := reminders(h.srv.BotMessages(g.ID()))
	if len(rs) != 1 {
		t.Fatalf("%d reminders in the group:%s", len(rs), dump(rs))
	}
	first := rs[0]
	if ids := first.Mentions(); len(ids) != 1 || ids[0] != toMove ||
		!strings.HasPrefix(first.Content(), players[toMove].Model().FirstName+", ") {
		t.Fatalf("the reminder mentions %v, want %d:%s", ids, toMove, dump(rs))
	}
	if name := telegramtest.EntityText(first.Content(), first.Entities[0]); name != players[toMove].Model().FirstName {
		t.Fatalf("the mention covers %q", name)
	}
	// At most one per turn, however long the turn lasts.
	h.clock.Add(3 * remindAfter)
	h.remindNow(log, 0)

	// The player moves: the reminder goes, the other player's turn has its own.
	cur := h.current(board)
	if a := h.pressData(players[toMove], cur, legalMoves(cur)[0].CallbackData); !applied(a) {
		t.Fatalf("move answered %q", a.Text)
	}
	h.waitState(board, "the board after the move", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 1 })
	if err := h.srv.WaitFor(h.guard(), func(v telegramtest.View) bool {
		_, ok := v.Message(g.ID(), first.ID)
		return !ok
	}); err != nil {
		t.Fatalf("the reminder of the turn played is still there:%s", dump(reminders(h.srv.BotMessages(g.ID()))))
	}
	h.remindNow(log, 0)
	h.clock.Add(remindAfter)
	h.remindNow(log, 1)
	rs = reminders(h.srv.BotMessages(g.ID()))
	if len(rs) != 1 || len(rs[0].Mentions()) != 1 || rs[0].Mentions()[0] == toMove {
		t.Fatalf("after the move, reminders:%s (the mover was %d)", dump(rs), toMove)
	}
	if !strings.Contains(rs[0].Content(), "последний ход") && !strings.Contains(rs[0].Content(), "was played") {
		t.Errorf("the reminder does not name the last move: %q", rs[0].Content())
	}

	// The waiting player claims the win: the game is over, and so is its reminder.
	second := rs[0]
	h.clock.Add(2 * time.Hour)
	if a := h.press(players[toMove], h.current(board), "⏰ Claim win"); a.ShowAlert {
		t.Fatalf("claim answered %q", a.Text)
	}
	h.waitState(board, "the claimed win", finished)
	if err := h.srv.WaitFor(h.guard(), func(v telegramtest.View) bool {
		_, ok := v.Message(g.ID(), second.ID)
		return !ok
	}); err != nil {
		t.Fatalf("the reminder of a finished game is still there:%s", dump(reminders(h.srv.BotMessages(g.ID()))))
	}
	h.remindNow(log, 0)

	// An AI game in another group: no reminder ever.
	g2 := h.srv.NewGroup("Solo", alice)
	ai := h.aiBoard(alice, g2.ID(), "/ai@"+telegramtest.DefaultBotUsername+" 8 2 black")
	h.pressData(alice, ai, legalMoves(ai)[0].CallbackData)
	h.waitState(ai, "the AI's reply", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 2 })
	h.clock.Add(3 * remindAfter)
	h.remindNow(log, 0) // and the people game's turn was reminded already
	if rs := reminders(h.srv.BotMessages(g2.ID())); len(rs) != 0 {
		t.Fatalf("reminders in an AI game:%s", dump(rs))
	}
}

// TestTurnRemindersInline: in an inline game the player to move is reminded in their private
// chat with the bot, in their language, by a message that mentions them; the next reminder
// there (of their next turn) replaces it.
func TestTurnRemindersInline(t *testing.T) {
	log := newPaceLog(t)
	h := newHarness(t, withReminders(log))
	alice, bob := h.user("Alice", "en"), h.user("Боб 🦊", "ru")
	players := map[int64]*telegramtest.Person{alice.ID(): alice, bob.ID(): bob}
	chat := h.srv.NewGroup("Chat", alice, bob)
	post := h.postInline(alice, 8, chat.ID())
	join, _ := post.ButtonAt(0, 0)
	h.pressData(bob, post, join.CallbackData)
	board := h.waitState(post, "the board in the post", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 0 })
	var last = map[int64]telegramtest.ChatMessage{}
	for ply := 0; ply < 3; ply++ {
		cur := h.waitState(board, "the board", func(m telegramtest.ChatMessage) bool { return boardPly(m) == ply })
		toMove := mentioned(t, cur)[0]
		h.clock.Add(remindAfter)
		h.remindNow(log, 1)
		rs := reminders(h.srv.BotMessages(toMove))
		if len(rs) != 1 || len(rs[0].Mentions()) != 1 || rs[0].Mentions()[0] != toMove {
			t.Fatalf("ply %d: reminders in the private chat of %d:%s", ply, toMove, dump(rs))
		}
		if toMove == bob.ID() && !strings.Contains(rs[0].Content(), "ваш ход") {
			t.Errorf("Bob's reminder is not in Russian: %q", rs[0].Content())
		}
		if prev, ok := last[toMove]; ok && prev.ID == rs[0].ID {
			t.Fatalf("ply %d: the old reminder was not replaced", ply)
		}
		last[toMove] = rs[0]
		if rs := reminders(h.srv.BotMessages(chat.ID())); len(rs) != 0 {
			t.Fatalf("a reminder in the chat of the inline message:%s", dump(rs))
		}
		if a := h.pressData(players[toMove], cur, legalMoves(cur)[0].CallbackData); !applied(a) {
			t.Fatalf("move answered %q", a.Text)
		}
		// The move deletes the reminder of the turn it ended (once it has scheduled the next).
		if err := h.srv.WaitFor(h.guard(), func(v telegramtest.View) bool {
			_, ok := v.Message(toMove, rs[0].ID)
			return !ok
		}); err != nil {
			t.Fatalf("ply %d: the reminder of the turn played is still there", ply)
		}
	}
}

// TestTurnRemindersLoop: the bot's own loop sends a reminder once it is due, without anyone
// calling Reminders.Now, and stops with the bot (goleak checks in TestMain).
func TestTurnRemindersLoop(t *testing.T) {
	log := newPaceLog(t)
	h := newHarness(t, withReminders(log), func(o *options) { o.RemindPoll = 5 * time.Millisecond })
	alice, bob := h.user("Alice", "en"), h.user("Bob", "en")
	g := h.srv.NewGroup("Club", alice, bob)
	lobby := h.openLobby(alice, g.ID())
	board := h.boardAfter(g.ID(), func() { h.press(bob, lobby, "✅ Join") })
	toMove := mentioned(t, board)[0]
	h.clock.Add(remindAfter) // the reminder's due time was taken when the game began
	m := h.waitMsg(g.ID(), "the reminder", func(m telegramtest.ChatMessage) bool { return len(reminders([]telegramtest.ChatMessage{m})) == 1 })
	if ids := m.Mentions(); len(ids) != 1 || ids[0] != toMove {
		t.Fatalf("the loop's reminder mentions %v, want %d", ids, toMove)
	}
}

// TestTurnRemindersInlineNoChat: a player of an inline game who never wrote to the bot cannot
// be reminded in private: nothing is sent, and the turn is not reminded again later.
func TestTurnRemindersInlineNoChat(t *testing.T) {
	log := newPaceLog(t)
	h := newHarness(t, withReminders(log))
	alice := h.user("Alice", "en")
	bob := h.srv.NewUser("Bob", "en") // never wrote to the bot
	chat := h.srv.NewGroup("Chat", alice, bob)
	post := h.postInline(alice, 8, chat.ID())
	join, _ := post.ButtonAt(0, 0)
	h.pressData(bob, post, join.CallbackData)
	board := h.waitState(post, "the board in the post", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 0 })
	if mentioned(t, board)[0] != bob.ID() {
		// Alice is black: she moves, and it is Bob's turn.
		if a := h.pressData(alice, board, legalMoves(board)[0].CallbackData); !applied(a) {
			t.Fatalf("move answered %q", a.Text)
		}
		h.waitState(post, "Bob's turn", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 1 })
		h.stop() // the move's reminder is scheduled before the bot stops
		h.start()
	}
	h.clock.Add(remindAfter)
	h.remindNow(log, 0)
	if !strings.Contains(h.logs.String(), "turn reminder: send") {
		t.Errorf("no attempt to remind Bob was logged")
	}
	h.clock.Add(remindAfter)
	h.remindNow(log, 0)
	if rs := reminders(h.srv.BotMessages(chat.ID())); len(rs) != 0 {
		t.Fatalf("a reminder in the chat of the inline message:%s", dump(rs))
	}
}

// TestTurnReminderOfAnEarlierTurn: a reminder scheduled for a turn that is over (the move's
// own schedule has not reached the store yet) reminds no one; the current turn's does.
func TestTurnReminderOfAnEarlierTurn(t *testing.T) {
	log := newPaceLog(t)
	h := newHarness(t, withReminders(log))
	alice, bob := h.user("Alice", "en"), h.user("Bob", "en")
	players := map[int64]*telegramtest.Person{alice.ID(): alice, bob.ID(): bob}
	g := h.srv.NewGroup("Club", alice, bob)
	lobby := h.openLobby(alice, g.ID())
	board := h.boardAfter(g.ID(), func() { h.press(bob, lobby, "✅ Join") })
	id, start := gameID(board), h.clock.Now()
	h.clock.Add(time.Minute)
	if a := h.pressData(players[mentioned(t, board)[0]], board, legalMoves(board)[0].CallbackData); !applied(a) {
		t.Fatalf("move answered %q", a.Text)
	}
	h.waitState(board, "the board after the move", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 1 })
	h.stop() // the move's schedule has landed
	// As if it had not: only the first turn's reminder is in the store.
	if _, err := h.store.ScheduleReminder(h.guard(), id, start.Add(remindAfter)); err != nil {
		t.Fatal(err)
	}
	h.start()
	h.clock.Add(remindAfter + time.Minute)
	h.remindNow(log, 0)
	// The move's schedule lands late: its reminder goes.
	if _, err := h.store.ScheduleReminder(h.guard(), id, start.Add(time.Minute+remindAfter)); err != nil {
		t.Fatal(err)
	}
	h.remindNow(log, 1)
}
