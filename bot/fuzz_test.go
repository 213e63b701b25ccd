package bot_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/go-telegram/bot/models"
	"github.com/reversibot/reversi/bot/callback"
)

// FuzzProcessUpdate feeds arbitrary updates to the handlers: whatever the JSON, no panic (a
// panic in a handler is recovered and logged as "panic in handler", which fails the test).
func FuzzProcessUpdate(f *testing.F) {
	seeds := []string{
		`{"update_id":1,"message":{"message_id":1,"chat":{"id":100000001,"type":"private"},"from":{"id":100000001,"first_name":"A"},"text":"/ai 8 1 black"}}`,
		`{"update_id":2,"message":{"message_id":2,"chat":{"id":100000001,"type":"private"},"from":{"id":100000001,"first_name":"A"},"text":"d3"}}`,
		`{"update_id":3,"message":{"message_id":3,"chat":{"id":-100,"type":"supergroup"},"from":{"id":7,"first_name":"G"},"text":"/new@ReversiTestBot 10"}}`,
		`{"update_id":4,"callback_query":{"id":"q1","from":{"id":100000001,"first_name":"A"},"data":"1mAb3:h:z"}}`,
		`{"update_id":5,"callback_query":{"id":"q2","from":{"id":5,"first_name":"B"},"inline_message_id":"im1","data":"` + callback.Data{Action: callback.ActionJoin, Game: "u5", Arg: 8}.Encode() + `"}}`,
		`{"update_id":6,"inline_query":{"id":"iq","from":{"id":5,"first_name":"B"},"query":"12"}}`,
		`{"update_id":7,"chosen_inline_result":{"result_id":"g8","from":{"id":5,"first_name":"B"},"inline_message_id":"im1"}}`,
		`{"update_id":8,"message":{"message_id":9,"chat":{"id":0},"text":""}}`,
		`{"update_id":10,"message":{"message_id":10,"chat":{"id":100000001,"type":"private"},"from":{"id":100000001,"first_name":"A"},"text":"/style image"}}`,
		`{"update_id":11,"callback_query":{"id":"q4","from":{"id":100000001,"first_name":"A"},"message":{"message_id":1,"chat":{"id":100000001,"type":"private"},"date":0},"data":"` + callback.Data{Action: callback.ActionMenu, Arg: 8}.Encode() + `"}}`,
		`{"update_id":9,"callback_query":{"id":"q3","from":{"id":0},"message":{"message_id":1,"chat":{"id":100000001,"type":"private"},"date":0},"data":"` + callback.Data{Action: callback.ActionColor, Page: 8, Ply: 9, Arg: 5}.Encode() + `"}}`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	h := newHarness(f)
	f.Fuzz(func(t *testing.T, raw []byte) {
		var u models.Update
		if json.Unmarshal(raw, &u) != nil {
			return
		}
		u.ID = 0 // no dedupe: every input is handled
		h.b.ProcessUpdate(context.Background(), &u)
		if n := h.logs.Panics(); n > 0 {
			t.Fatalf("%d handler panics for %s:\n%s", n, raw, h.logs.String())
		}
	})
}
