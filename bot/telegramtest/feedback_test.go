package telegramtest_test

import (
	"encoding/json"
	"testing"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/botapi"
	"github.com/reversibot/reversi/bot/telegramtest"
)

// TestInlineFeedbackOffAndForgedInlineTap: with inline feedback off a chosen result posts its
// message but sends no chosen_inline_result; PressInlineData sends any data on that message.
func TestInlineFeedbackOffAndForgedInlineTap(t *testing.T) {
	srv := telegramtest.Start(t)
	b := client(t, srv)
	srv.SetInlineFeedback(false)
	alice, bob := srv.NewUser("Alice", "en"), srv.NewUser("Bob", "en")
	chat := srv.NewGroup("Chat", alice, bob)
	qid, err := alice.InlineQuery("")
	if err != nil {
		t.Fatal(err)
	}
	drain(t, srv)
	join := &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{{{Text: "Join", CallbackData: "join"}}}}
	if _, err := b.AnswerInlineQuery(guard(t), &tgbot.AnswerInlineQueryParams{InlineQueryID: qid, Results: []models.InlineQueryResult{
		&models.InlineQueryResultArticle{ID: "g8", Title: "8×8", InputMessageContent: &models.InputTextMessageContent{MessageText: "Play?"}, ReplyMarkup: botapi.Markup(join)},
	}}); err != nil {
		t.Fatal(err)
	}
	posted, err := alice.ChooseInlineResult("g8", chat.ID())
	if err != nil || posted.InlineID == "" {
		t.Fatalf("ChooseInlineResult = %+v, %v", posted, err)
	}
	if n := srv.PendingUpdates(); n != 0 {
		t.Fatalf("%d updates queued with inline feedback off, want none", n)
	}
	if _, err := bob.PressInlineData("AgAAAFakeNone", "x"); err == nil {
		t.Error("PressInlineData on a message that does not exist succeeded")
	}
	if _, err := bob.PressInlineData(posted.InlineID, "forged"); err != nil {
		t.Fatal(err)
	}
	ups := drain(t, srv)
	var cq models.CallbackQuery
	if len(ups) != 1 || json.Unmarshal(ups[0]["callback_query"], &cq) != nil || cq.Data != "forged" ||
		cq.InlineMessageID != posted.InlineID || cq.From.ID != bob.ID() {
		t.Fatalf("forged inline tap = %s", ups)
	}
	srv.SetInlineFeedback(true)
	if _, err := alice.ChooseInlineResult("g8", chat.ID()); err != nil {
		t.Fatal(err)
	}
	if ups := drain(t, srv); len(ups) != 1 || ups[0]["chosen_inline_result"] == nil {
		t.Fatalf("with feedback on again: %s", ups)
	}
}
