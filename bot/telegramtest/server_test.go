package telegramtest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/botapi"
	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/game/gametest"
)

func TestGetMeTokenAndUnknownMethod(t *testing.T) {
	srv := telegramtest.Start(t)
	b, err := tgbot.New(srv.Token(), tgbot.WithServerURL(srv.URL()))
	if err != nil {
		t.Fatalf("tgbot.New with getMe: %v", err)
	}
	me, err := b.GetMe(guard(t))
	if err != nil || me.Username != telegramtest.DefaultBotUsername || !me.IsBot || me.ID != b.ID() {
		t.Fatalf("GetMe = %+v, %v; want the bot %s with id %d", me, err, telegramtest.DefaultBotUsername, b.ID())
	}

	_, err = tgbot.New("7000000001:wrong", tgbot.WithServerURL(srv.URL()))
	if !errors.Is(err, tgbot.ErrorUnauthorized) {
		t.Fatalf("tgbot.New with a wrong token: err = %v, want Unauthorized", err)
	}
	status, body := rawToken(t, srv, "7000000001:wrong", "getMe", nil)
	if status != 401 || !strings.Contains(string(body), `"description":"Unauthorized"`) {
		t.Fatalf("wrong token: %d %s", status, body)
	}
	status, body = raw(t, srv, "sendDice", nil)
	if status != 404 || !strings.Contains(string(body), `"error_code":404`) || !strings.Contains(string(body), `"Not Found"`) {
		t.Fatalf("unknown method: %d %s", status, body)
	}
	// Method names are case-insensitive, as in Telegram.
	if status, body = raw(t, srv, "GETME", nil); status != 200 {
		t.Fatalf("GETME: %d %s", status, body)
	}
}

func TestKeyboardLimits(t *testing.T) {
	srv := telegramtest.Start(t)
	b := client(t, srv)
	u := started(t, srv, "Alice", "en")
	data := func(n int) *models.InlineKeyboardMarkup {
		return &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{{{Text: "x", CallbackData: strings.Repeat("a", n)}}}}
	}
	board := keyboard(8, 8)
	board.InlineKeyboard = append(board.InlineKeyboard, keyboard(1, 4).InlineKeyboard...)
	raw := func(s string) json.RawMessage { return json.RawMessage(s) }
	tests := []struct {
		name   string
		markup models.ReplyMarkup
		want   string // "" = accepted
	}{
		{"8x8 board and a control row", botapi.Markup(board), ""},
		{"9 in a row", botapi.Markup(keyboard(1, 9)), "REPLY_MARKUP_TOO_LONG"},
		{"101 buttons", botapi.Markup(keyboard(13, 8)), "REPLY_MARKUP_TOO_LONG"},
		{"100 buttons", botapi.Markup(keyboard(20, 5)), ""},
		{"64-byte data", botapi.Markup(data(64)), ""},
		{"65-byte data", botapi.Markup(data(65)), "BUTTON_DATA_INVALID"},
		{"empty data", raw(`{"inline_keyboard":[[{"text":"x","callback_data":""}]]}`), "BUTTON_DATA_INVALID"},
		{"no action", raw(`{"inline_keyboard":[[{"text":"x"}]]}`), "Text buttons are unallowed in the inline keyboard"},
		{"the library's own type", keyboard(1, 1), "BUTTON_COPY_TEXT_INVALID"},
		{"two actions", raw(`{"inline_keyboard":[[{"text":"x","callback_data":"d","copy_text":{"text":"c"}}]]}`), "exactly one of the fields"},
		{"a field buttons lack", raw(`{"inline_keyboard":[[{"text":"x","callback_data":"d","colour":"red"}]]}`), `Unknown field "colour"`},
		{"bad url", botapi.Markup(&models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{{{Text: "x", URL: "not a url"}}}}), "is invalid"},
		{"reply keyboard is not stored", &models.ReplyKeyboardMarkup{Keyboard: [][]models.KeyboardButton{{{Text: "x"}}}}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := len(srv.Messages(u.ID()))
			_, err := b.SendMessage(guard(t), &tgbot.SendMessageParams{ChatID: u.ID(), Text: "board", ReplyMarkup: tc.markup})
			if tc.want == "" {
				if err != nil {
					t.Fatalf("SendMessage: %v", err)
				}
				return
			}
			if !errors.Is(err, tgbot.ErrorBadRequest) {
				t.Fatalf("SendMessage error = %v, want a Bad Request", err)
			}
			wantErr(t, err, tc.want)
			if n := len(srv.Messages(u.ID())); n != before {
				t.Fatalf("a rejected message was stored: %d messages, want %d", n, before)
			}
		})
	}
}

func TestTextLimits(t *testing.T) {
	srv := telegramtest.Start(t)
	b := client(t, srv)
	u := started(t, srv, "Борис", "ru")
	png1 := pngBytes(t, 8, 8)
	tests := []struct {
		name, text, mode, want, visible string
	}{
		{"4096 ascii", strings.Repeat("a", 4096), "", "", ""},
		{"4097 ascii", strings.Repeat("a", 4097), "", "message is too long", ""},
		{"4096 cyrillic", strings.Repeat("ж", 4096), "", "", ""},
		{"2049 astral emoji count twice", strings.Repeat("😀", 2049), "", "message is too long", ""},
		{"empty", " ", "", "message text is empty", ""},
		{"html", "<b>Alice</b> &lt;3 &amp; you", "HTML", "", "Alice <3 & you"},
		{"html unescaped", "a < b", "HTML", "can't parse entities", ""},
		{"html unclosed", "<b>x", "HTML", "Can't find end tag", ""},
		{"html unknown tag", "<div>x</div>", "HTML", "Unsupported start tag", ""},
		{"markdownv2 reserved", "score 3.5", "MarkdownV2", "reserved", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := b.SendMessage(guard(t), &tgbot.SendMessageParams{ChatID: u.ID(), Text: tc.text, ParseMode: models.ParseMode(tc.mode)})
			if tc.want != "" {
				wantErr(t, err, tc.want)
				return
			}
			if err != nil {
				t.Fatalf("SendMessage: %v", err)
			}
			want := tc.visible
			if want == "" {
				want = tc.text
			}
			if m.Text != want {
				t.Fatalf("text = %q, want %q", m.Text, want)
			}
		})
	}
	_, err := b.SendPhoto(guard(t), &tgbot.SendPhotoParams{ChatID: u.ID(), Caption: strings.Repeat("c", 1025),
		Photo: &models.InputFileUpload{Filename: "b.png", Data: bytes.NewReader(png1)}})
	wantErr(t, err, "message caption is too long")
	_, err = b.SendPhoto(guard(t), &tgbot.SendPhotoParams{ChatID: u.ID(), Caption: strings.Repeat("c", 1024),
		Photo: &models.InputFileUpload{Filename: "b.png", Data: bytes.NewReader(png1)}})
	if err != nil {
		t.Fatalf("SendPhoto with a 1024 caption: %v", err)
	}
}

func TestChatsAndPrivacy(t *testing.T) {
	srv := telegramtest.Start(t)
	b := client(t, srv)
	ctx := guard(t)
	stranger := srv.NewUser("Stranger", "en")
	_, err := b.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: stranger.ID(), Text: "hi"})
	if !errors.Is(err, tgbot.ErrorForbidden) {
		t.Fatalf("message to a user who never wrote: %v, want Forbidden", err)
	}
	_, err = b.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: 424242, Text: "hi"})
	wantErr(t, err, "chat not found")

	alice, bob := started(t, srv, "Alice", "en"), srv.NewUser("Bob", "ru")
	g := srv.NewGroup("Club", alice, bob)
	if g.ID() >= 0 {
		t.Fatalf("group id %d, want negative", g.ID())
	}
	for _, tc := range []struct {
		text    string
		deliver bool
	}{
		{"hello all", false},
		{"/new 8", true},
		{"/new@OtherBot", false},
		{"/new@" + telegramtest.DefaultBotUsername + " 10", true},
	} {
		if _, err := bob.Send(g.ID(), tc.text); err != nil {
			t.Fatalf("Send(%q): %v", tc.text, err)
		}
		ups := drain(t, srv)
		if got := len(ups) == 1; got != tc.deliver {
			t.Fatalf("group message %q delivered = %v, want %v", tc.text, got, tc.deliver)
		}
		if tc.deliver {
			var m models.Message
			_ = json.Unmarshal(ups[0]["message"], &m)
			if len(m.Entities) == 0 || m.Entities[0].Type != models.MessageEntityTypeBotCommand || m.Entities[0].Offset != 0 {
				t.Fatalf("command %q entities = %+v, want a bot_command at 0", tc.text, m.Entities)
			}
			if m.Chat.ID != g.ID() || m.From == nil || m.From.ID != bob.ID() || m.From.LanguageCode != "ru" {
				t.Fatalf("message chat/from = %+v / %+v", m.Chat, m.From)
			}
		}
	}
	if n := len(srv.Messages(g.ID())); n != 4 {
		t.Fatalf("group holds %d messages, want all 4 (privacy hides them from the bot only)", n)
	}
	outsider := srv.NewUser("Eve", "en")
	if _, err := outsider.Send(g.ID(), "/new"); !errors.Is(err, telegramtest.ErrNotVisible) {
		t.Fatalf("non-member Send: %v, want ErrNotVisible", err)
	}
	if _, err := b.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: g.ID(), Text: "lobby"}); err != nil {
		t.Fatalf("SendMessage to group: %v", err)
	}
	chat, err := b.GetChat(ctx, &tgbot.GetChatParams{ChatID: g.ID()})
	if err != nil || chat.Title != "Club" || chat.Type != models.ChatTypeSupergroup {
		t.Fatalf("GetChat = %+v, %v", chat, err)
	}
	member, err := b.GetChatMember(ctx, &tgbot.GetChatMemberParams{ChatID: g.ID(), UserID: bob.ID()})
	if err != nil || member.Type != models.ChatMemberTypeMember {
		t.Fatalf("GetChatMember(bob) = %+v, %v", member, err)
	}
	member, err = b.GetChatMember(ctx, &tgbot.GetChatMemberParams{ChatID: g.ID(), UserID: outsider.ID()})
	if err != nil || member.Type != models.ChatMemberTypeLeft {
		t.Fatalf("GetChatMember(outsider) = %+v, %v", member, err)
	}
}

func TestCallbackQueries(t *testing.T) {
	srv, b, ctx, u := startedAlice(t)
	sent, err := b.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: u.ID(), Text: "board", ReplyMarkup: botapi.Markup(keyboard(2, 2))})
	if err != nil {
		t.Fatal(err)
	}
	m, ok := srv.LastMessage(u.ID())
	if !ok || m.ID != sent.ID || m.ButtonCount() != 4 {
		t.Fatalf("LastMessage = %+v, %v", m, ok)
	}
	qid, err := u.Press(m, "1,0")
	if err != nil {
		t.Fatal(err)
	}
	ups := drain(t, srv)
	var cq models.CallbackQuery
	if len(ups) != 1 || json.Unmarshal(ups[0]["callback_query"], &cq) != nil {
		t.Fatalf("updates = %s", ups)
	}
	if cq.ID != qid || cq.Data != "d:1:0" || cq.From.ID != u.ID() || cq.Message.Message == nil || cq.Message.Message.ID != m.ID || cq.ChatInstance == "" {
		t.Fatalf("callback query = %+v", cq)
	}
	if _, err := u.PressAt(m, 0, 1); err != nil {
		t.Fatalf("PressAt: %v", err)
	}
	if _, err := u.Press(m, "d:1:1"); err != nil {
		t.Fatalf("Press by callback data: %v", err)
	}
	if _, err := u.Press(m, "nope"); err == nil {
		t.Fatal("Press of a missing button succeeded")
	}

	if _, err := b.AnswerCallbackQuery(ctx, &tgbot.AnswerCallbackQueryParams{CallbackQueryID: qid, Text: strings.Repeat("я", 201), ShowAlert: true}); err == nil {
		t.Fatal("a 201-character alert was accepted")
	} else {
		wantErr(t, err, "MESSAGE_TOO_LONG")
	}
	if _, err := b.AnswerCallbackQuery(ctx, &tgbot.AnswerCallbackQueryParams{CallbackQueryID: qid, Text: "Not your turn", ShowAlert: true}); err != nil {
		t.Fatalf("first answer: %v", err)
	}
	_, err = b.AnswerCallbackQuery(ctx, &tgbot.AnswerCallbackQueryParams{CallbackQueryID: qid})
	wantErr(t, err, "query is too old and response timeout expired or query ID is invalid")
	_, err = b.AnswerCallbackQuery(ctx, &tgbot.AnswerCallbackQueryParams{CallbackQueryID: "12345"})
	wantErr(t, err, "query ID is invalid")

	a, err := srv.WaitCallbackAnswer(ctx, qid)
	if err != nil || a.Text != "Not your turn" || !a.ShowAlert || a.Data != "d:1:0" {
		t.Fatalf("CallbackAnswer = %+v, %v", a, err)
	}

	// Press uses the CURRENT keyboard, not the snapshot the test holds.
	next := &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{{{Text: "new", CallbackData: "v2"}}}}
	if _, err := b.EditMessageReplyMarkup(ctx, &tgbot.EditMessageReplyMarkupParams{ChatID: u.ID(), MessageID: m.ID, ReplyMarkup: botapi.Markup(next)}); err != nil {
		t.Fatal(err)
	}
	if _, err := u.Press(m, "1,0"); err == nil {
		t.Fatal("Press found a button of the old keyboard")
	}
	if _, err := u.Press(m, "new"); err != nil {
		t.Fatal(err)
	}
	// Forged data for a message that does not exist.
	if _, err := u.PressData(u.ID(), 9999, "forged"); err != nil {
		t.Fatal(err)
	}
	ups = drain(t, srv)
	if err := json.Unmarshal(ups[len(ups)-1]["callback_query"], &cq); err != nil {
		t.Fatal(err)
	}
	if cq.Data != "forged" || cq.Message.Type != models.MaybeInaccessibleMessageTypeInaccessibleMessage || cq.Message.InaccessibleMessage.MessageID != 9999 {
		t.Fatalf("forged query = %+v", cq)
	}
}

func TestEdits(t *testing.T) {
	srv, b, ctx, u := startedAlice(t)
	m, err := b.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: u.ID(), Text: "turn: black", ReplyMarkup: botapi.Markup(keyboard(1, 2))})
	if err != nil {
		t.Fatal(err)
	}
	_, err = b.EditMessageText(ctx, &tgbot.EditMessageTextParams{ChatID: u.ID(), MessageID: m.ID, Text: "turn: black", ReplyMarkup: botapi.Markup(keyboard(1, 2))})
	wantErr(t, err, "Bad Request: message is not modified")
	if _, err := b.EditMessageText(ctx, &tgbot.EditMessageTextParams{ChatID: u.ID(), MessageID: m.ID, Text: "turn: white", ReplyMarkup: botapi.Markup(keyboard(1, 2))}); err != nil {
		t.Fatalf("edit: %v", err)
	}
	_, err = b.EditMessageReplyMarkup(ctx, &tgbot.EditMessageReplyMarkupParams{ChatID: u.ID(), MessageID: m.ID, ReplyMarkup: botapi.Markup(keyboard(1, 2))})
	wantErr(t, err, "message is not modified")
	got, _ := srv.Message(u.ID(), m.ID)
	if got.Text != "turn: white" || got.Edits != 1 || got.ButtonCount() != 2 {
		t.Fatalf("after one edit: %+v", got)
	}
	// An edit without reply_markup removes the keyboard, as in Telegram.
	if _, err := b.EditMessageText(ctx, &tgbot.EditMessageTextParams{ChatID: u.ID(), MessageID: m.ID, Text: "game over"}); err != nil {
		t.Fatal(err)
	}
	if got, _ = srv.Message(u.ID(), m.ID); got.Markup != nil || got.Edits != 2 {
		t.Fatalf("after an edit without markup: %+v", got)
	}
	_, err = b.EditMessageText(ctx, &tgbot.EditMessageTextParams{ChatID: u.ID(), MessageID: 777, Text: "x"})
	wantErr(t, err, "message to edit not found")
	_, err = b.EditMessageCaption(ctx, &tgbot.EditMessageCaptionParams{ChatID: u.ID(), MessageID: m.ID, Caption: "x"})
	wantErr(t, err, "there is no caption in the message to edit")
	userMsg := srv.Messages(u.ID())[0]
	_, err = b.EditMessageText(ctx, &tgbot.EditMessageTextParams{ChatID: u.ID(), MessageID: userMsg.ID, Text: "x"})
	wantErr(t, err, "message can't be edited")

	if ok, err := b.DeleteMessage(ctx, &tgbot.DeleteMessageParams{ChatID: u.ID(), MessageID: m.ID}); err != nil || !ok {
		t.Fatalf("DeleteMessage = %v, %v", ok, err)
	}
	_, err = b.DeleteMessage(ctx, &tgbot.DeleteMessageParams{ChatID: u.ID(), MessageID: m.ID})
	wantErr(t, err, "message to delete not found")
	if _, ok := srv.Message(u.ID(), m.ID); ok {
		t.Fatal("deleted message still listed")
	}
}

func TestPhotos(t *testing.T) {
	srv, b, ctx, u := startedAlice(t)
	img := pngBytes(t, 64, 48)
	m, err := b.SendPhoto(ctx, &tgbot.SendPhotoParams{ChatID: u.ID(), Caption: "10×10",
		Photo: &models.InputFileUpload{Filename: "board.png", Data: bytes.NewReader(img)}, ReplyMarkup: botapi.Markup(keyboard(2, 3))})
	if err != nil {
		t.Fatalf("SendPhoto: %v", err)
	}
	if len(m.Photo) != 1 || m.Photo[0].Width != 64 || m.Photo[0].Height != 48 || m.Photo[0].FileID == "" {
		t.Fatalf("photo sizes = %+v", m.Photo)
	}
	got, _ := srv.LastMessage(u.ID())
	if cfg, err := png.DecodeConfig(bytes.NewReader(got.Photo)); err != nil || cfg.Width != 64 || got.Caption != "10×10" {
		t.Fatalf("recorded photo: %v %+v, caption %q", err, cfg, got.Caption)
	}
	// An existing file_id is reused.
	again, err := b.SendPhoto(ctx, &tgbot.SendPhotoParams{ChatID: u.ID(), Photo: &models.InputFileString{Data: m.Photo[0].FileID}})
	if err != nil || again.Photo[0].FileID != m.Photo[0].FileID {
		t.Fatalf("SendPhoto by file_id = %+v, %v", again.Photo, err)
	}
	_, err = b.SendPhoto(ctx, &tgbot.SendPhotoParams{ChatID: u.ID(), Photo: &models.InputFileString{Data: "no-such-file"}})
	wantErr(t, err, "wrong file identifier/HTTP URL specified")
	_, err = b.SendPhoto(ctx, &tgbot.SendPhotoParams{ChatID: u.ID(), Photo: &models.InputFileUpload{Filename: "x.png", Data: strings.NewReader("not a png")}})
	wantErr(t, err, "IMAGE_PROCESS_FAILED")

	// editMessageMedia with a fresh upload replaces the photo.
	img2 := pngBytes(t, 32, 32)
	_, err = b.EditMessageMedia(ctx, &tgbot.EditMessageMediaParams{ChatID: u.ID(), MessageID: m.ID,
		Media: &models.InputMediaPhoto{Media: "attach://board2.png", Caption: "move 2", MediaAttachment: bytes.NewReader(img2)}, ReplyMarkup: botapi.Markup(keyboard(2, 3))})
	if err != nil {
		t.Fatalf("EditMessageMedia: %v", err)
	}
	got, _ = srv.Message(u.ID(), m.ID)
	if !bytes.Equal(got.Photo, img2) || got.Caption != "move 2" || got.Edits != 1 {
		t.Fatalf("after editMessageMedia: caption %q, edits %d, photo %d bytes", got.Caption, got.Edits, len(got.Photo))
	}
	if _, ok := srv.Photo(got.PhotoFileID); !ok {
		t.Fatal("Photo(file_id) not found")
	}
	_, err = b.EditMessageMedia(ctx, &tgbot.EditMessageMediaParams{ChatID: u.ID(), MessageID: m.ID,
		Media: &models.InputMediaPhoto{Media: got.PhotoFileID, Caption: "move 2"}, ReplyMarkup: botapi.Markup(keyboard(2, 3))})
	wantErr(t, err, "message is not modified")

	// Media can be added to a text message (Bot API: "or to add media to text messages").
	txt, err := b.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: u.ID(), Text: "board below"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.EditMessageMedia(ctx, &tgbot.EditMessageMediaParams{ChatID: u.ID(), MessageID: txt.ID,
		Media: &models.InputMediaPhoto{Media: got.PhotoFileID, Caption: "now a photo"}}); err != nil {
		t.Fatalf("EditMessageMedia on a text message: %v", err)
	}
	if got, _ = srv.Message(u.ID(), txt.ID); got.PhotoFileID == "" || got.Text != "" || got.Content() != "now a photo" {
		t.Fatalf("text message after editMessageMedia = %+v", got)
	}
}

func TestInlineMode(t *testing.T) {
	srv := telegramtest.Start(t)
	b := client(t, srv)
	ctx := guard(t)
	alice, bob := srv.NewUser("Alice", "en"), srv.NewUser("Bob", "ru")
	chat := srv.NewGroup("Alice & Bob", alice, bob) // stands in for their private chat
	qid, err := alice.InlineQuery("8")
	if err != nil {
		t.Fatal(err)
	}
	ups := drain(t, srv)
	var iq models.InlineQuery
	if len(ups) != 1 || json.Unmarshal(ups[0]["inline_query"], &iq) != nil || iq.ID != qid || iq.Query != "8" {
		t.Fatalf("inline query update = %s", ups)
	}
	join := &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{{{Text: "Join", CallbackData: "join"}}}}
	ok, err := b.AnswerInlineQuery(ctx, &tgbot.AnswerInlineQueryParams{InlineQueryID: qid, Results: []models.InlineQueryResult{
		&models.InlineQueryResultArticle{ID: "g8", Title: "8×8", InputMessageContent: &models.InputTextMessageContent{MessageText: "Alice invites you"}, ReplyMarkup: botapi.Markup(join)},
		&models.InlineQueryResultArticle{ID: "plain", Title: "rules", InputMessageContent: &models.InputTextMessageContent{MessageText: "Rules"}},
	}})
	if err != nil || !ok {
		t.Fatalf("AnswerInlineQuery = %v, %v", ok, err)
	}
	_, err = b.AnswerInlineQuery(ctx, &tgbot.AnswerInlineQueryParams{InlineQueryID: qid, Results: []models.InlineQueryResult{}})
	wantErr(t, err, "query is too old")
	ans, err := srv.WaitInlineAnswer(ctx, qid)
	if err != nil || len(ans.Results) != 2 || ans.Results[0].Text != "Alice invites you" {
		t.Fatalf("InlineAnswer = %+v, %v", ans, err)
	}

	posted, err := alice.ChooseInlineResult("g8", chat.ID())
	if err != nil {
		t.Fatal(err)
	}
	if posted.InlineID == "" || posted.Text != "Alice invites you" {
		t.Fatalf("posted = %+v", posted)
	}
	ups = drain(t, srv)
	var chosen models.ChosenInlineResult
	if len(ups) != 1 || json.Unmarshal(ups[0]["chosen_inline_result"], &chosen) != nil || chosen.InlineMessageID != posted.InlineID || chosen.ResultID != "g8" {
		t.Fatalf("chosen_inline_result = %s", ups)
	}

	cqID, err := bob.PressInline(posted.InlineID, "Join")
	if err != nil {
		t.Fatal(err)
	}
	ups = drain(t, srv)
	var rawCQ map[string]json.RawMessage
	_ = json.Unmarshal(ups[0]["callback_query"], &rawCQ)
	if _, has := rawCQ["message"]; has || string(rawCQ["inline_message_id"]) != `"`+posted.InlineID+`"` || string(rawCQ["id"]) != `"`+cqID+`"` {
		t.Fatalf("inline callback = %s", ups[0]["callback_query"])
	}

	// An inline edit answers true, which go-telegram/bot cannot decode into a Message.
	status, body := raw(t, srv, "editMessageText", url.Values{"inline_message_id": {posted.InlineID}, "text": {"Alice vs Bob"},
		"reply_markup": {`{"inline_keyboard":[[{"text":"d3","callback_data":"m:d3"}]]}`}})
	if status != 200 || string(bytes.TrimSpace(body)) != `{"ok":true,"result":true}` {
		t.Fatalf("inline edit: %d %s", status, body)
	}
	_, err = b.EditMessageText(ctx, &tgbot.EditMessageTextParams{InlineMessageID: posted.InlineID, Text: "Alice vs Bob, move 2"})
	if err == nil || errors.Is(err, tgbot.ErrorBadRequest) || !strings.Contains(err.Error(), "error decode response result") {
		t.Fatalf("library's inline edit error = %v, want its decode error for a true result", err)
	}
	got, _ := srv.InlineMessage(posted.InlineID)
	if got.Text != "Alice vs Bob, move 2" || got.Edits != 2 || got.Markup != nil {
		t.Fatalf("inline message = %+v", got)
	}
	status, body = raw(t, srv, "editMessageText", url.Values{"inline_message_id": {posted.InlineID}, "text": {"Alice vs Bob, move 2"}})
	if status != 400 || !strings.Contains(string(body), "message is not modified") {
		t.Fatalf("identical inline edit: %d %s", status, body)
	}

	// editMessageMedia of an inline message: an upload fails, a URL works.
	_, err = b.EditMessageMedia(ctx, &tgbot.EditMessageMediaParams{InlineMessageID: posted.InlineID,
		Media: &models.InputMediaPhoto{Media: "attach://b.png", MediaAttachment: bytes.NewReader(pngBytes(t, 8, 8))}})
	wantErr(t, err, "Bad Request")
	status, body = raw(t, srv, "editMessageMedia", url.Values{"inline_message_id": {posted.InlineID},
		"media": {`{"type":"photo","media":"https://example.com/b.png","caption":"12×12"}`}})
	if status != 200 || !strings.Contains(string(body), `"result":true`) {
		t.Fatalf("inline editMessageMedia by URL: %d %s", status, body)
	}
	if got, _ = srv.InlineMessage(posted.InlineID); got.PhotoURL != "https://example.com/b.png" || got.Caption != "12×12" {
		t.Fatalf("inline message after media edit = %+v", got)
	}

	// A result without a keyboard gets no inline_message_id.
	if _, err := alice.InlineQuery(""); err != nil {
		t.Fatal(err)
	}
	if _, err := alice.ChooseInlineResult("plain", chat.ID()); err == nil {
		t.Fatal("chose a result of an unanswered query")
	}
}

func TestDeepLinkButton(t *testing.T) {
	srv := telegramtest.Start(t)
	b := client(t, srv)
	alice, bob := started(t, srv, "Alice", "en"), srv.NewUser("Bob", "en")
	g := srv.NewGroup("g", alice, bob)
	link := "https://t.me/" + telegramtest.DefaultBotUsername + "?start=join_abc"
	_, err := b.SendMessage(guard(t), &tgbot.SendMessageParams{ChatID: g.ID(), Text: "invite",
		ReplyMarkup: botapi.Markup(&models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{{{Text: "Join", URL: link}}, {{Text: "Site", URL: "https://example.com"}}}})})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := srv.LastMessage(g.ID())
	if qid, err := bob.Press(m, "Join"); err != nil || qid != "" {
		t.Fatalf("Press(deep link) = %q, %v", qid, err)
	}
	msgs := srv.Messages(bob.ID())
	if len(msgs) != 1 || msgs[0].Text != "/start join_abc" || msgs[0].FromBot {
		t.Fatalf("bob's chat = %+v", msgs)
	}
	if _, err := bob.Press(m, "Site"); err == nil {
		t.Fatal("pressing an outside URL succeeded")
	}
	// Bob has now written to the bot, so the bot may answer him.
	if _, err := b.SendMessage(guard(t), &tgbot.SendMessageParams{ChatID: bob.ID(), Text: "joined"}); err != nil {
		t.Fatal(err)
	}
}

func TestLongPollingWithLibrary(t *testing.T) {
	srv := telegramtest.Start(t)
	got := make(chan *models.Update, 16)
	b := client(t, srv, tgbot.WithNotAsyncHandlers(), tgbot.WithDefaultHandler(func(_ context.Context, _ *tgbot.Bot, u *models.Update) {
		got <- u
	}))
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		b.Start(ctx)
	}()
	defer func() {
		cancel()
		wg.Wait()
	}()
	u := srv.NewUser("Alice", "en")
	const n = 5
	for i := range n {
		if _, err := u.Send(u.ID(), fmt.Sprintf("m%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	var last int64
	for i := range n {
		select {
		case up := <-got:
			if up.Message == nil || up.Message.Text != fmt.Sprintf("m%d", i) || up.ID <= last {
				t.Fatalf("update %d = id %d %+v, want m%d after id %d", i, up.ID, up.Message, i, last)
			}
			last = up.ID
		case <-guard(t).Done():
			t.Fatalf("only %d of %d updates arrived", i, n)
		}
	}
	if err := srv.WaitIdle(guard(t)); err != nil {
		t.Fatalf("updates not confirmed by the next offset: %v", err)
	}
}

func TestGetUpdatesOffsetsAndWaking(t *testing.T) {
	srv := telegramtest.Start(t)
	u := srv.NewUser("Alice", "en")
	for _, text := range []string{"a", "b", "c"} {
		if _, err := u.Send(u.ID(), text); err != nil {
			t.Fatal(err)
		}
	}
	ids := func(body []byte) []int64 {
		var ups []struct {
			ID int64 `json:"update_id"`
		}
		mustDecodeResult(t, body, &ups)
		var out []int64
		for _, x := range ups {
			out = append(out, x.ID)
		}
		return out
	}
	_, body := raw(t, srv, "getUpdates", url.Values{"limit": {"2"}})
	first := ids(body)
	if len(first) != 2 || first[1] != first[0]+1 {
		t.Fatalf("limit 2: ids %v", first)
	}
	_, body = raw(t, srv, "getUpdates", url.Values{"offset": {fmt.Sprint(first[1])}})
	if got := ids(body); len(got) != 2 || got[0] != first[1] {
		t.Fatalf("offset %d: ids %v, want it and the next", first[1], got)
	}
	_, body = raw(t, srv, "getUpdates", url.Values{"offset": {fmt.Sprint(first[1] + 2)}})
	if got := ids(body); len(got) != 0 {
		t.Fatalf("all confirmed: ids %v", got)
	}

	// A long poll returns as soon as an update is queued.
	calls := srv.Calls("getUpdates")
	done := make(chan []int64, 1)
	go func() {
		resp, err := http.PostForm(srv.URL()+"/bot"+srv.Token()+"/getUpdates", url.Values{"timeout": {"30"}, "offset": {fmt.Sprint(first[1] + 2)}})
		if err != nil {
			done <- nil
			return
		}
		defer resp.Body.Close()
		var r struct {
			Result []struct {
				ID int64 `json:"update_id"`
			} `json:"result"`
		}
		_ = json.NewDecoder(resp.Body).Decode(&r)
		var out []int64
		for _, x := range r.Result {
			out = append(out, x.ID)
		}
		done <- out
	}()
	if err := srv.WaitFor(guard(t), func(v telegramtest.View) bool { return v.Calls("getUpdates") > calls }); err != nil {
		t.Fatal(err)
	}
	id := srv.Deliver(models.Update{Message: &models.Message{ID: 1, Date: 1, Text: "forged", Chat: models.Chat{ID: u.ID(), Type: "private"}}})
	select {
	case got := <-done:
		if len(got) != 1 || got[0] != id || id != first[1]+2 {
			t.Fatalf("long poll returned %v, want [%d]", got, first[1]+2)
		}
	case <-guard(t).Done():
		t.Fatal("long poll did not return after an update was queued")
	}
}

func TestSecondPollerGetsConflict(t *testing.T) {
	srv := telegramtest.Start(t)
	calls := srv.Calls("getUpdates")
	first := make(chan int, 1)
	go func() {
		resp, err := http.PostForm(srv.URL()+"/bot"+srv.Token()+"/getUpdates", url.Values{"timeout": {"30"}})
		if err != nil {
			first <- 0
			return
		}
		resp.Body.Close()
		first <- resp.StatusCode
	}()
	if err := srv.WaitFor(guard(t), func(v telegramtest.View) bool { return v.Calls("getUpdates") > calls }); err != nil {
		t.Fatal(err)
	}
	if status, body := raw(t, srv, "getUpdates", url.Values{"timeout": {"0"}}); status != 200 {
		t.Fatalf("second poll: %d %s", status, body)
	}
	if status := <-first; status != http.StatusConflict {
		t.Fatalf("first poll ended with %d, want 409", status)
	}
}

func TestWebhook(t *testing.T) {
	srv := telegramtest.Start(t, telegramtest.WithWebhookRetry(4, time.Millisecond))
	var mu sync.Mutex
	var secrets []string
	var bodies []string
	fails := 2
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b bytes.Buffer
		_, _ = b.ReadFrom(r.Body)
		mu.Lock()
		defer mu.Unlock()
		secrets = append(secrets, r.Header.Get("X-Telegram-Bot-Api-Secret-Token"))
		bodies = append(bodies, b.String())
		if fails > 0 {
			fails--
			w.WriteHeader(http.StatusBadGateway)
		}
	}))
	defer hook.Close()
	b := client(t, srv)
	ctx := guard(t)
	if ok, err := b.SetWebhook(ctx, &tgbot.SetWebhookParams{URL: hook.URL, SecretToken: "s3cret"}); err != nil || !ok {
		t.Fatalf("SetWebhook = %v, %v", ok, err)
	}
	u := srv.NewUser("Alice", "en")
	if _, err := u.Send(u.ID(), "/start"); err != nil {
		t.Fatal(err)
	}
	if err := srv.WaitFor(ctx, func(v telegramtest.View) bool { return v.Webhook().Delivered == 1 }); err != nil {
		t.Fatal(err)
	}
	st := srv.Webhook()
	if st.Failed != 2 || st.Dropped != 0 || srv.PendingUpdates() != 0 {
		t.Fatalf("webhook stats = %+v, pending %d", st, srv.PendingUpdates())
	}
	mu.Lock()
	if len(bodies) != 3 || bodies[0] != bodies[2] || !strings.Contains(bodies[2], `"text":"/start"`) {
		t.Fatalf("webhook bodies = %q", bodies)
	}
	for _, s := range secrets {
		if s != "s3cret" {
			t.Fatalf("secret header = %q", s)
		}
	}
	fails = 100
	mu.Unlock()

	status, body := raw(t, srv, "getUpdates", nil)
	if status != http.StatusConflict || !strings.Contains(string(body), "webhook is active") {
		t.Fatalf("getUpdates with a webhook: %d %s", status, body)
	}

	// A receiver that keeps failing: the update is dropped after 4 attempts.
	if _, err := u.Send(u.ID(), "again"); err != nil {
		t.Fatal(err)
	}
	if err := srv.WaitFor(ctx, func(v telegramtest.View) bool { return v.Webhook().Dropped == 1 }); err != nil {
		t.Fatal(err)
	}
	if st := srv.Webhook(); st.Failed != 6 || !strings.Contains(st.LastError, "502") {
		t.Fatalf("stats after a dropped update = %+v", st)
	}
	info, err := b.GetWebhookInfo(ctx)
	if err != nil || info.URL != hook.URL || info.LastErrorMessage == "" {
		t.Fatalf("GetWebhookInfo = %+v, %v", info, err)
	}
	if ok, err := b.DeleteWebhook(ctx, &tgbot.DeleteWebhookParams{DropPendingUpdates: true}); err != nil || !ok {
		t.Fatalf("DeleteWebhook = %v, %v", ok, err)
	}
	if status, _ := raw(t, srv, "getUpdates", nil); status != 200 {
		t.Fatalf("getUpdates after deleteWebhook: %d", status)
	}
}

func TestWebhookWithLibraryHandler(t *testing.T) {
	srv := telegramtest.Start(t)
	got := make(chan *models.Update, 1)
	b := client(t, srv, tgbot.WithWebhookSecretToken("tok"), tgbot.WithDefaultHandler(func(_ context.Context, _ *tgbot.Bot, u *models.Update) {
		got <- u
	}))
	hook := httptest.NewServer(b.WebhookHandler())
	defer hook.Close()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		b.StartWebhook(ctx)
	}()
	defer func() {
		cancel()
		wg.Wait()
	}()
	if _, err := b.SetWebhook(guard(t), &tgbot.SetWebhookParams{URL: hook.URL, SecretToken: "tok"}); err != nil {
		t.Fatal(err)
	}
	u := srv.NewUser("Alice", "en")
	if _, err := u.Send(u.ID(), "/help"); err != nil {
		t.Fatal(err)
	}
	select {
	case up := <-got:
		if up.Message == nil || up.Message.Text != "/help" {
			t.Fatalf("update = %+v", up)
		}
	case <-guard(t).Done():
		t.Fatal("the library's webhook handler got no update")
	}
}

func TestFailNext(t *testing.T) {
	srv, b, ctx, u := startedAlice(t)
	srv.FailNext("sendMessage", 1, http.StatusTooManyRequests, 7)
	_, err := b.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: u.ID(), Text: "x"})
	var tooMany *tgbot.TooManyRequestsError
	if !errors.As(err, &tooMany) || tooMany.RetryAfter != 7 {
		t.Fatalf("err = %v, want *tgbot.TooManyRequestsError with RetryAfter 7", err)
	}
	if n := len(srv.BotMessages(u.ID())); n != 0 {
		t.Fatalf("a failed call had an effect: %d bot messages", n)
	}
	if _, err := b.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: u.ID(), Text: "x"}); err != nil {
		t.Fatalf("after the fault: %v", err)
	}
	srv.FailNext("*", 2, http.StatusBadGateway, 0)
	for range 2 {
		_, err = b.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: u.ID(), Text: "y"})
		wantErr(t, err, "502 Bad Gateway")
	}
	if got := srv.Calls("SENDMESSAGE"); got != 4 {
		t.Fatalf("Calls(sendMessage) = %d, want 4", got)
	}
	log := srv.CallLog()
	if last := log[len(log)-1]; last.Method != "sendMessage" || last.Code != 502 || last.Params["text"] != "y" {
		t.Fatalf("last call = %+v", last)
	}
}

func TestSetMyCommandsPerLanguage(t *testing.T) {
	srv := telegramtest.Start(t)
	b := client(t, srv)
	ctx := guard(t)
	for lang, desc := range map[string]string{"en": "Play the AI", "ru": "Игра с ИИ"} {
		if _, err := b.SetMyCommands(ctx, &tgbot.SetMyCommandsParams{LanguageCode: lang, Commands: []models.BotCommand{{Command: "ai", Description: desc}}}); err != nil {
			t.Fatal(err)
		}
	}
	if got := srv.Commands("ru"); len(got) != 1 || got[0].Description != "Игра с ИИ" {
		t.Fatalf("Commands(ru) = %+v", got)
	}
	if got := srv.Commands(""); got != nil {
		t.Fatalf("Commands(\"\") = %+v, want none", got)
	}
	_, err := b.SetMyCommands(ctx, &tgbot.SetMyCommandsParams{Commands: []models.BotCommand{{Command: "Bad-Name", Description: "x"}}})
	wantErr(t, err, "BOT_COMMAND_INVALID")
}

func TestWaitGivesUp(t *testing.T) {
	srv := telegramtest.Start(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := srv.WaitMessage(ctx, 1, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("WaitMessage on a cancelled context = %v", err)
	}
	srv.Close()
	if err := srv.WaitFor(context.Background(), func(telegramtest.View) bool { return false }); !errors.Is(err, telegramtest.ErrClosed) {
		t.Fatalf("WaitFor after Close = %v, want ErrClosed", err)
	}
}

func TestConcurrentUse(t *testing.T) {
	srv := telegramtest.Start(t)
	b := client(t, srv)
	ctx := guard(t)
	users := make([]*telegramtest.Person, 4)
	for i := range users {
		users[i] = started(t, srv, fmt.Sprintf("U%d", i), "en")
	}
	var wg sync.WaitGroup
	for _, u := range users {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for i := range 10 {
				if _, err := b.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: u.ID(), Text: fmt.Sprint(i), ReplyMarkup: botapi.Markup(keyboard(1, 1))}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
		go func() {
			defer wg.Done()
			for range 10 {
				if m, ok := srv.LastMessage(u.ID()); ok {
					if _, err := u.PressAt(m, 0, 0); err != nil {
						t.Error(err)
					}
				}
				_, _ = u.Send(u.ID(), "d3")
			}
		}()
	}
	wg.Wait()
	for _, u := range users {
		if n := len(srv.BotMessages(u.ID())); n != 10 {
			t.Fatalf("user %d has %d bot messages, want 10", u.ID(), n)
		}
	}
}

func TestAllowedUpdatesBlockTTLAndJSONBodies(t *testing.T) {
	clock := gametest.NewClock(time.Unix(1_800_000_000, 0))
	srv, b, ctx, u := startedAlice(t, telegramtest.WithClock(clock.Now), telegramtest.WithCallbackTTL(15*time.Second))

	// allowed_updates given to getUpdates filters later updates.
	if status, body := raw(t, srv, "getUpdates", url.Values{"allowed_updates": {`["message"]`}}); status != 200 {
		t.Fatalf("getUpdates: %d %s", status, body)
	}
	if _, err := u.InlineQuery("x"); err != nil {
		t.Fatal(err)
	}
	if _, err := u.Send(u.ID(), "hi"); err != nil {
		t.Fatal(err)
	}
	if ups := drain(t, srv); len(ups) != 1 || ups[0]["message"] == nil {
		t.Fatalf("with allowed_updates=[message]: %s", ups)
	}
	raw(t, srv, "getUpdates", url.Values{"allowed_updates": {`[]`}}) // back to the default set

	// A JSON body works like a form.
	resp, err := http.Post(srv.URL()+"/bot"+srv.Token()+"/sendMessage", "application/json",
		strings.NewReader(fmt.Sprintf(`{"chat_id":%d,"text":"json","reply_markup":{"inline_keyboard":[[{"text":"a","callback_data":"a"}]]}}`, u.ID())))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	m, _ := srv.LastMessage(u.ID())
	if resp.StatusCode != 200 || m.Text != "json" || m.ButtonCount() != 1 {
		t.Fatalf("JSON sendMessage: %d, %+v", resp.StatusCode, m)
	}

	// A callback query expires after the TTL by the injected clock.
	qid, err := u.Press(m, "a")
	if err != nil {
		t.Fatal(err)
	}
	clock.Add(16 * time.Second)
	_, err = b.AnswerCallbackQuery(ctx, &tgbot.AnswerCallbackQueryParams{CallbackQueryID: qid})
	wantErr(t, err, "query is too old")

	// A user who blocked the bot cannot be messaged until they write again.
	u.Block()
	_, err = b.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: u.ID(), Text: "x"})
	wantErr(t, err, "bot was blocked by the user")
	if _, err := u.Send(u.ID(), "/start"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.SendChatAction(ctx, &tgbot.SendChatActionParams{ChatID: u.ID(), Action: models.ChatActionTyping}); err != nil {
		t.Fatalf("SendChatAction: %v", err)
	}
}
