package telegramtest_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"testing"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/botapi"
	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/game/gametest"
)

// floodServer starts a fake with flood limits lim on a virtual clock.
func floodServer(t *testing.T, lim telegramtest.FloodLimits) (*telegramtest.Server, *gametest.Clock) {
	t.Helper()
	clock := gametest.NewClock(time.Unix(1_800_000_000, 0))
	return telegramtest.Start(t, telegramtest.WithClock(clock.Now), telegramtest.WithFloodLimits(lim)), clock
}

// floodAnswer is a 429's body.
type floodAnswer struct {
	OK          bool   `json:"ok"`
	ErrorCode   int    `json:"error_code"`
	Description string `json:"description"`
	Parameters  struct {
		RetryAfter int `json:"retry_after"`
	} `json:"parameters"`
}

// send posts a sendMessage into chat and returns 0 on success or the 429's retry_after; any
// other answer fails the test.
func send(t *testing.T, srv *telegramtest.Server, chat int64) int {
	t.Helper()
	return call(t, srv, "sendMessage", url.Values{"chat_id": {fmt.Sprint(chat)}, "text": {"hi"}})
}

// call posts method and returns 0 on success or the 429's retry_after, checking that a 429
// reads as Telegram's; any other answer fails the test.
func call(t *testing.T, srv *telegramtest.Server, method string, params url.Values) int {
	t.Helper()
	status, body := raw(t, srv, method, params)
	if status == 200 {
		return 0
	}
	var a floodAnswer
	if err := json.Unmarshal(body, &a); err != nil || status != 429 || a.OK || a.ErrorCode != 429 ||
		a.Parameters.RetryAfter < 1 || a.Description != fmt.Sprintf("Too Many Requests: retry after %d", a.Parameters.RetryAfter) {
		t.Fatalf("%s: %d %s", method, status, body)
	}
	return a.Parameters.RetryAfter
}

func TestFloodLimitsOffByDefault(t *testing.T) {
	srv := telegramtest.Start(t)
	u := started(t, srv, "Alice", "en")
	for i := range 50 {
		if ra := send(t, srv, u.ID()); ra != 0 {
			t.Fatalf("send %d without flood limits: retry_after %d", i, ra)
		}
	}
	if st := srv.TooManyRequests(); st.Total != 0 || len(st.Chats) != 0 {
		t.Fatalf("TooManyRequests = %+v", st)
	}
}

func TestFloodPerChatBurstThen429(t *testing.T) {
	srv, clock := floodServer(t, telegramtest.DefaultFloodLimits)
	alice, bob := started(t, srv, "Alice", "en"), started(t, srv, "Bob", "en")
	for i := range 3 { // the tolerated burst
		if ra := send(t, srv, alice.ID()); ra != 0 {
			t.Fatalf("burst send %d: retry_after %d", i, ra)
		}
	}
	if ra := send(t, srv, alice.ID()); ra != 1 {
		t.Fatalf("4th send at once: retry_after %d, want 1", ra)
	}
	if ra := send(t, srv, bob.ID()); ra != 0 { // another chat has its own budget
		t.Fatalf("Bob's chat: retry_after %d", ra)
	}
	// Edits share the budget.
	m, _ := srv.LastMessage(bob.ID())
	edit := url.Values{"chat_id": {fmt.Sprint(bob.ID())}, "message_id": {fmt.Sprint(m.ID)}}
	for i := range 2 {
		edit.Set("text", fmt.Sprint("edit ", i))
		if ra := call(t, srv, "editMessageText", edit); ra != 0 {
			t.Fatalf("edit %d: retry_after %d", i, ra)
		}
	}
	edit.Set("text", "one too many")
	if ra := call(t, srv, "editMessageText", edit); ra != 1 {
		t.Fatalf("4th call into Bob's chat: retry_after %d, want 1", ra)
	}
	// After the wait, one message a second goes through, steadily.
	for i := range 10 {
		clock.Add(time.Second)
		if ra := send(t, srv, alice.ID()); ra != 0 {
			t.Fatalf("paced send %d: retry_after %d", i, ra)
		}
	}
	st := srv.TooManyRequests()
	if st.Total != 2 || st.Chats[telegramtest.FloodKey{Chat: alice.ID()}] != 1 || st.Chats[telegramtest.FloodKey{Chat: bob.ID()}] != 1 {
		t.Fatalf("TooManyRequests = %+v", st)
	}
	if got := srv.Messages(alice.ID()); len(got) != 1+3+10 { // her /start, the burst, the paced ones
		t.Fatalf("Alice's chat holds %d messages: a refused send took effect?", len(got))
	}
}

// A group's budget is twenty calls in any sixty seconds, wherever the minute starts: a client
// pacing itself at twenty a minute with a burst of three on top (one call every three seconds
// after the burst) has its 21st call within the first minute refused.
func TestFloodGroupBudgetPerMinute(t *testing.T) {
	srv, clock := floodServer(t, telegramtest.DefaultFloodLimits)
	alice := started(t, srv, "Alice", "en")
	group := srv.NewGroup("Group", alice)
	sent := 0
	for i := range 23 {
		if i >= 3 {
			clock.Add(3 * time.Second) // a rate of one every three seconds after the burst
		}
		if ra := send(t, srv, group.ID()); ra != 0 {
			// The first minute's three calls leave the window 60 s after they went, 6 s from now.
			if ra != 6 {
				t.Fatalf("group 429 after %d sends: retry_after %d, want 6", sent, ra)
			}
			break
		}
		sent++
	}
	if sent != 20 {
		t.Fatalf("group took %d sends in its first minute, want 20", sent)
	}
	// The window rolls: once the burst's three have left it, three go at once; the next one
	// waits for the call after them, and as long as the last 429 said (a repeat offender).
	clock.Add(6 * time.Second)
	for i := range 3 {
		if ra := send(t, srv, group.ID()); ra != 0 {
			t.Fatalf("send %d once the burst left the window: retry_after %d", i, ra)
		}
	}
	if ra := send(t, srv, group.ID()); ra != 6 {
		t.Fatalf("a fourth send: retry_after %d, want the last 429's 6", ra)
	}
	if st := srv.TooManyRequests(); st.Total != 2 || st.Chats[telegramtest.FloodKey{Chat: group.ID()}] != 2 {
		t.Fatalf("TooManyRequests = %+v", st)
	}
}

// A private chat has no minute's budget: one a second goes on for good.
func TestFloodPrivateChatOneASecond(t *testing.T) {
	srv, clock := floodServer(t, telegramtest.DefaultFloodLimits)
	alice := started(t, srv, "Alice", "en")
	for i := range 100 {
		if ra := send(t, srv, alice.ID()); ra != 0 {
			t.Fatalf("private send %d at one a second: retry_after %d", i, ra)
		}
		clock.Add(time.Second)
	}
}

func TestFloodGlobalBudget(t *testing.T) {
	srv, clock := floodServer(t, telegramtest.DefaultFloodLimits)
	users := make([]*telegramtest.Person, 32)
	for i := range users {
		users[i] = started(t, srv, fmt.Sprint("U", i), "en")
	}
	for i, u := range users[:30] { // thirty chats at once: the global burst
		if ra := send(t, srv, u.ID()); ra != 0 {
			t.Fatalf("chat %d: retry_after %d", i, ra)
		}
	}
	late := users[30]
	if ra := send(t, srv, late.ID()); ra != 1 {
		t.Fatalf("31st chat at once: retry_after %d, want 1", ra)
	}
	clock.Add(time.Second) // thirty more a second
	for i, u := range users[:30] {
		if ra := send(t, srv, u.ID()); ra != 0 {
			t.Fatalf("second round, chat %d: retry_after %d", i, ra)
		}
	}
	if ra := send(t, srv, users[31].ID()); ra == 0 {
		t.Fatal("31st call within a second went through")
	}
	st := srv.TooManyRequests()
	if st.Total != 2 || st.Chats[telegramtest.FloodKey{Chat: late.ID()}] != 1 || st.Chats[telegramtest.FloodKey{Chat: users[31].ID()}] != 1 {
		t.Fatalf("TooManyRequests = %+v", st)
	}
}

// postInline has alice post n inline messages with a Join button into chat through a client of
// srv's and returns them.
func postInline(t *testing.T, srv *telegramtest.Server, alice *telegramtest.Person, chat int64, n int) []telegramtest.ChatMessage {
	t.Helper()
	b := client(t, srv)
	qid, err := alice.InlineQuery("")
	if err != nil {
		t.Fatal(err)
	}
	join := &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{{{Text: "Join", CallbackData: "join"}}}}
	if _, err := b.AnswerInlineQuery(guard(t), &tgbot.AnswerInlineQueryParams{InlineQueryID: qid, Results: []models.InlineQueryResult{
		&models.InlineQueryResultArticle{ID: "g", Title: "8×8", InputMessageContent: &models.InputTextMessageContent{MessageText: "Play?"}, ReplyMarkup: botapi.Markup(join)},
	}}); err != nil {
		t.Fatal(err)
	}
	posted := make([]telegramtest.ChatMessage, n)
	for i := range posted {
		if posted[i], err = alice.ChooseInlineResult("g", chat); err != nil {
			t.Fatal(err)
		}
	}
	return posted
}

func TestFloodInlineMessageIsItsOwnChat(t *testing.T) {
	srv, _ := floodServer(t, telegramtest.DefaultFloodLimits)
	alice := started(t, srv, "Alice", "en")
	group := srv.NewGroup("Group", alice)
	posted := postInline(t, srv, alice, group.ID(), 2)
	for i := range 3 { // the group's chat budget spent
		if ra := send(t, srv, group.ID()); ra != 0 {
			t.Fatalf("group send %d: retry_after %d", i, ra)
		}
	}
	if ra := send(t, srv, group.ID()); ra == 0 {
		t.Fatal("4th send into the group at once went through")
	}
	// Each inline message, though it lives in the group, has a chat budget of its own.
	for _, p := range posted {
		edit := url.Values{"inline_message_id": {p.InlineID}, "reply_markup": {`{"inline_keyboard":[[{"text":"Join","callback_data":"join"}]]}`}}
		for i := range 3 {
			edit.Set("text", fmt.Sprint("board ", i))
			if ra := call(t, srv, "editMessageText", edit); ra != 0 {
				t.Fatalf("inline edit %d: retry_after %d", i, ra)
			}
		}
		edit.Set("text", "one too many")
		if ra := call(t, srv, "editMessageText", edit); ra != 1 {
			t.Fatalf("4th inline edit at once: retry_after %d, want 1", ra)
		}
	}
	st := srv.TooManyRequests()
	if st.Total != 3 || st.Chats[telegramtest.FloodKey{Chat: group.ID()}] != 1 ||
		st.Chats[telegramtest.FloodKey{Inline: posted[0].InlineID}] != 1 || st.Chats[telegramtest.FloodKey{Inline: posted[1].InlineID}] != 1 {
		t.Fatalf("TooManyRequests = %+v", st)
	}
}

// An inline message may live in a group, so it has a group's minute too: twenty edits in any
// sixty seconds.
func TestFloodInlineMessageHasAGroupsMinute(t *testing.T) {
	srv, clock := floodServer(t, telegramtest.DefaultFloodLimits)
	alice := started(t, srv, "Alice", "en")
	post := postInline(t, srv, alice, alice.ID(), 1)[0]
	edit := url.Values{"inline_message_id": {post.InlineID}, "reply_markup": {`{"inline_keyboard":[[{"text":"Join","callback_data":"join"}]]}`}}
	for i := range 20 {
		edit.Set("text", fmt.Sprint("board ", i))
		if ra := call(t, srv, "editMessageText", edit); ra != 0 {
			t.Fatalf("inline edit %d at one a second: retry_after %d", i, ra)
		}
		clock.Add(time.Second)
	}
	edit.Set("text", "the 21st")
	if ra := call(t, srv, "editMessageText", edit); ra != 40 {
		t.Fatalf("21st inline edit within the minute: retry_after %d, want 40", ra)
	}
}

// sendAnimation (a replay) spends a chat's budget like any send, also when it then fails.
func TestFloodCountsAnimations(t *testing.T) {
	srv, _ := floodServer(t, telegramtest.FloodLimits{PerChat: telegramtest.Window{N: 1, Per: time.Minute}})
	alice := started(t, srv, "Alice", "en")
	if status, body := raw(t, srv, "sendAnimation", url.Values{"chat_id": {fmt.Sprint(alice.ID())}, "animation": {"no-such-file"}}); status != 400 {
		t.Fatalf("sendAnimation of an unknown file: %d %s", status, body)
	}
	if ra := send(t, srv, alice.ID()); ra != 60 {
		t.Fatalf("a send after an animation within the minute: retry_after %d, want 60", ra)
	}
}

func TestFloodRetryAfterGrowsWhenIgnored(t *testing.T) {
	lim := telegramtest.FloodLimits{
		PerChat:       telegramtest.Window{N: 1, Per: time.Second},
		MaxRetryAfter: 8 * time.Second,
		Quiet:         10 * time.Second,
	}
	srv, clock := floodServer(t, lim)
	alice := started(t, srv, "Alice", "en")
	if ra := send(t, srv, alice.ID()); ra != 0 {
		t.Fatalf("first send: retry_after %d", ra)
	}
	// Calling on while told to wait doubles the wait, up to the cap.
	for i, want := range []int{1, 2, 4, 8, 8} {
		if ra := send(t, srv, alice.ID()); ra != want {
			t.Fatalf("call %d while told to wait: retry_after %d, want %d", i, ra, want)
		}
	}
	// Waiting as told lets the next call through, but the penalty stays for a while.
	clock.Add(8 * time.Second)
	if ra := send(t, srv, alice.ID()); ra != 0 {
		t.Fatalf("send after the wait: retry_after %d", ra)
	}
	if ra := send(t, srv, alice.ID()); ra != 8 {
		t.Fatalf("overflow soon after a penalty: retry_after %d, want 8", ra)
	}
	// After a quiet period the penalty is forgotten.
	clock.Add(8*time.Second + lim.Quiet)
	if ra := send(t, srv, alice.ID()); ra != 0 {
		t.Fatalf("send after a quiet period: retry_after %d", ra)
	}
	if ra := send(t, srv, alice.ID()); ra != 1 {
		t.Fatalf("overflow after a quiet period: retry_after %d, want 1", ra)
	}
	if st := srv.TooManyRequests(); st.Total != 7 {
		t.Fatalf("TooManyRequests = %+v, want 7", st)
	}
}

func TestFloodNeverLimitsOtherMethods(t *testing.T) {
	one := telegramtest.Window{N: 1, Per: time.Minute}
	srv, _ := floodServer(t, telegramtest.FloodLimits{PerChat: one, PerGroup: one, Global: one, MaxRetryAfter: time.Hour})
	b := client(t, srv)
	ctx := guard(t)
	alice := started(t, srv, "Alice", "en")
	m, err := b.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: alice.ID(), Text: "board", ReplyMarkup: botapi.Markup(keyboard(1, 2))})
	if err != nil {
		t.Fatal(err)
	}
	if ra := send(t, srv, alice.ID()); ra == 0 {
		t.Fatal("second send within the minute went through")
	}
	posted, _ := srv.LastMessage(alice.ID())
	for i := range 20 {
		qid, err := alice.PressAt(posted, 0, i%2)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := b.AnswerCallbackQuery(ctx, &tgbot.AnswerCallbackQueryParams{CallbackQueryID: qid, Text: "ok"}); err != nil {
			t.Fatalf("answerCallbackQuery %d: %v", i, err)
		}
		if _, err := b.SendChatAction(ctx, &tgbot.SendChatActionParams{ChatID: alice.ID(), Action: models.ChatActionTyping}); err != nil {
			t.Fatalf("sendChatAction %d: %v", i, err)
		}
		if _, err := b.GetChat(ctx, &tgbot.GetChatParams{ChatID: alice.ID()}); err != nil {
			t.Fatalf("getChat %d: %v", i, err)
		}
		drain(t, srv) // getUpdates
	}
	if ok, err := b.DeleteMessage(ctx, &tgbot.DeleteMessageParams{ChatID: alice.ID(), MessageID: m.ID}); err != nil || !ok {
		t.Fatalf("deleteMessage = %v, %v", ok, err)
	}
	if st := srv.TooManyRequests(); st.Total != 1 {
		t.Fatalf("TooManyRequests = %+v, want only the send's", st)
	}
}

func TestFloodClientSeesTooManyRequestsError(t *testing.T) {
	lim := telegramtest.DefaultFloodLimits
	lim.PerChat = telegramtest.Window{N: 1, Per: 5 * time.Second}
	srv, _ := floodServer(t, lim)
	b := client(t, srv)
	ctx := guard(t)
	alice := started(t, srv, "Alice", "en")
	m, err := b.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: alice.ID(), Text: "board"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = b.EditMessageText(ctx, &tgbot.EditMessageTextParams{ChatID: alice.ID(), MessageID: m.ID, Text: "moved"})
	var tooMany *tgbot.TooManyRequestsError
	if !errors.As(err, &tooMany) || tooMany.RetryAfter != 5 {
		t.Fatalf("edit over the budget: %v (%T), want *tgbot.TooManyRequestsError with RetryAfter 5", err, err)
	}
	if got, _ := srv.Message(alice.ID(), m.ID); got.Text != "board" || got.Edits != 0 {
		t.Fatalf("a refused edit took effect: %+v", got)
	}
	if st := srv.TooManyRequests(); st.Chats[telegramtest.FloodKey{Chat: alice.ID()}] != 1 {
		t.Fatalf("TooManyRequests = %+v", st)
	}
}
