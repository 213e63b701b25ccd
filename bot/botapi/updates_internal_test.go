package botapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/go-telegram/bot/models"
)

const fuzzTap = `{"update_id":10,"callback_query":{"id":"q1","from":{"id":7,"is_bot":false,"first_name":"Al"},` +
	`"message":{"message_id":5,"chat":{"id":7,"type":"private"},"date":1,"text":"b","reply_markup":{"inline_keyboard":[[{"text":"x","callback_data":"y"}]]}},` +
	`"chat_instance":"ci","data":"1m:4"}}`

// plainDecode decodes a getUpdates reply into models.Update, then cuts each callback query's
// message down to what GetUpdates keeps of it.
func plainDecode(data []byte) ([]*models.Update, error) {
	var plain struct {
		Result []*models.Update `json:"result"`
	}
	if err := json.Unmarshal(data, &plain); err != nil {
		return nil, err
	}
	var ups []*models.Update
	for _, u := range plain.Result {
		if u == nil {
			continue
		}
		if q := u.CallbackQuery; q != nil {
			switch m := &q.Message; {
			case m.Message != nil:
				m.Message = &models.Message{ID: m.Message.ID, Date: m.Message.Date, Chat: m.Message.Chat}
			case m.InaccessibleMessage != nil:
				m.InaccessibleMessage.Date = 0
			}
		}
		ups = append(ups, u)
	}
	return ups, nil
}

func TestDecodeUpdates(t *testing.T) {
	inaccessible := `{"update_id":11,"callback_query":{"id":"q2","from":{"id":7,"is_bot":false,"first_name":"Al"},` +
		`"message":{"message_id":6,"chat":{"id":-100,"title":"G","type":"supergroup"},"date":0},"chat_instance":"ci","data":"x"}}`
	inline := `{"update_id":12,"callback_query":{"id":"q3","from":{"id":7,"is_bot":false,"first_name":"Al"},"inline_message_id":"AAQ","chat_instance":"ci","data":"y"}}`
	message := `{"update_id":13,"message":{"message_id":9,"from":{"id":7,"is_bot":false,"first_name":"Al"},"chat":{"id":7,"type":"private"},"date":1,"text":"/start",` +
		`"reply_markup":{"inline_keyboard":[[{"text":"a","callback_data":"b"}]]}}}`
	member := `{"update_id":14,"my_chat_member":{"chat":{"id":-5,"type":"group"},"from":{"id":7,"is_bot":false,"first_name":"Al"},"date":3,` +
		`"old_chat_member":{"status":"member","user":{"id":1,"is_bot":true,"first_name":"B"}},"new_chat_member":{"status":"left","user":{"id":1,"is_bot":true,"first_name":"B"}}}}`
	data := []byte(`{"ok":true,"result":[` + fuzzTap + `,` + inaccessible + `,` + inline + `,` + message + `,` + member + `]}`)
	want, err := plainDecode(data)
	if err != nil {
		t.Fatal(err)
	}
	got, next, drops, err := decodeUpdates(data, 0)
	if err != nil || len(drops) != 0 || next != 15 {
		t.Fatalf("decodeUpdates: next %d, drops %v, %v", next, drops, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("decodeUpdates\n= %+v\nwant %+v", got, want)
	}
	if got[0].CallbackQuery.Message.Message.ID != 5 || got[0].CallbackQuery.Data != "1m:4" || got[0].CallbackQuery.From.ID != 7 {
		t.Errorf("tap %+v", got[0].CallbackQuery)
	}
	if got[3].Message.ReplyMarkup == nil {
		t.Errorf("a typed message lost its reply_markup: only a tapped message is cut down")
	}
	if got[4].MyChatMember == nil {
		t.Errorf("an update of another kind lost its content")
	}
	// One update alone (a webhook's) decodes the same.
	one, err := DecodeUpdate([]byte(fuzzTap))
	if err != nil || !reflect.DeepEqual(one, want[0]) {
		t.Errorf("DecodeUpdate = %+v, %v; want %+v", one, err, want[0])
	}
	if _, err := DecodeUpdate([]byte(`{"update_id":"x"}`)); err == nil {
		t.Error("DecodeUpdate of a broken update succeeded")
	}
}

// FuzzDecodeUpdates checks decodeUpdates on any reply: it never panics; a reply whose updates
// all decode into models.Update gives them all, the same but for what it leaves out of a
// tapped message; the offset it returns confirms every update it gives or drops, and never
// goes back.
func FuzzDecodeUpdates(f *testing.F) {
	f.Add([]byte(`{"ok":true,"result":[`+fuzzTap+`]}`), int64(0))
	f.Add([]byte(`{"ok":true,"result":[`+fuzzTap+`,{"update_id":11,"message":{"message_id":"x"}},null]}`), int64(3))
	f.Add([]byte(`{"ok":true,"result":[{"update_id":4,"callback_query":{"message":{"date":0,"chat":{"id":1}}}}]}`), int64(0))
	f.Add([]byte(`{"ok":true,"result":[{"update_id":4,"callback_query":{"message":null}}]}`), int64(0))
	f.Add([]byte(`{"ok":false,"error_code":429,"description":"Too Many Requests","parameters":{"retry_after":3}}`), int64(9))
	f.Add([]byte(`<html>`), int64(0))
	f.Fuzz(func(t *testing.T, data []byte, offset int64) {
		ups, next, drops, err := decodeUpdates(data, offset)
		if err != nil {
			if len(ups) != 0 || next != offset {
				t.Fatalf("failed decode gave %d updates, next %d (offset %d)", len(ups), next, offset)
			}
			return
		}
		if next < offset {
			t.Fatalf("next %d before offset %d", next, offset)
		}
		for _, u := range ups {
			if u == nil || u.ID >= next {
				t.Fatalf("update %+v not confirmed by next %d", u, next)
			}
		}
		for _, d := range drops {
			if d.id >= next {
				t.Fatalf("dropped update %d not confirmed by next %d", d.id, next)
			}
		}
		want, err := plainDecode(data)
		if err != nil {
			return
		}
		// "message":null (Telegram never sends it) decodes to no message rather than to an
		// empty inaccessible one.
		emptyAsNone(ups)
		emptyAsNone(want)
		if len(drops) != 0 || len(ups) != len(want) || len(want) > 0 && !reflect.DeepEqual(ups, want) {
			t.Fatalf("decodeUpdates(%s) = %+v (dropped %v), want %+v", data, ups, drops, want)
		}
	})
}

// emptyAsNone replaces the empty inaccessible message of a callback query by no message.
func emptyAsNone(ups []*models.Update) {
	for _, u := range ups {
		if q := u.CallbackQuery; q != nil && q.Message.InaccessibleMessage != nil &&
			*q.Message.InaccessibleMessage == (models.InaccessibleMessage{}) {
			q.Message = models.MaybeInaccessibleMessage{}
		}
	}
}

// floodReply is a getUpdates reply of n taps on an 8×8 board message, keyboard and all.
func floodReply(n int) []byte {
	kb := &models.InlineKeyboardMarkup{}
	for r := range 8 {
		var row []models.InlineKeyboardButton
		for c := range 8 {
			row = append(row, models.InlineKeyboardButton{Text: "·", CallbackData: fmt.Sprintf("1m:g0123456789:%c%d:12", 'a'+c, r+1)})
		}
		kb.InlineKeyboard = append(kb.InlineKeyboard, row)
	}
	kb.InlineKeyboard = append(kb.InlineKeyboard, []models.InlineKeyboardButton{
		{Text: "↩️ Undo", CallbackData: "1u:g0123456789:12"}, {Text: "💡 Hint", CallbackData: "1h:g0123456789"},
		{Text: "🏳 Resign", CallbackData: "1r:g0123456789"}})
	markup, _ := json.Marshal(kb)
	msg := `{"message_id":5,"from":{"id":1,"is_bot":true,"first_name":"Bot","username":"ReversiBot"},` +
		`"chat":{"id":7,"first_name":"Mallory","username":"mallory","type":"private"},"date":1700000000,` +
		`"text":"⚫ Mallory — ⚪ Bot (Beginner)\nTo move: ⚫ Mallory\nScore 2:2","reply_markup":` + string(markup) + `}`
	var b bytes.Buffer
	b.WriteString(`{"ok":true,"result":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"update_id":%d,"callback_query":{"id":"77%06d","from":{"id":7,"is_bot":false,"first_name":"Mallory","language_code":"en"},"message":%s,"chat_instance":"-123","data":"1m:g0123456789:d3:12"}}`, 1000+i, i, msg)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// BenchmarkDecodeUpdates measures decoding a getUpdates reply of 100 taps on 8×8 boards (per
// tap: ns/op / 100), against decoding the same into models.Update.
func BenchmarkDecodeUpdates(b *testing.B) {
	reply := floodReply(100)
	b.Run("wire", func(b *testing.B) {
		b.SetBytes(int64(len(reply)))
		b.ReportAllocs()
		for b.Loop() {
			if ups, _, _, err := decodeUpdates(reply, 0); err != nil || len(ups) != 100 {
				b.Fatal(err)
			}
		}
	})
	b.Run("models", func(b *testing.B) {
		b.SetBytes(int64(len(reply)))
		b.ReportAllocs()
		for b.Loop() {
			var r struct {
				Result []*models.Update `json:"result"`
			}
			if err := json.Unmarshal(reply, &r); err != nil || len(r.Result) != 100 {
				b.Fatal(err)
			}
		}
	})
}
