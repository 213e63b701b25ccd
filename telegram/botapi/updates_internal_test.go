package botapi

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/go-telegram/bot/models"
)

const fuzzTap = `{"update_id":10,"callback_query":{"id":"q1","from":{"id":7,"is_bot":false,"first_name":"Al"},` +
	`"message":{"message_id":5,"chat":{"id":7,"type":"private"},"date":1,"text":"b","reply_markup":{"inline_keyboard":[[{"text":"x","callback_data":"y"}]]}},` +
	`"chat_instance":"ci","data":"1m:4"}}`

// FuzzDecodeUpdates checks decodeUpdates on any reply: it never panics; a reply whose updates
// all decode gives them all, as encoding/json decodes them; the offset it returns confirms
// every update it gives or drops, and never goes back.
func FuzzDecodeUpdates(f *testing.F) {
	f.Add([]byte(`{"ok":true,"result":[`+fuzzTap+`]}`), int64(0))
	f.Add([]byte(`{"ok":true,"result":[`+fuzzTap+`,{"update_id":11,"message":{"message_id":"x"}},null]}`), int64(3))
	f.Add([]byte(`{"ok":true,"result":[{"update_id":4,"callback_query":{"message":{"date":0,"chat":{"id":1}}}}]}`), int64(0))
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
		var plain struct {
			Result []*models.Update `json:"result"`
		}
		if json.Unmarshal(data, &plain) != nil {
			return
		}
		var want []*models.Update
		for _, u := range plain.Result {
			if u != nil {
				want = append(want, u)
			}
		}
		if len(drops) != 0 || len(ups) != len(want) || len(want) > 0 && !reflect.DeepEqual(ups, want) {
			t.Fatalf("decodeUpdates(%s) = %+v (dropped %v), want %+v", data, ups, drops, want)
		}
	})
}
