package render

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/go-telegram/bot/models"
)

// FuzzAppendKeyboardJSON checks AppendKeyboardJSON against encoding/json byte for byte (but for the
// empty copy_text it leaves out) and that it decodes to the keyboard.
func FuzzAppendKeyboardJSON(f *testing.F) {
	f.Add("·", "v1:m:00:1", "", "", "", false, uint8(0))
	f.Add("a<b>&\"\\\n\t\b\f\x01\x7f", "\u2028\u2029\xff", "https://t.me/x?start=1&a=<", "copy", "q", true, uint8(3))
	f.Fuzz(func(t *testing.T, text, data, link, copyText, query string, pay bool, shape uint8) {
		b := models.InlineKeyboardButton{Text: text, CallbackData: data, URL: link, CopyText: models.CopyTextButton{Text: copyText},
			SwitchInlineQuery: query, SwitchInlineQueryCurrentChat: data, IconCustomEmojiID: link, Style: query, Pay: pay}
		kb := &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{{b, b}, nil, {b}, {}}}
		switch shape % 4 {
		case 1:
			kb.InlineKeyboard = nil
		case 2:
			kb.InlineKeyboard[0][1].WebApp = &models.WebAppInfo{URL: link}
		case 3:
			kb.InlineKeyboard[2][0].CallbackGame = &models.CallbackGame{}
		}
		enc, err := json.Marshal(kb)
		if err != nil {
			t.Fatal(err)
		}
		want := strings.ReplaceAll(string(enc), emptyCopyText, "")
		if got := AppendKeyboardJSON(nil, kb); string(got) != want {
			t.Fatalf("AppendKeyboardJSON = %s\nencoding/json %s", got, want)
		}
		var back models.InlineKeyboardMarkup
		valid := true // else U+FFFD comes back
		for _, s := range []string{text, data, link, copyText, query} {
			valid = valid && utf8.ValidString(s)
		}
		if err := json.Unmarshal(AppendKeyboardJSON(nil, kb), &back); err != nil || valid && !reflect.DeepEqual(&back, kb) {
			t.Fatalf("AppendKeyboardJSON does not decode to the keyboard: %v\n%+v\n%+v", err, back, kb)
		}
	})
}

// FuzzAppendJSONString checks AppendJSONString against encoding/json byte for byte.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "d3", "a<b>&\"\\\n\t\b\f\x01\x7f", "\u2028\u2029\xff", "Новичок ⚫"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := AppendJSONString([]byte("x"), s); string(got) != "x"+string(want) {
			t.Fatalf("AppendJSONString(%q) = %s, encoding/json writes %s", s, got[1:], want)
		}
	})
}

func TestAppendKeyboardJSONEveryField(t *testing.T) {
	// AppendKeyboardJSON writes every field of the library's button: a new field must be added.
	if n := reflect.TypeFor[models.InlineKeyboardButton]().NumField(); n != 13 {
		t.Fatalf("models.InlineKeyboardButton has %d fields, AppendKeyboardJSON knows 13", n)
	}
	kbs := []models.InlineKeyboardMarkup{
		{},
		{InlineKeyboard: [][]models.InlineKeyboardButton{}},
		{InlineKeyboard: [][]models.InlineKeyboardButton{nil, {}}},
		{InlineKeyboard: [][]models.InlineKeyboardButton{{
			{Text: "plain", CallbackData: "1m"},
			{Text: "quote \" backslash \\ slash / tab \t nl \n cr \r ctl \x01\x1f del \x7f", CallbackData: "x"},
			{Text: "html <b>&amp;</b> \u2028 \u2029 emoji 🟩 bad \xff\xfe utf8", URL: "https://example.com/?a=1&b=<2>"},
			{Text: "", CallbackData: ""},
			{Text: "all", IconCustomEmojiID: "5", Style: "primary", URL: "https://a.b", CallbackData: "c",
				WebApp: &models.WebAppInfo{URL: "https://w"}, LoginURL: &models.LoginURL{URL: "https://l", ForwardText: "f"},
				SwitchInlineQuery: "s", SwitchInlineQueryCurrentChat: "sc",
				SwitchInlineQueryChosenChat: &models.SwitchInlineQueryChosenChat{Query: "q", AllowUserChats: true},
				CopyText:                    models.CopyTextButton{Text: "copy"}, CallbackGame: &models.CallbackGame{}, Pay: true},
		}}},
	}
	for i, kb := range kbs {
		got := AppendKeyboardJSON(nil, &kb)
		var fromOurs, fromLib models.InlineKeyboardMarkup
		if err := json.Unmarshal(got, &fromOurs); err != nil {
			t.Fatalf("keyboard %d: %s is not JSON: %v", i, got, err)
		}
		lib, _ := json.Marshal(kb)
		if err := json.Unmarshal(lib, &fromLib); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(fromOurs, fromLib) {
			t.Errorf("keyboard %d:\nours    %s\nlibrary %s", i, got, lib)
		}
		if strings.Contains(string(got), `"copy_text":{"text":""}`) {
			t.Errorf("keyboard %d: an empty copy_text was sent: %s", i, got)
		}
	}
}
