package bot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/render"
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
		string(render.AppendKeyboardJSON(nil, kb)) + `}`
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

// BenchmarkFloodIntake measures what a flood tap that the budget refuses costs the bot when
// it comes by long polling: cutting the keyboards out of the reply, decoding it, and the
// per-process budget (every tap after the burst is refused). Per tap: ns/op / 100.
func BenchmarkFloodIntake(b *testing.B) {
	reply := floodReply(100)
	u := newUserBudgets(DefaultBudget)
	buf := make([]byte, len(reply))
	b.SetBytes(int64(len(reply)))
	b.ReportAllocs()
	for b.Loop() {
		copy(buf, reply)
		data := cutKeyboards(buf, true)
		var r struct {
			Result []wireUpdate `json:"result"`
		}
		if err := json.Unmarshal(data, &r); err != nil || len(r.Result) != 100 {
			b.Fatal(err)
		}
		for i := range r.Result {
			up := r.Result[i].update()
			u.admit(budgetUser(up), time.Time{}, true)
		}
	}
}

func TestFloodReplyDecodes(t *testing.T) {
	data := cutKeyboards(floodReply(3), true)
	if bytes.Contains(data, []byte("inline_keyboard")) || !strings.Contains(string(data), `"data":"flood-garbage"`) {
		t.Fatalf("cut reply: %s", data)
	}
}
