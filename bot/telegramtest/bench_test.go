package telegramtest_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	tgbot "github.com/go-telegram/bot"

	"github.com/reversibot/reversi/bot/botapi"
	"github.com/reversibot/reversi/bot/telegramtest"
)

// BenchmarkSendBoardLoopback measures a real go-telegram/bot client sending
// an 8×8 keyboard board to the fake over loopback HTTP: the fake's share of
// every e2e round trip.
func BenchmarkSendBoardLoopback(b *testing.B) {
	srv := telegramtest.New()
	defer srv.Close()
	u := srv.NewUser("Bench", "en")
	if _, err := u.Send(u.ID(), "/start"); err != nil {
		b.Fatal(err)
	}
	c, err := tgbot.New(srv.Token(), tgbot.WithServerURL(srv.URL()), tgbot.WithSkipGetMe())
	if err != nil {
		b.Fatal(err)
	}
	kb := keyboard(8, 8)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: u.ID(), Text: "Alice vs Bob", ReplyMarkup: botapi.Markup(kb)}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEditBoardInProcess measures editMessageText with an 8×8 keyboard
// through ServeHTTP, without the network.
func BenchmarkEditBoardInProcess(b *testing.B) {
	srv := telegramtest.New()
	defer srv.Close()
	u := srv.NewUser("Bench", "en")
	if _, err := u.Send(u.ID(), "/start"); err != nil {
		b.Fatal(err)
	}
	kb := boardKeyboard(func(r, c int) string { return fmt.Sprintf("v1:m:%d%d:123456", r, c) }, "")
	send := func(method string, v url.Values) int {
		req := httptest.NewRequest(http.MethodPost, "/bot"+srv.Token()+"/"+method, strings.NewReader(v.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		return rec.Code
	}
	chat := fmt.Sprint(u.ID())
	if code := send("sendMessage", url.Values{"chat_id": {chat}, "text": {"move 0"}, "reply_markup": {kb}}); code != 200 {
		b.Fatalf("sendMessage: %d", code)
	}
	m, _ := srv.LastMessage(u.ID())
	id := fmt.Sprint(m.ID)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		if code := send("editMessageText", url.Values{"chat_id": {chat}, "message_id": {id}, "text": {fmt.Sprintf("move %d", i)}, "reply_markup": {kb}}); code != 200 {
			b.Fatalf("edit: %d", code)
		}
	}
}

// BenchmarkEditBoardJSON measures editMessageText with an 8×8 keyboard sent as a JSON body
// (as a bot that builds its requests by hand sends it) through ServeHTTP, without the
// network: the fake's own cost of one board edit.
func BenchmarkEditBoardJSON(b *testing.B) {
	srv := telegramtest.New()
	defer srv.Close()
	u := srv.NewUser("Bench", "en")
	if _, err := u.Send(u.ID(), "/start"); err != nil {
		b.Fatal(err)
	}
	kb := boardKeyboard(func(r, c int) string { return fmt.Sprintf("1mAbCdEfGh,%d,%d", 10*r+c, 7) },
		`[{"text":"🏳 Resign","callback_data":"1rAbCdEfGh,7"},{"text":"↻ Board","callback_data":"1bAbCdEfGh,7"}]`)
	post := func(method, body string) int {
		req := httptest.NewRequest(http.MethodPost, "/bot"+srv.Token()+"/"+method, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		return rec.Code
	}
	chat := fmt.Sprint(u.ID())
	if code := post("sendMessage", `{"chat_id":`+chat+`,"text":"move 0","reply_markup":`+kb+`}`); code != 200 {
		b.Fatalf("sendMessage: %d", code)
	}
	m, _ := srv.LastMessage(u.ID())
	bodies := [2]string{}
	for i := range bodies {
		bodies[i] = fmt.Sprintf(`{"chat_id":%s,"message_id":%d,"text":"Alice vs Bob\nmove %d","reply_markup":%s}`, chat, m.ID, i, kb)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(bodies[0])))
	i := 0
	for b.Loop() {
		i++
		if code := post("editMessageText", bodies[i%2]); code != 200 {
			b.Fatalf("edit: %d", code)
		}
	}
}

// boardKeyboard returns the reply_markup JSON of an 8×8 board whose button at row r, column c
// carries data(r, c), followed by the rows in extra (JSON arrays, "" for none).
func boardKeyboard(data func(r, c int) string, extra string) string {
	var kb strings.Builder
	kb.WriteString(`{"inline_keyboard":[`)
	for r := range 8 {
		if r > 0 {
			kb.WriteByte(',')
		}
		kb.WriteByte('[')
		for c := range 8 {
			if c > 0 {
				kb.WriteByte(',')
			}
			fmt.Fprintf(&kb, `{"text":"·","callback_data":%q}`, data(r, c))
		}
		kb.WriteByte(']')
	}
	if extra != "" {
		kb.WriteString("," + extra)
	}
	kb.WriteString(`]}`)
	return kb.String()
}
