package telegramtest_test

import (
	"bytes"
	"testing"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/telegramtest"
)

// TestEntities: a text's and a caption's entities are kept with the message as sent, edits
// replace them (and an edit that changes only them is an edit), and entities that do not lie
// inside the text in UTF-16 units, a text_mention without a user, or entities beside a
// parse_mode are refused.
func TestEntities(t *testing.T) {
	srv, b, ctx, u := startedAlice(t)
	text := "🦊 Боб 🦊 to move" // the fox is two UTF-16 units
	bob := models.MessageEntity{Type: "text_mention", Offset: 3, Length: 6, User: &models.User{ID: 42, FirstName: "Боб"}}
	m, err := b.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: u.ID(), Text: text, Entities: []models.MessageEntity{bob}})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := srv.Message(u.ID(), m.ID)
	if len(got.Entities) != 1 || telegramtest.EntityText(got.Text, got.Entities[0]) != "Боб 🦊" || got.Mentions()[0] != 42 {
		t.Fatalf("sent entities = %+v (%q)", got.Entities, telegramtest.EntityText(got.Text, got.Entities[0]))
	}
	if len(m.Entities) != 1 || m.Entities[0].User == nil || m.Entities[0].User.ID != 42 {
		t.Fatalf("returned message entities = %+v", m.Entities)
	}
	// Only the entities change: an edit.
	moved := bob
	moved.Offset, moved.Length = 0, 2
	if _, err := b.EditMessageText(ctx, &tgbot.EditMessageTextParams{ChatID: u.ID(), MessageID: m.ID, Text: text,
		Entities: []models.MessageEntity{moved}}); err != nil {
		t.Fatalf("edit of the entities: %v", err)
	}
	if got, _ = srv.Message(u.ID(), m.ID); telegramtest.EntityText(got.Text, got.Entities[0]) != "🦊" {
		t.Fatalf("edited entities = %+v", got.Entities)
	}
	_, err = b.EditMessageText(ctx, &tgbot.EditMessageTextParams{ChatID: u.ID(), MessageID: m.ID, Text: text,
		Entities: []models.MessageEntity{moved}})
	wantErr(t, err, "message is not modified")
	// An edit without entities drops them.
	if _, err := b.EditMessageText(ctx, &tgbot.EditMessageTextParams{ChatID: u.ID(), MessageID: m.ID, Text: text}); err != nil {
		t.Fatal(err)
	}
	if got, _ = srv.Message(u.ID(), m.ID); len(got.Entities) != 0 {
		t.Fatalf("entities after a plain edit = %+v", got.Entities)
	}

	for name, e := range map[string]models.MessageEntity{
		"past the end":     {Type: "bold", Offset: 10, Length: 8}, // 17 units in all
		"negative offset":  {Type: "bold", Offset: -1, Length: 2},
		"empty":            {Type: "bold", Offset: 1, Length: 0},
		"mention, no user": {Type: "text_mention", Offset: 0, Length: 2},
		"unknown type":     {Type: "sparkle", Offset: 0, Length: 2},
		"units, not bytes": {Type: "bold", Offset: 0, Length: 18}, // 15 runes, 17 units: 1 too many
	} {
		_, err := b.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: u.ID(), Text: text, Entities: []models.MessageEntity{e}})
		if err == nil {
			t.Errorf("%s: entity %+v taken", name, e)
			continue
		}
		wantErr(t, err, "can't parse entities")
	}
	// The whole text is 17 UTF-16 units (15 runes).
	if _, err := b.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: u.ID(), Text: text,
		Entities: []models.MessageEntity{{Type: "bold", Offset: 0, Length: 17}}}); err != nil {
		t.Fatalf("an entity over the whole text: %v", err)
	}
	_, err = b.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: u.ID(), Text: "<b>x</b>", ParseMode: models.ParseModeHTML,
		Entities: []models.MessageEntity{{Type: "bold", Offset: 0, Length: 1}}})
	wantErr(t, err, "can't parse entities")

	// Captions: sendPhoto and editMessageMedia.
	img := pngBytes(t, 16, 16)
	p, err := b.SendPhoto(ctx, &tgbot.SendPhotoParams{ChatID: u.ID(), Caption: text, CaptionEntities: []models.MessageEntity{bob},
		Photo: &models.InputFileUpload{Filename: "board.png", Data: bytes.NewReader(img)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.CaptionEntities) != 1 || len(p.Entities) != 0 {
		t.Fatalf("photo message entities = %+v / %+v", p.CaptionEntities, p.Entities)
	}
	got, _ = srv.Message(u.ID(), p.ID)
	if telegramtest.EntityText(got.Caption, got.Entities[0]) != "Боб 🦊" {
		t.Fatalf("caption entities = %+v", got.Entities)
	}
	if _, err := b.EditMessageMedia(ctx, &tgbot.EditMessageMediaParams{ChatID: u.ID(), MessageID: p.ID,
		Media: &models.InputMediaPhoto{Media: got.PhotoFileID, Caption: text, CaptionEntities: []models.MessageEntity{moved}}}); err != nil {
		t.Fatalf("editMessageMedia of the entities: %v", err)
	}
	if got, _ = srv.Message(u.ID(), p.ID); telegramtest.EntityText(got.Caption, got.Entities[0]) != "🦊" {
		t.Fatalf("caption entities after editMessageMedia = %+v", got.Entities)
	}
	_, err = b.EditMessageMedia(ctx, &tgbot.EditMessageMediaParams{ChatID: u.ID(), MessageID: p.ID,
		Media: &models.InputMediaPhoto{Media: got.PhotoFileID, Caption: "x", CaptionEntities: []models.MessageEntity{bob}}})
	wantErr(t, err, "can't parse entities")
	if _, err := b.EditMessageCaption(ctx, &tgbot.EditMessageCaptionParams{ChatID: u.ID(), MessageID: p.ID, Caption: text,
		CaptionEntities: []models.MessageEntity{bob}}); err != nil {
		t.Fatalf("editMessageCaption of the entities: %v", err)
	}
	if got, _ = srv.Message(u.ID(), p.ID); telegramtest.EntityText(got.Caption, got.Entities[0]) != "Боб 🦊" {
		t.Fatalf("caption entities after editMessageCaption = %+v", got.Entities)
	}
}
