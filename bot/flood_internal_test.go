package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/botapi"
)

// floodReply is a getUpdates reply of n taps of one user on an 8×8 board message, keyboard
// and all, as Telegram sends a tap.
func floodReply(n int) []byte {
	kb := &models.InlineKeyboardMarkup{}
	for r := range 8 {
		var row []models.InlineKeyboardButton
		for c := range 8 {
			row = append(row, models.InlineKeyboardButton{Text: "·",
				CallbackData: fmt.Sprintf("1m:g0123456789:%c%d:12", 'a'+c, r+1)})
		}
		kb.InlineKeyboard = append(kb.InlineKeyboard, row)
	}
	kb.InlineKeyboard = append(kb.InlineKeyboard, []models.InlineKeyboardButton{
		{Text: "↩️ Undo", CallbackData: "1u:g0123456789:12"}, {Text: "💡 Hint", CallbackData: "1h:g0123456789"},
		{Text: "🏳 Resign", CallbackData: "1r:g0123456789"}})
	msg := `{"message_id":5,"from":{"id":1,"is_bot":true,"first_name":"Bot","username":"ReversiBot"},` +
		`"chat":{"id":7,"first_name":"Mallory","username":"mallory","type":"private"},"date":1700000000,` +
		`"text":"⚫ Mallory — ⚪ Bot (Beginner)\nTo move: ⚫ Mallory\nScore 2:2","reply_markup":` +
		string(mustJSON(kb)) + `}`
	var b bytes.Buffer
	b.WriteString(`{"ok":true,"result":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"update_id":%d,"callback_query":{"id":"77%06d","from":{"id":7,"is_bot":false,"first_name":"Mallory","username":"mallory","language_code":"en"},"message":%s,"chat_instance":"-123","data":"flood-garbage"}}`, 1000+i, i, msg)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// mustJSON is v in JSON.
func mustJSON(v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return data
}

// BenchmarkFloodIntake measures what a flood tap that the budget refuses costs the bot when
// it comes by long polling: a getUpdates of 100 taps through botapi (the request, decoding
// the reply), and the per-process budget (every tap after the burst is refused). Per tap:
// ns/op / 100.
func BenchmarkFloodIntake(b *testing.B) {
	reply := floodReply(100)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(reply)
	}))
	defer srv.Close()
	api, err := botapi.New(botapi.Options{Token: "1:T", ServerURL: srv.URL, HTTPClient: srv.Client()})
	if err != nil {
		b.Fatal(err)
	}
	u := newUserBudgets(DefaultBudget)
	ctx := context.Background()
	b.SetBytes(int64(len(reply)))
	b.ReportAllocs()
	for b.Loop() {
		ups, _, err := api.GetUpdates(ctx, botapi.GetUpdatesParams{})
		if err != nil || len(ups) != 100 {
			b.Fatal(err)
		}
		for _, up := range ups {
			u.admit(budgetUser(up), time.Time{}, answerOf(up))
		}
	}
}

func TestFloodReplyDecodes(t *testing.T) {
	var r struct {
		Result []*models.Update `json:"result"`
	}
	if err := json.Unmarshal(floodReply(3), &r); err != nil || len(r.Result) != 3 {
		t.Fatalf("flood reply: %v, %d updates", err, len(r.Result))
	}
	for _, up := range r.Result {
		if q := up.CallbackQuery; q == nil || q.Data != "flood-garbage" || budgetUser(up) != 7 {
			t.Fatalf("flood update %+v", up)
		}
	}
}
