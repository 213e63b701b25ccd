package bot

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
)

// tapUpdate is a callback query update as Telegram sends it, the tapped message's keyboard
// included.
const tapUpdate = `{"update_id":10,"callback_query":{"id":"q1","from":{"id":7,"is_bot":false,"first_name":"Al","language_code":"en"},` +
	`"message":{"message_id":5,"from":{"id":1,"is_bot":true,"first_name":"Bot"},"chat":{"id":7,"first_name":"Al","type":"private"},` +
	`"date":1700000000,"text":"board","reply_markup":{"inline_keyboard":[[{"text":"⚫","callback_data":"1n:3"},{"text":"\"}]","callback_data":"1m:4"}]]}},` +
	`"chat_instance":"ci","data":"1m:4"}}`

// plainDecode is how the bot decoded updates before wireUpdate: into models.Update, then
// down to what the bot reads of a callback query's message.
func plainDecode(data []byte) (*models.Update, error) {
	var u models.Update
	if err := json.Unmarshal(data, &u); err != nil {
		return nil, err
	}
	if q := u.CallbackQuery; q != nil {
		if m := q.Message.Message; m != nil {
			q.Message.Message = &models.Message{ID: m.ID, Date: m.Date, Chat: m.Chat}
		}
	}
	return &u, nil
}

func TestDecodeUpdate(t *testing.T) {
	inaccessible := `{"update_id":11,"callback_query":{"id":"q2","from":{"id":7,"is_bot":false,"first_name":"Al"},` +
		`"message":{"message_id":6,"chat":{"id":-100,"title":"G","type":"supergroup"},"date":0},"chat_instance":"ci","data":"x"}}`
	inline := `{"update_id":12,"callback_query":{"id":"q3","from":{"id":7,"is_bot":false,"first_name":"Al"},"inline_message_id":"AAQ","chat_instance":"ci","data":"y"}}`
	message := `{"update_id":13,"message":{"message_id":9,"from":{"id":7,"is_bot":false,"first_name":"Al"},"chat":{"id":7,"type":"private"},"date":1,"text":"/start",` +
		`"reply_markup":{"inline_keyboard":[[{"text":"a","callback_data":"b"}]]}}}`
	for _, data := range []string{tapUpdate, inaccessible, inline, message} {
		want, err := plainDecode([]byte(data))
		if err != nil {
			t.Fatal(err)
		}
		got, err := decodeUpdate(cutKeyboards([]byte(data), false))
		if err != nil {
			t.Fatalf("decodeUpdate(%s): %v", data, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("decodeUpdate(%s)\n= %+v\nwant %+v", data, got, want)
		}
	}
	// A typed message keeps its keyboard: only a tapped message's is cut.
	u, _ := decodeUpdate(cutKeyboards([]byte(message), false))
	if u.Message.ReplyMarkup == nil {
		t.Errorf("a message update lost its reply_markup")
	}
}

func TestCutKeyboards(t *testing.T) {
	tests := []struct{ in, want string }{
		{tapUpdate, strings.Replace(tapUpdate, `,"reply_markup":{"inline_keyboard":[[{"text":"⚫","callback_data":"1n:3"},{"text":"\"}]","callback_data":"1m:4"}]]}`, "", 1)},
		// first, middle, last and only member; spaces; two keyboards
		{`{"callback_query":{"message":{"reply_markup":{},"a":1}}}`, `{"callback_query":{"message":{"a":1}}}`},
		{`{"callback_query":{"message":{"a":1,"reply_markup":[1,2],"b":2}}}`, `{"callback_query":{"message":{"a":1,"b":2}}}`},
		{`{"callback_query":{"message":{"a":1, "reply_markup" : {"x":"}"} }}}`, `{"callback_query":{"message":{"a":1 }}}`},
		{`{"callback_query":{"message":{"reply_markup":null}}}`, `{"callback_query":{"message":{}}}`},
		{`{"callback_query":{"message":{"a":1,"reply_markup":1,"reply_markup":2}}}`, `{"callback_query":{"message":{"a":1}}}`},
		{`{"callback_query":{"message":{"reply_markup":1,"reply_markup":2}}}`, `{"callback_query":{"message":{}}}`},
		// not the path: untouched
		{`{"message":{"reply_markup":{}}}`, `{"message":{"reply_markup":{}}}`},
		{`{"callback_query":{"reply_markup":{},"message":{"text":"reply_markup"}}}`, `{"callback_query":{"reply_markup":{},"message":{"text":"reply_markup"}}}`},
		// malformed: untouched
		{`{"callback_query":{"message":{"reply_markup":{}`, `{"callback_query":{"message":{"reply_markup":{}`},
		{`{"callback_query":{"message":{"reply_markup" {}}}}`, `{"callback_query":{"message":{"reply_markup" {}}}}`},
		{`[1,2]`, `[1,2]`},
		{``, ``},
	}
	for _, tt := range tests {
		if got := string(cutKeyboards([]byte(tt.in), false)); got != tt.want {
			t.Errorf("cutKeyboards(%s)\n= %s\nwant %s", tt.in, got, tt.want)
		}
	}
	reply := `{"ok":true,"result":[` + tapUpdate + `,{"update_id":2,"message":{"message_id":1,"date":1,"chat":{"id":1,"type":"private"},"reply_markup":{}}},` + tapUpdate + `]}`
	got := string(cutKeyboards([]byte(reply), true))
	if strings.Count(got, "reply_markup") != 1 || strings.Count(got, "inline_keyboard") != 0 {
		t.Errorf("cutKeyboards(reply) = %s", got)
	}
	var r struct {
		Result []json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal([]byte(got), &r); err != nil || len(r.Result) != 3 {
		t.Errorf("cut reply %s: %v, %d updates", got, err, len(r.Result))
	}
}

// FuzzCutKeyboards checks that cutting keyboards never changes what an update decodes to, and
// never panics.
func FuzzCutKeyboards(f *testing.F) {
	f.Add([]byte(tapUpdate), false)
	f.Add([]byte(`{"ok":true,"result":[`+tapUpdate+`]}`), true)
	f.Add([]byte(`{"callback_query":{"message":{"a":1, "reply_markup" : {"x":"}"} ,"date":3}}}`), false)
	f.Add([]byte(`{"update_id":1,"callback_query":{"id":"1","from":{"id":1},"message":{"date":0,"reply_markup":{"\\"":[]}}}}`), false)
	f.Fuzz(func(t *testing.T, data []byte, reply bool) {
		orig := append([]byte(nil), data...)
		cut := cutKeyboards(data, reply)
		if reply {
			var a, b struct {
				Result []json.RawMessage `json:"result"`
			}
			if json.Unmarshal(orig, &a) != nil {
				return
			}
			if err := json.Unmarshal(cut, &b); err != nil || len(a.Result) != len(b.Result) {
				t.Fatalf("reply %s cut to %s: %v", orig, cut, err)
			}
			for i := range a.Result {
				same(t, a.Result[i], b.Result[i])
			}
			return
		}
		same(t, orig, cut)
	})
}

// same fails when the update orig decodes (as the bot reads updates) but cut does not, or to
// something else.
func same(t *testing.T, orig, cut []byte) {
	t.Helper()
	want, err := decodeUpdate(orig)
	if err != nil {
		return
	}
	got, err := decodeUpdate(cut)
	if err != nil {
		t.Fatalf("%s decodes, cut to %s it does not: %v", orig, cut, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s cut to %s decodes to\n%+v\nwant %+v", orig, cut, got, want)
	}
}

func TestGetUpdates(t *testing.T) {
	ctx := context.Background()
	b, s := apiBot(t)
	// The second update is not what the Bot API promises (a string for a number): it is left
	// out, and the offset still confirms it with the others.
	s.reply(200, `{"ok":true,"result":[`+tapUpdate+`,{"update_id":11,"message":{"message_id":"x"}},{"update_id":12,"message":{"message_id":1,"date":1,"chat":{"id":7,"type":"private"},"text":"/help"}}]}`)
	s.reply(409, `{"ok":false,"error_code":409,"description":"Conflict: terminated by other getUpdates request"}`)
	s.reply(200, `{"ok":true,"result":[]}`)
	ups, next, err := b.getUpdates(ctx, 0, 49*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(ups) != 2 || ups[0].ID != 10 || ups[0].CallbackQuery == nil || ups[0].CallbackQuery.Message.Message.ID != 5 ||
		ups[1].ID != 12 || ups[1].Message == nil || ups[1].Message.Text != "/help" {
		t.Fatalf("updates %+v", ups)
	}
	if next != 13 {
		t.Errorf("next offset %d, want 13", next)
	}
	if _, n, err := b.getUpdates(ctx, next, time.Second); !errors.Is(err, tgbot.ErrorConflict) || n != next {
		t.Errorf("getUpdates after a 409 = %d, %v; want the same offset and ErrorConflict", n, err)
	}
	if ups, n, err := b.getUpdates(ctx, next, time.Second); err != nil || len(ups) != 0 || n != next {
		t.Errorf("empty getUpdates = %v, %d, %v", ups, n, err)
	}
	calls := s.log()
	want := map[string]any{"timeout": float64(49), "allowed_updates": []any{"message", "callback_query", "inline_query", "chosen_inline_result"}}
	if len(calls) != 3 || calls[0].method != "getUpdates" || !reflect.DeepEqual(calls[0].body, want) {
		t.Fatalf("first getUpdates %+v, want %v", calls, want)
	}
	if got := calls[1].body["offset"]; got != float64(13) {
		t.Errorf("second getUpdates offset %v, want 13", got)
	}
}
