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

// TestParseMarkup checks parseMarkup on the keyboards a bot sends, in every spelling
// JSON allows, and on what Telegram refuses, with Telegram's errors.
func TestParseMarkup(t *testing.T) {
	board := boardMarkup()
	sent := string(mustJSON(answerMarkup(board))) // each button with its one action
	for name, raw := range map[string]string{
		"answer": sent,
		"indented": func() string {
			b, _ := json.MarshalIndent(answerMarkup(board), " ", "\t")
			return " \n" + string(b) + "\r\n"
		}(),
		"escaped":    strings.ReplaceAll(sent, `"text"`, `"t\u0065xt"`),
		"empty rows": strings.Replace(sent, `[[`, `[[],[`, 1),
	} {
		got, err := parseMarkup(raw)
		if err != nil || !reflect.DeepEqual(got, board) {
			t.Errorf("%s: parseMarkup(%q) = %+v, %v", name, raw, got, err)
		}
	}
	nine := `[` + strings.Repeat(`{"text":"x","callback_data":"y"},`, 8) + `{"text":"x","callback_data":"y"}]`
	eight := `[` + strings.Repeat(`{"text":"x","callback_data":"y"},`, 7) + `{"text":"x","callback_data":"y"}]`
	for raw, want := range map[string]string{
		``:                              "",
		` null `:                        "",
		`{"keyboard":[[{"text":"a"}]]}`: "",
		`{"remove_keyboard":true}`:      "",
		`{"force_reply":true}`:          "",
		`{"inline_keyboard":[]}`:        "",
		`{"inline_keyboard":[[]]}`:      "",
		`{}`:                            `can't find field "inline_keyboard"`,
		`{"inline_keyboard":null}`:      `can't find field "inline_keyboard"`,
		`[]`:                            "can't parse reply keyboard markup JSON object",
		`{"inline_keyboard":[[{"text":"a","callback_data":"b"}]]`:   "can't parse reply keyboard markup JSON object",
		`{"inline_keyboard":[[{"text":"a","callback_data":"b"},]]}`: "can't parse reply keyboard markup JSON object",
		`{"inline_keyboard":7}`:                                                                        "must be an Array of Arrays",
		`{"inline_keyboard":[7]}`:                                                                      "must be an Array of Arrays",
		`{"inline_keyboard":[[{"text":"a","callback_data":1}]]}`:                                       "must be an Array of Arrays",
		`{"inline_keyboard":[[{"text":"a","pay":1}]]}`:                                                 "must be an Array of Arrays",
		`{"inline_keyboard":[` + nine + `]}`:                                                           "REPLY_MARKUP_TOO_LONG",
		`{"inline_keyboard":[` + strings.Repeat(eight+",", 12) + eight + `]}`:                          "REPLY_MARKUP_TOO_LONG",
		`{"inline_keyboard":[[{"text":"a"}]]}`:                                                         "Text buttons are unallowed in the inline keyboard",
		`{"inline_keyboard":[[{"text":"a","copy_text":{"text":""}}]]}`:                                 "BUTTON_COPY_TEXT_INVALID",
		`{"inline_keyboard":[[{"text":"a","copy_text":{"text":"` + strings.Repeat("é", 257) + `"}}]]}`: "BUTTON_COPY_TEXT_INVALID",
		`{"inline_keyboard":[[{"text":"a","copy_text":{"text":"` + strings.Repeat("é", 256) + `"}}]]}`: "",
		`{"inline_keyboard":[[{"text":"a","callback_data":"b","copy_text":{"text":""}}]]}`:             "BUTTON_COPY_TEXT_INVALID",
		`{"inline_keyboard":[[{"text":"a","callback_data":"b","copy_text":{"text":"c"}}]]}`:            "exactly one of the fields",
		`{"inline_keyboard":[[{"text":"a","url":"https://x","pay":true}]]}`:                            "exactly one of the fields",
		string(mustJSON(board)):                                                                        "BUTTON_COPY_TEXT_INVALID", // the library's own type
		`{"inline_keyboard":[[{"text":" ","callback_data":"b"}]]}`:                                     "Text must be non-empty",
		`{"inline_keyboard":[[{"callback_data":"b"}]]}`:                                                `Field "text" must be of type String`,
		`{"inline_keyboard":[[{"text":null,"callback_data":"b"}]]}`:                                    `Field "text" must be of type String`,
		`{"inline_keyboard":[[{"text":"a","callback_data":""}]]}`:                                      "BUTTON_DATA_INVALID",
		`{"inline_keyboard":[[{"text":"a","callback_data":"` + strings.Repeat("x", 65) + `"}]]}`:       "BUTTON_DATA_INVALID",
		`{"inline_keyboard":[[{"text":"a","url":"ftp://x"}]]}`:                                         "is invalid",
		`{"inline_keyboard":[[{"text":"a","url":""}]]}`:                                                "is invalid",
		`{"inline_keyboard":[[{"text":"a","switch_inline_query":""}]]}`:                                "",
		`{"inline_keyboard":[[{"text":"a","web_app":{"url":"https://x"}}]]}`:                           "",
		`{"inline_keyboard":[[{"text":"a","pay":true}]]}`:                                              "",
		`{"inline_keyboard":[[{"text":"a","url":"tg://resolve?domain=a"}]]}`:                           "",
	} {
		mk, err := parseMarkup(raw)
		switch {
		case want == "" && err != nil:
			t.Errorf("parseMarkup(%q): %v", raw, err)
		case want != "" && (err == nil || !strings.Contains(err.desc, want) || mk != nil):
			t.Errorf("parseMarkup(%q) = %+v, %v; want an error with %q", raw, mk, err, want)
		}
	}
}

// TestParseMarkupReusesNothing checks that a keyboard decoded into the buffers of an
// earlier one keeps nothing of it.
func TestParseMarkupReusesNothing(t *testing.T) {
	full := `{"inline_keyboard":[` + strings.Repeat(`[`+strings.Repeat(`{"text":"x","url":"https://a","callback_data":"y","switch_inline_query":"","web_app":{"url":"https://b"},"copy_text":{"text":"c"},"pay":true},`, 7)+
		`{"text":"x","callback_data":"y"}],`, 11) + `[{"text":"x","callback_data":"y"}]]}`
	bare := `{"inline_keyboard":[[{"text":"a","callback_data":"b"}],[{"text":"c","callback_data":"d"},{"text":"e","callback_data":"f"}]]}`
	want := &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{
		{{Text: "a", CallbackData: "b"}}, {{Text: "c", CallbackData: "d"}, {Text: "e", CallbackData: "f"}},
	}}
	for range 3 {
		if _, err := parseMarkup(full); err == nil { // decoded into the buffers, then refused
			t.Fatal("a button with several actions was taken")
		}
		if got, err := parseMarkup(bare); err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("after a full keyboard, parseMarkup(%s) = %+v, %v", bare, got, err)
		}
		if got, err := parseMarkup(`{"inline_keyboard":[[{"text":"a"}]]}`); err == nil {
			t.Fatalf("after a full keyboard, a text button was taken: %+v", got)
		}
	}
}

// TestAnswerMarkup checks the keyboard of answers and updates: encoding/json's encoding of
// the library's type but for the empty copy_text Telegram leaves out, which reads back as
// the same keyboard.
func TestAnswerMarkup(t *testing.T) {
	board := boardMarkup()
	board.InlineKeyboard[8][0].WebApp = &models.WebAppInfo{URL: "https://x"}
	got := mustJSON(answerMarkup(board))
	if want := strings.ReplaceAll(string(mustJSON(board)), emptyCopyText, ""); !jsonEqual(t, got, []byte(want)) {
		t.Errorf("answerMarkup encodes as\n%s\nwant\n%s", got, want)
	}
	if strings.Count(string(got), `"copy_text"`) != 1 {
		t.Errorf("answerMarkup encodes as %s, want the one copy_text", got)
	}
	var back models.InlineKeyboardMarkup
	if err := json.Unmarshal(got, &back); err != nil || !reflect.DeepEqual(&back, board) {
		t.Errorf("answerMarkup reads back as %+v, %v", back, err)
	}
}

// jsonEqual reports whether a and b are the same JSON value, whatever the order of keys.
func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return reflect.DeepEqual(x, y)
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

// TestDecodeJSONBody checks how a JSON body's members become fields.
func TestDecodeJSONBody(t *testing.T) {
	board := string(mustJSON(boardMarkup()))
	for body, want := range map[string]map[string]string{
		`{"chat_id":123,"text":"a\n\"b\" \u00e9","reply_markup":` + board + `}`: {
			"chat_id": "123", "text": "a\n\"b\" é", "reply_markup": board,
		},
		` { "offset" : -3 , "timeout" : 1.5e+2, "allowed_updates" : [ "message" , "callback_query" ] , "x" : null } `: {
			"offset": "-3", "timeout": "1.5e+2", "allowed_updates": `[ "message" , "callback_query" ]`, "x": "",
		},
		`{"a":"1","a":"2","b":{"c":[1,{"d":"\ud83d\ude00"}]},"c":true}`: {"a": "2", "b": `{"c":[1,{"d":"\ud83d\ude00"}]}`, "c": "true"},
		`{}`:   {},
		`null`: {},
	} {
		fields := map[string]string{}
		if err := decodeJSONBody(fields, []byte(body)); err != nil || !reflect.DeepEqual(fields, want) {
			t.Errorf("decodeJSONBody(%q) = %q, %v; want %q", body, fields, err, want)
		}
	}
	for _, body := range []string{`[]`, `"x"`, `7`, `{"a":1}x`, `{"a":01}`, `{"a":"\x"}`, "{\"a\":\"\x01\"}", `{"a":1,}`} {
		if err := decodeJSONBody(map[string]string{}, []byte(body)); err == nil {
			t.Errorf("decodeJSONBody(%q) accepted it", body)
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
