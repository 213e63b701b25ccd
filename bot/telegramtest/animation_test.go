package telegramtest_test

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"strings"
	"testing"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
)

// gifBytes is a two-frame w×h GIF.
func gifBytes(t *testing.T, w, h int) []byte {
	t.Helper()
	pal := color.Palette{color.Black, color.White}
	anim := &gif.GIF{}
	for i := range 2 {
		img := image.NewPaletted(image.Rect(0, 0, w, h), pal)
		img.SetColorIndex(i, i, 1)
		anim.Image = append(anim.Image, img)
		anim.Delay = append(anim.Delay, 50)
	}
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, anim); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestAnimations(t *testing.T) {
	srv, b, ctx, u := startedAlice(t)
	data := gifBytes(t, 40, 30)
	m, err := b.SendAnimation(ctx, &tgbot.SendAnimationParams{ChatID: u.ID(), Caption: "replay",
		Animation: &models.InputFileUpload{Filename: "replay.gif", Data: bytes.NewReader(data)}})
	if err != nil {
		t.Fatalf("SendAnimation: %v", err)
	}
	if m.Animation == nil || m.Animation.Width != 40 || m.Animation.Height != 30 || m.Animation.FileID == "" {
		t.Fatalf("animation = %+v", m.Animation)
	}
	got, _ := srv.LastMessage(u.ID())
	if !got.HasAnimation() || got.HasPhoto() || !bytes.Equal(got.Animation, data) || got.Content() != "replay" {
		t.Fatalf("recorded animation: %+v", got)
	}
	// Its caption can be edited; its text cannot.
	if _, err := b.EditMessageCaption(ctx, &tgbot.EditMessageCaptionParams{ChatID: u.ID(), MessageID: m.ID, Caption: "replay 2"}); err != nil {
		t.Fatalf("EditMessageCaption: %v", err)
	}
	_, err = b.EditMessageText(ctx, &tgbot.EditMessageTextParams{ChatID: u.ID(), MessageID: m.ID, Text: "x"})
	wantErr(t, err, "there is no text in the message to edit")
	// A file_id sent before is reused; anything else is refused.
	again, err := b.SendAnimation(ctx, &tgbot.SendAnimationParams{ChatID: u.ID(), Animation: &models.InputFileString{Data: m.Animation.FileID}})
	if err != nil || again.Animation == nil || again.Animation.FileID != m.Animation.FileID {
		t.Fatalf("SendAnimation by file_id = %+v, %v", again.Animation, err)
	}
	_, err = b.SendAnimation(ctx, &tgbot.SendAnimationParams{ChatID: u.ID(), Animation: &models.InputFileString{Data: "no-such-file"}})
	wantErr(t, err, "wrong file identifier/HTTP URL specified")
	_, err = b.SendAnimation(ctx, &tgbot.SendAnimationParams{ChatID: u.ID(),
		Animation: &models.InputFileUpload{Filename: "x.gif", Data: strings.NewReader("not a gif")}})
	wantErr(t, err, "failed to get HTTP URL content")
	_, err = b.SendAnimation(ctx, &tgbot.SendAnimationParams{ChatID: u.ID(), Caption: strings.Repeat("c", 1025),
		Animation: &models.InputFileUpload{Filename: "replay.gif", Data: bytes.NewReader(data)}})
	wantErr(t, err, "message caption is too long")
}
