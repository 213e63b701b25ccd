package telegramtest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/go-telegram/bot/models"
)

// boardMarkup is an 8×8 board and a control row as go-telegram/bot encodes it.
func boardMarkup() *models.InlineKeyboardMarkup {
	kb := &models.InlineKeyboardMarkup{}
	for r := range 8 {
		var row []models.InlineKeyboardButton
		for c := range 8 {
			row = append(row, models.InlineKeyboardButton{Text: "·", CallbackData: fmt.Sprintf("v1:m:%d%d:123456", r, c)})
		}
		kb.InlineKeyboard = append(kb.InlineKeyboard, row)
	}
	kb.InlineKeyboard = append(kb.InlineKeyboard, []models.InlineKeyboardButton{
		{Text: "⚫ Resign", CallbackData: "v1:r"},
		{Text: "Invite", URL: "https://t.me/ReversiTestBot?start=abc"},
		{Text: "Share", SwitchInlineQuery: "play"},
		{Text: "Copy", CopyText: models.CopyTextButton{Text: "x"}},
	})
	return kb
}

// TestFastKeyboardTakesTheBotsKeyboards checks that the keyboards a bot sends take the fast
// path (else the fake would silently stay slow) and decode as the encoding/json path decodes
// them.
func TestFastKeyboardTakesTheBotsKeyboards(t *testing.T) {
	for name, raw := range map[string]string{
		"board":     string(mustJSON(boardMarkup())),
		"lean":      string(keyboardJSON(boardMarkup())),
		"spaces":    " {\n\t\"inline_keyboard\" : [ [ { \"text\" : \"a\" , \"callback_data\" : \"b\" , \"pay\" : false } ] , [ ] ] }\r\n",
		"pay":       `{"inline_keyboard":[[{"text":"a","pay":true,"copy_text":{}}]]}`,
		"empty":     `{"inline_keyboard":[]}`,
		"unicode":   `{"inline_keyboard":[[{"text":"ж⚪😀","callback_data":"é"}]]}`,
		"full rows": `{"inline_keyboard":[` + strings.Repeat(`[`+strings.Repeat(`{"text":"x","callback_data":"y"},`, 7)+`{"text":"x","callback_data":"y"}],`, 12) + `[{"text":"x","url":"tg://resolve?domain=a"},{"text":"x","url":"https://t.me/a"},{"text":"x","url":"http://a"},{"text":"x","switch_inline_query":""}]]}`,
	} {
		got, canon, ok := fastKeyboard(raw)
		if !ok {
			t.Errorf("%s: fastKeyboard(%q) declined", name, raw)
			continue
		}
		if wantCanon := name == "lean" || name == "unicode"; canon != wantCanon { // full rows: an empty switch_inline_query
			t.Errorf("%s: fastKeyboard says canonical %v, want %v", name, canon, wantCanon)
		}
		if canon && raw != string(keyboardJSON(got)) {
			t.Errorf("%s: canonical, but keyboardJSON writes %s", name, keyboardJSON(got))
		}
		want, err := parseMarkupJSON(raw)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: fastKeyboard = %+v\nencoding/json path %+v, %v", name, got, want, err)
		}
	}
}

// TestFastKeyboardDeclines checks inputs the fast path must leave to encoding/json: other
// shapes, and keyboards Telegram refuses (the slow path tells which error comes first).
func TestFastKeyboardDeclines(t *testing.T) {
	nine := `[` + strings.Repeat(`{"text":"x","callback_data":"y"},`, 8) + `{"text":"x","callback_data":"y"}]`
	eight := `[` + strings.Repeat(`{"text":"x","callback_data":"y"},`, 7) + `{"text":"x","callback_data":"y"}]`
	for _, raw := range []string{
		``, `null`, `{}`, `[]`, `{"keyboard":[]}`, `{}"inline_keyboard":[]}`,
		`{"inline_keyboard":null}`,
		`{"inline_keyboard":[null]}`,
		`{"inline_keyboard":[[null]]}`,
		`{"inline_keyboard":[[{"text":null}]]}`,
		`{"inline_keyboard":[[{"Text":"a","callback_data":"b"}]]}`,
		`{"inline_keyboard":[[{"text":"a","text":"b","callback_data":"c"}]]}`,
		`{"inline_keyboard":[[{"text":"a\"b","callback_data":"c"}]]}`,
		`{"inline_keyboard":[[{"text":"a\u0041","callback_data":"c"}]]}`,
		"{\"inline_keyboard\":[[{\"text\":\"a\xffb\",\"callback_data\":\"c\"}]]}",
		"{\"inline_keyboard\":[[{\"text\":\"a\tb\",\"callback_data\":\"c\"}]]}",
		`{"inline_keyboard":[[{"text":"a","web_app":{"url":"https://x"}}]]}`,
		`{"inline_keyboard":[[{"text":"a","callback_data":1}]]}`,
		`{"inline_keyboard":[[{"text":"a","pay":1}]]}`,
		`{"inline_keyboard":[[{"text":"a","pay":true,"pay":false}]]}`,
		`{"inline_keyboard":[[{"text":"a","copy_text":{"text":"x","text":"y"}}]]}`,
		`{"inline_keyboard":[[{"text":"a","copy_text":{"text":"x"},"copy_text":{}}]]}`,
		`{"inline_keyboard":[[{"text":"a","callback_data":"b"}]],"x":1}`,
		`{"inline_keyboard":[[{"text":"a","callback_data":"b"}]]} x`,
		`{"inline_keyboard":[[{"text":"a","callback_data":"b"},]]}`,
		`{"inline_keyboard":[[{"text":"a","callback_data":"b"}]]`,
		// Refused by Telegram:
		`{"inline_keyboard":[` + nine + `]}`,
		`{"inline_keyboard":[` + strings.Repeat(eight+",", 12) + eight + `]}`,
		`{"inline_keyboard":[[{"text":"a"}]]}`,
		`{"inline_keyboard":[[{"text":" ","callback_data":"b"}]]}`,
		`{"inline_keyboard":[[{"callback_data":"b"}]]}`,
		`{"inline_keyboard":[[{"text":"a","callback_data":""}]]}`,
		`{"inline_keyboard":[[{"text":"a","callback_data":"` + strings.Repeat("x", 65) + `"}]]}`,
		`{"inline_keyboard":[[{"text":"a","url":"ftp://x"}]]}`,
		`{"inline_keyboard":[[{"text":"a","copy_text":{"text":""}}]]}`,
	} {
		if mk, _, ok := fastKeyboard(raw); ok {
			t.Errorf("fastKeyboard(%q) = %+v, want it declined", raw, mk)
		}
	}
}

// FuzzFastKeyboard checks the fast path against the encoding/json path: parseMarkup (fast
// path first) and parseMarkupJSON agree on every input, and whatever the fast path accepts
// is valid JSON.
func FuzzFastKeyboard(f *testing.F) {
	small := boardMarkup() // a small seed: a large one makes the fuzzer minimise for long
	small.InlineKeyboard = [][]models.InlineKeyboardButton{small.InlineKeyboard[0][:2], small.InlineKeyboard[8]}
	f.Add(string(mustJSON(small)))
	f.Add(string(keyboardJSON(small)))
	f.Add(`{"inline_keyboard":[[{"text":"a","pay":true,"copy_text":{}}]]}`)
	f.Add(`{"inline_keyboard":[[{"text":"a","callback_data":"b","url":"https://t.me/x?start=1"}],[]]}`)
	f.Add(`{"inline_keyboard":[[{"text":"a","switch_inline_query":"","switch_inline_query_current_chat":"q"}]]}`)
	f.Add(`{"inline_keyboard":[[{"text":"a","copy_text":{"text":"t"}}]]}`)
	f.Add(`{"inline_keyboard":[[{"text":" ","callback_data":""}]]}`)
	f.Fuzz(func(t *testing.T, raw string) {
		mk, canon, ok := fastKeyboard(raw)
		if ok && !json.Valid([]byte(raw)) {
			t.Fatalf("fastKeyboard accepted invalid JSON %q", raw)
		}
		if canon && (!ok || raw != string(keyboardJSON(mk))) {
			t.Fatalf("fastKeyboard(%q) says canonical; keyboardJSON writes %s", raw, keyboardJSON(mk))
		}
		got, gerr := parseMarkup(raw)
		want, werr := parseMarkupJSON(raw)
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gerr, werr) {
			t.Fatalf("parseMarkup(%q) = %v, %v; parseMarkupJSON = %v, %v", raw, got, gerr, want, werr)
		}
	})
}

// TestSameMarkup checks the field-by-field comparison against the JSON encoding it stands for.
func TestSameMarkup(t *testing.T) {
	base := boardMarkup()
	variants := []func(kb *models.InlineKeyboardMarkup){
		func(kb *models.InlineKeyboardMarkup) {},
		func(kb *models.InlineKeyboardMarkup) { kb.InlineKeyboard[0][0].Text = "⚫" },
		func(kb *models.InlineKeyboardMarkup) { kb.InlineKeyboard[3][4].CallbackData = "v1:m:34:123457" },
		func(kb *models.InlineKeyboardMarkup) { kb.InlineKeyboard = kb.InlineKeyboard[:8] },
		func(kb *models.InlineKeyboardMarkup) { kb.InlineKeyboard[8] = kb.InlineKeyboard[8][:3] },
		func(kb *models.InlineKeyboardMarkup) {
			kb.InlineKeyboard[8][0].WebApp = &models.WebAppInfo{URL: "https://a"}
		},
		func(kb *models.InlineKeyboardMarkup) {
			kb.InlineKeyboard[8][0].WebApp = &models.WebAppInfo{URL: "https://b"}
		},
		func(kb *models.InlineKeyboardMarkup) {
			kb.InlineKeyboard[8][1].LoginURL = &models.LoginURL{URL: "https://a"}
		},
		func(kb *models.InlineKeyboardMarkup) {
			kb.InlineKeyboard[8][2].SwitchInlineQueryChosenChat = &models.SwitchInlineQueryChosenChat{AllowBotChats: true}
		},
		func(kb *models.InlineKeyboardMarkup) { kb.InlineKeyboard[8][2].CallbackGame = &models.CallbackGame{} },
		func(kb *models.InlineKeyboardMarkup) { kb.InlineKeyboard[8][3].Pay = true },
		func(kb *models.InlineKeyboardMarkup) { kb.InlineKeyboard[8][3].CopyText.Text = "y" },
		func(kb *models.InlineKeyboardMarkup) { kb.InlineKeyboard = nil },
	}
	kbs := []*models.InlineKeyboardMarkup{nil, {}}
	for _, v := range variants {
		kb := cloneMarkup(base)
		v(kb)
		kbs = append(kbs, kb)
	}
	enc := func(kb *models.InlineKeyboardMarkup) string {
		if kb == nil || len(kb.InlineKeyboard) == 0 {
			return "none"
		}
		return string(mustJSON(kb))
	}
	for i, a := range kbs {
		for j, b := range kbs {
			if got, want := sameMarkup(a, b), enc(a) == enc(b); got != want {
				t.Errorf("sameMarkup(#%d, #%d) = %v, want %v", i, j, got, want)
			}
		}
	}
}

// TestFastJSONBody checks the fast path of JSON request bodies on the bodies a bot sends
// and on the cases it must leave to encoding/json.
func TestFastJSONBody(t *testing.T) {
	board := string(mustJSON(boardMarkup()))
	withBoard := `{"chat_id":123,"message_id":9,"text":"Alice vs Bob\nTo move: ⚫ \"x\" \u00e9","parse_mode":"HTML","reply_markup":` + board + `}`
	var pm parsedMarkup
	if fields := map[string]string{}; !fastJSONBody(withBoard, fields, &pm) || pm.mk == nil || pm.raw != board || !sameMarkup(pm.mk, boardMarkup()) || pm.json != nil {
		t.Errorf("the board of a JSON body was not decoded with it: %+v", pm)
	}
	lean := string(keyboardJSON(boardMarkup()))
	if !fastJSONBody(`{"chat_id":1,"reply_markup":`+lean+`}`, map[string]string{}, &pm) || string(pm.json) != lean {
		t.Errorf("a board in keyboardJSON's form was not kept as its JSON: %+v", pm)
	}
	for _, body := range []string{
		withBoard,
		`{"callback_query_id":"7000001","text":"","show_alert":false,"cache_time":0}`,
		` { "offset" : -3 , "timeout" : 1.5e+2, "allowed_updates" : [ "message" , "callback_query" ] , "x" : null } `,
		`{"a":"1","a":"2","b":{"c":[1,{"d":"\ud83d\ude00"}]},"c":true}`,
		`{}`,
	} {
		fast := map[string]string{"a": "query"}
		if !fastJSONBody(body, fast, nil) {
			t.Errorf("fastJSONBody declined %q", body)
			continue
		}
		slow := map[string]string{"a": "query"}
		if err := decodeJSONBody(slow, []byte(body)); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Errorf("fastJSONBody(%q) = %q, encoding/json %q", body, fast, slow)
		}
	}
	for _, body := range []string{
		`null`, `[]`, `"x"`, `{"a":1}x`, `{"a":01}`, `{"a":1.}`, `{"a":-}`, `{"a":tru}`, `{"a\u0062":1}`,
		`{"a":"\x"}`, "{\"a\":\"\x01\"}", `{"a":[1,]}`, `{"a":{"b"}}`, `{"a":1,}`,
		`{"a":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`,
	} {
		fields := map[string]string{}
		if fastJSONBody(body, fields, nil) || len(fields) != 0 {
			t.Errorf("fastJSONBody(%q) accepted: %q", body, fields)
		}
	}
}

// FuzzFastJSONBody checks the fast path of JSON bodies against encoding/json.
func FuzzFastJSONBody(f *testing.F) {
	f.Add(`{"chat_id":123,"text":"a\nb","reply_markup":{"inline_keyboard":[[{"text":"x","callback_data":"y"}]]}}`)
	f.Add(`{"reply_markup":{"inline_keyboard":[[{"text":"x","callback_data":"y"}]]},"reply_markup":null}`)
	f.Add(`{"reply_markup":{"inline_keyboard":[[{"text":"x","url":"ftp://y"}]]},"text":"\u0041"}`)
	f.Add(`{"a":null,"a":"x","b":-0.5E-3,"c":[true,false,null],"d":"\ud800"}`)
	f.Add("{\"a\":\"\xff\",\"b\":{\"c\":\"\xfe\"}}")
	f.Fuzz(func(t *testing.T, body string) {
		fast := map[string]string{"a": "query"}
		var pm parsedMarkup
		ok := fastJSONBody(body, fast, &pm)
		if pm.json != nil && string(pm.json) != string(keyboardJSON(pm.mk)) {
			t.Fatalf("fastJSONBody(%q) kept %s as the keyboard's JSON; keyboardJSON writes %s", body, pm.json, keyboardJSON(pm.mk))
		}
		if pm.mk != nil {
			want, err := parseMarkup(fast["reply_markup"])
			if !ok || pm.raw != fast["reply_markup"] || err != nil || !reflect.DeepEqual(pm.mk, want) {
				t.Fatalf("fastJSONBody(%q) decoded the keyboard %q as %+v; parseMarkup gives %+v, %v", body, pm.raw, pm.mk, want, err)
			}
		}
		slow := map[string]string{"a": "query"}
		err := decodeJSONBody(slow, []byte(body))
		if ok && (err != nil || !reflect.DeepEqual(fast, slow)) {
			t.Fatalf("fastJSONBody(%q) = %q, encoding/json %q, %v", body, fast, slow, err)
		}
		if !ok && len(fast) != 1 {
			t.Fatalf("fastJSONBody(%q) declined but changed the fields: %q", body, fast)
		}
	})
}

// TestFastKeyboardCanonical checks which texts fastKeyboard takes as keyboardJSON's own.
func TestFastKeyboardCanonical(t *testing.T) {
	for raw, want := range map[string]bool{
		`{"inline_keyboard":[[{"text":"a","callback_data":"b"}]]}`:                      true,
		`{"inline_keyboard":[[{"text":"a","url":"https://t.me/x","pay":true}]]}`:        true,
		`{"inline_keyboard":[[{"text":"a","copy_text":{"text":"c"}}]]}`:                 true,
		`{"inline_keyboard":[[{"callback_data":"b","text":"a"}]]}`:                      false, // order
		`{"inline_keyboard":[[{"text":"a","callback_data":"b"}],[]]}`:                   false, // empty row
		`{"inline_keyboard":[[{"text":"a","callback_data":"b","pay":false}]]}`:          false,
		`{"inline_keyboard":[[{"text":"a","callback_data":"b","copy_text":{}}]]}`:       false,
		`{"inline_keyboard":[[{"text":"a","switch_inline_query":""}]]}`:                 false,
		`{"inline_keyboard":[[{"text":"a<b","callback_data":"b"}]]}`:                    false, // keyboardJSON escapes <
		`{"inline_keyboard":[[{"text":"a","callback_data":"x&y"}]]}`:                    false,
		"{\"inline_keyboard\":[[{\"text\":\"a\u2029\",\"callback_data\":\"b\"}]]}":      false,
		`{"inline_keyboard":[[{"text":"a", "callback_data":"b"}]]}`:                     false, // space
		` {"inline_keyboard":[[{"text":"a","callback_data":"b"}]]}`:                     false,
		`{"inline_keyboard":[[{"text":"a","callback_data":"b"}]]} `:                     false,
		"{\"inline_keyboard\":[[{\"text\":\"\u2027\u202a\",\"callback_data\":\"b\"}]]}": true,
	} {
		mk, canon, ok := fastKeyboard(raw)
		if !ok || canon != want {
			t.Errorf("fastKeyboard(%q): canonical %v, %v; want %v", raw, canon, ok, want)
		}
		if ok && canon && raw != string(keyboardJSON(mk)) {
			t.Errorf("fastKeyboard(%q) says canonical; keyboardJSON writes %s", raw, keyboardJSON(mk))
		}
	}
}

func TestBlank(t *testing.T) {
	for _, s := range []string{"", " ", "\t\n\u00a0\u2003", "a", " a ", "⚫", "\xff", " \xff", "\u200b", "·"} {
		if got, want := blank(s), strings.TrimSpace(s) == ""; got != want {
			t.Errorf("blank(%q) = %v, want %v", s, got, want)
		}
	}
}
