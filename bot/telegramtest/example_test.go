package telegramtest_test

import (
	"context"
	"fmt"
	"strings"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/botapi"
	"github.com/reversibot/reversi/bot/telegramtest"
)

// A whole round trip: a real go-telegram/bot bot long-polls the fake, a
// scripted user sends a command and taps the button of the answer, and the
// test waits (without sleeping) for what the bot did.
func Example() {
	srv := telegramtest.New()
	defer srv.Close()

	b, _ := tgbot.New(srv.Token(), tgbot.WithServerURL(srv.URL()), tgbot.WithSkipGetMe(),
		tgbot.WithDefaultHandler(func(ctx context.Context, b *tgbot.Bot, u *models.Update) {
			switch {
			case u.Message != nil && strings.HasPrefix(u.Message.Text, "/start"):
				_, _ = b.SendMessage(ctx, &tgbot.SendMessageParams{
					ChatID: u.Message.Chat.ID, Text: "Play?",
					// The library's own keyboard type sends "copy_text":{"text":""} with every
					// button, which the Bot API forbids and the fake refuses: botapi.Markup
					// sends each button with its one action.
					ReplyMarkup: botapi.Markup(&models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{
						{{Text: "8×8", CallbackData: "new:8"}, {Text: "10×10", CallbackData: "new:10"}},
					}}),
				})
			case u.CallbackQuery != nil:
				_, _ = b.AnswerCallbackQuery(ctx, &tgbot.AnswerCallbackQueryParams{CallbackQueryID: u.CallbackQuery.ID, Text: "OK"})
				msg := u.CallbackQuery.Message.Message
				_, _ = b.EditMessageText(ctx, &tgbot.EditMessageTextParams{
					ChatID: msg.Chat.ID, MessageID: msg.ID, Text: "Starting " + u.CallbackQuery.Data,
				})
			}
		}))
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { b.Start(ctx); close(done) }()
	defer func() { stop(); <-done }()

	guard, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	alice := srv.NewUser("Alice", "en")
	if _, err := alice.Send(alice.ID(), "/start"); err != nil {
		fmt.Println(err)
		return
	}
	menu, err := srv.WaitMessage(guard, alice.ID(), func(m telegramtest.ChatMessage) bool { return m.Text == "Play?" })
	if err != nil {
		fmt.Println(err)
		return
	}
	qid, _ := alice.Press(menu, "10×10")
	answer, _ := srv.WaitCallbackAnswer(guard, qid)
	edited, _ := srv.WaitMessage(guard, alice.ID(), func(m telegramtest.ChatMessage) bool { return m.Edits > 0 })

	fmt.Println(menu.ButtonCount(), "buttons")
	fmt.Println("answer:", answer.Text, "before the edit:", answer.Seq < edited.Seq)
	fmt.Println(edited.Text, "keyboard:", edited.Markup != nil)
	// Output:
	// 2 buttons
	// answer: OK before the edit: true
	// Starting new:10 keyboard: false
}
