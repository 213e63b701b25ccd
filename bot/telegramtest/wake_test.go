package telegramtest_test

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/botapi"
	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/game/gametest"
)

// TestWaitChatWokenOnlyByItsChat checks that a WaitChat is woken by changes of its own
// chat and not by those of other chats, and that it ends on the change it waits for.
func TestWaitChatWokenOnlyByItsChat(t *testing.T) {
	srv := telegramtest.Start(t)
	b := client(t, srv)
	ctx := guard(t)
	alice := started(t, srv, "Alice", "en")
	bob := started(t, srv, "Bob", "en")

	var calls atomic.Int32
	waiting := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- srv.WaitChat(ctx, alice.ID(), func(v telegramtest.View) bool {
			if calls.Add(1) == 1 {
				close(waiting)
			}
			m, ok := v.LastMessage(alice.ID())
			return ok && m.Text == "for Alice"
		})
	}()
	<-waiting
	for i := range 20 {
		if _, err := b.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: bob.ID(), Text: "for Bob " + strconv.Itoa(i)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := b.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: alice.ID(), Text: "for Alice"}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("WaitChat = %v", err)
	}
	// The first check, then one per change of Alice's chat (her message). Twenty changes
	// of Bob's chat must not have run the predicate.
	if n := calls.Load(); n != 2 {
		t.Errorf("the predicate ran %d times, want 2", n)
	}

	cctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := srv.WaitChat(cctx, alice.ID(), func(telegramtest.View) bool { return false }); !errors.Is(err, context.Canceled) {
		t.Errorf("WaitChat on a cancelled context = %v", err)
	}
	srv.Close()
	if err := srv.WaitChat(context.Background(), alice.ID(), func(telegramtest.View) bool { return false }); !errors.Is(err, telegramtest.ErrClosed) {
		t.Errorf("WaitChat after Close = %v, want ErrClosed", err)
	}
}

// TestWaitChatSeesEditsAndDeletes checks that edits and deletions wake a WaitChat.
func TestWaitChatSeesEditsAndDeletes(t *testing.T) {
	srv, b, ctx, u := startedAlice(t)
	sent, err := b.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: u.ID(), Text: "v1", ReplyMarkup: botapi.Markup(keyboard(1, 1))})
	if err != nil {
		t.Fatal(err)
	}
	edited := make(chan error, 1)
	go func() {
		edited <- srv.WaitChat(ctx, u.ID(), func(v telegramtest.View) bool {
			m, ok := v.Peek(u.ID(), sent.ID)
			return ok && m.Text == "v2"
		})
	}()
	if _, err := b.EditMessageText(ctx, &tgbot.EditMessageTextParams{ChatID: u.ID(), MessageID: sent.ID, Text: "v2"}); err != nil {
		t.Fatal(err)
	}
	if err := <-edited; err != nil {
		t.Fatalf("WaitChat for the edit = %v", err)
	}
	deleted := make(chan error, 1)
	go func() {
		deleted <- srv.WaitChat(ctx, u.ID(), func(v telegramtest.View) bool {
			_, ok := v.Peek(u.ID(), sent.ID)
			return !ok
		})
	}()
	if _, err := b.DeleteMessage(ctx, &tgbot.DeleteMessageParams{ChatID: u.ID(), MessageID: sent.ID}); err != nil {
		t.Fatal(err)
	}
	if err := <-deleted; err != nil {
		t.Fatalf("WaitChat for the deletion = %v", err)
	}
}

// TestPeekAndMessagesSince checks the cheap readers against Message and Messages.
func TestPeekAndMessagesSince(t *testing.T) {
	srv, b, ctx, u := startedAlice(t)
	var ids []int
	for i := range 4 {
		sent, err := b.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: u.ID(), Text: "m" + strconv.Itoa(i), ReplyMarkup: botapi.Markup(keyboard(2, 2))})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, sent.ID)
	}
	if _, err := b.DeleteMessage(ctx, &tgbot.DeleteMessageParams{ChatID: u.ID(), MessageID: ids[2]}); err != nil {
		t.Fatal(err)
	}
	got := srv.MessagesSince(u.ID(), ids[0])
	if len(got) != 2 || got[0].ID != ids[1] || got[1].ID != ids[3] || got[1].Text != "m3" {
		t.Fatalf("MessagesSince(after %d) = %+v, want messages %d and %d", ids[0], got, ids[1], ids[3])
	}
	if all, since := srv.Messages(u.ID()), srv.MessagesSince(u.ID(), 0); len(all) != len(since) {
		t.Errorf("MessagesSince(0) has %d messages, Messages %d", len(since), len(all))
	}
	if got := srv.MessagesSince(u.ID(), ids[3]); len(got) != 0 {
		t.Errorf("MessagesSince(the last) = %+v", got)
	}
	if got := srv.MessagesSince(-1, 0); got != nil {
		t.Errorf("MessagesSince(no chat) = %+v", got)
	}
	p, ok := srv.Peek(u.ID(), ids[1])
	m, _ := srv.Message(u.ID(), ids[1])
	if !ok || p.Text != m.Text || p.ButtonCount() != 4 || p.Buttons()[1][0] != m.Buttons()[1][0] {
		t.Errorf("Peek = %+v, %v; Message = %+v", p, ok, m)
	}
	// A snapshot is the test's own; changing it changes nothing in the server.
	m.Markup.InlineKeyboard[0][0].Text = "changed"
	if again, _ := srv.Peek(u.ID(), ids[1]); again.Buttons()[0][0].Text == "changed" {
		t.Error("changing a Message snapshot changed the server's keyboard")
	}
	if _, ok := srv.Peek(u.ID(), ids[2]); ok {
		t.Error("Peek found a deleted message")
	}
}

// TestCallbackAnswerTime checks that an answer carries the server clock's time.
func TestCallbackAnswerTime(t *testing.T) {
	at := time.Unix(1_800_000_123, 0)
	srv, b, ctx, u := startedAlice(t, telegramtest.WithClock(gametest.NewClock(at).Now))
	if _, err := b.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: u.ID(), Text: "board", ReplyMarkup: botapi.Markup(keyboard(1, 1))}); err != nil {
		t.Fatal(err)
	}
	m, _ := srv.LastMessage(u.ID())
	qid, err := u.PressAt(m, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if a, _ := srv.CallbackAnswer(qid); a.Answered || !a.Time.IsZero() {
		t.Fatalf("unanswered query = %+v", a)
	}
	if _, err := b.AnswerCallbackQuery(ctx, &tgbot.AnswerCallbackQueryParams{CallbackQueryID: qid}); err != nil {
		t.Fatal(err)
	}
	a, err := srv.WaitCallbackAnswer(ctx, qid)
	if err != nil || !a.Time.Equal(at) {
		t.Fatalf("answer = %+v, %v; want Time %v", a, err, at)
	}
}

// TestJSONBodyWithKeyboardObject sends a request as a JSON object with the keyboard as a
// nested object (what a hand-built client sends) and reads it back.
func TestJSONBodyWithKeyboardObject(t *testing.T) {
	srv := telegramtest.Start(t)
	u := started(t, srv, "Alice", "en")
	body := `{"chat_id":` + strconv.FormatInt(u.ID(), 10) + `,"text":"line 1\nline \"2\"","reply_markup":{"inline_keyboard":[[{"text":"a","callback_data":"x"}]]}}`
	status, reply := postJSON(t, srv, "sendMessage", body)
	if status != 200 {
		t.Fatalf("sendMessage: %d %s", status, reply)
	}
	var got models.Message
	mustDecodeResult(t, reply, &got)
	m, ok := srv.LastMessage(u.ID())
	if !ok || m.Text != "line 1\nline \"2\"" || m.ButtonCount() != 1 || m.Buttons()[0][0].CallbackData != "x" {
		t.Fatalf("stored %+v", m)
	}
	if got.Text != m.Text || got.ReplyMarkup == nil || got.ReplyMarkup.InlineKeyboard[0][0].CallbackData != "x" {
		t.Fatalf("answered %+v", got)
	}
	status, reply = postJSON(t, srv, "sendMessage", `{"chat_id":`+strconv.FormatInt(u.ID(), 10)+`,"text":"x","reply_markup":{"inline_keyboard":[[{"text":"a","callback_data":"`+string(make([]byte, 0))+`"}]]}}`)
	if status != 400 || !json.Valid(reply) {
		t.Fatalf("an empty callback_data: %d %s", status, reply)
	}
	wantErr(t, errors.New(string(reply)), "BUTTON_DATA_INVALID")
}

// postJSON posts body as a JSON request and returns the status and body.
func postJSON(t *testing.T, srv *telegramtest.Server, method, body string) (int, []byte) {
	t.Helper()
	return post(t, srv, srv.Token(), method, "application/json", strings.NewReader(body))
}
