package telegramtest

import (
	"net/http"
	"strings"
	"testing"
)

// fields builds a request of text fields from key, value pairs.
func fields(kv ...string) *request {
	r := &request{fields: map[string]string{}, files: map[string]upload{}}
	for i := 0; i+1 < len(kv); i += 2 {
		r.fields[kv[i]] = kv[i+1]
	}
	return r
}

// TestSpecKnowsTheFakesMethods checks that every method the fake serves is in the Bot API's
// description, so that each is checked.
func TestSpecKnowsTheFakesMethods(t *testing.T) {
	for key, h := range handlers {
		if theSpec.methods[key] == nil {
			t.Errorf("%s is not in testdata/botapi.json", h.name)
		}
	}
	if !strings.HasPrefix(theSpec.version, "Bot API ") {
		t.Errorf("version %q", theSpec.version)
	}
}

// TestCheckCall checks calls against the Bot API's description: what it allows passes, and
// what it forbids is refused with a Bad Request saying what is wrong.
func TestCheckCall(t *testing.T) {
	board := `{"inline_keyboard":[[{"text":"·","callback_data":"1m:a1"},{"text":"Copy","copy_text":{"text":"c"}}],` +
		`[{"text":"Invite","url":"https://t.me/b?start=x"},{"text":"Friend","switch_inline_query_chosen_chat":{"query":"8","allow_user_chats":true}}]]}`
	button := func(b string) string { return `{"inline_keyboard":[[` + b + `]]}` }
	article := `{"type":"article","id":"a","title":"8×8","input_message_content":{"message_text":"Play?"},"reply_markup":` + board + `}`
	for _, tc := range []struct {
		method string
		req    *request
		want   string // "" passes
	}{
		{"sendMessage", fields("chat_id", "7", "text", "hi", "reply_markup", board), ""},
		{"sendMessage", fields("chat_id", "@group", "text", "hi", "entities", `[{"type":"bold","offset":0,"length":2}]`), ""},
		{"sendMessage", fields("chat_id", "7", "text", "", "disable_notification", "true"), ""}, // empty text: the method's to refuse
		{"sendMessage", fields("chat_id", "7"), `parameter "text" is required`},
		{"sendMessage", fields("chat_id", "7", "text", "hi", "reply_markup_", "{}"), `unknown parameter "reply_markup_" of method sendMessage`},
		{"sendMessage", fields("chat_id", "7", "text", "hi", "b", "1", "a", "1"), `unknown parameter "a"`},
		{"sendMessage", fields("chat_id", "7", "text", "hi", "disable_notification", "yes"), `parameter "disable_notification" must be of type Boolean`},
		{"sendMessage", fields("chat_id", "7", "text", "hi", "message_thread_id", "1.5"), `parameter "message_thread_id" must be of type Integer`},
		{"sendMessage", fields("chat_id", "7", "text", "hi", "message_thread_id", ""), `parameter "message_thread_id" must be of type Integer`},
		{"sendMessage", fields("chat_id", "7", "text", "hi", "reply_markup", "{"), "can't parse reply keyboard markup JSON object"},
		{"sendMessage", fields("chat_id", "7", "text", "hi", "reply_markup", "{} x"), "can't parse reply keyboard markup JSON object"},
		{"sendMessage", fields("chat_id", "7", "text", "hi", "reply_markup", "[]"), `parameter "reply_markup" must be of type InlineKeyboardMarkup or ReplyKeyboardMarkup`},
		{"sendMessage", fields("chat_id", "7", "text", "hi", "reply_markup", `{"remove_keyboard":true}`), ""},
		{"sendMessage", fields("chat_id", "7", "text", "hi", "reply_markup", `{"inline_keyboard":[{"text":"x","callback_data":"d"}]}`), `Field "inline_keyboard" must be of type Array of InlineKeyboardButton`},
		{"sendMessage", fields("chat_id", "7", "text", "hi", "entities", `[{"type":"bold","offset":"0","length":2}]`), `can't parse MessageEntity: Field "offset" must be of type Integer`},
		{"sendMessage", fields("chat_id", "7", "text", "hi", "entities", `[{"type":"bold","offset":0.5,"length":2}]`), `Field "offset" must be of type Integer`},
		{"sendMessage", fields("chat_id", "7", "text", "hi", "entities", `[{"type":"bold","length":2}]`), `Can't find field "offset"`},
		{"sendMessage", fields("chat_id", "7", "text", "hi", "entities", `[{"type":null,"offset":0,"length":2}]`), `Field "type" must be of type String`},

		// Buttons: exactly one action, copy_text 1-256 characters, callback_data 1-64 bytes.
		{"sendMessage", fields("chat_id", "7", "text", "hi", "reply_markup", button(`{"text":"x","callback_data":"d","copy_text":{"text":""}}`)), "BUTTON_COPY_TEXT_INVALID"},
		{"sendMessage", fields("chat_id", "7", "text", "hi", "reply_markup", button(`{"text":"x","copy_text":{"text":"`+strings.Repeat("😀", 129)+`"}}`)), "BUTTON_COPY_TEXT_INVALID"},
		{"sendMessage", fields("chat_id", "7", "text", "hi", "reply_markup", button(`{"text":"x","copy_text":{"text":"`+strings.Repeat("😀", 128)+`"}}`)), ""},
		{"sendMessage", fields("chat_id", "7", "text", "hi", "reply_markup", button(`{"text":"x","copy_text":{}}`)), `can't parse CopyTextButton: Can't find field "text"`},
		{"sendMessage", fields("chat_id", "7", "text", "hi", "reply_markup", button(`{"text":"x","callback_data":"d","copy_text":{"text":"c"}}`)),
			"can't parse inline keyboard button: exactly one of the fields url, callback_data, web_app, login_url, switch_inline_query, switch_inline_query_current_chat, switch_inline_query_chosen_chat, copy_text, callback_game, pay may be used, not callback_data and copy_text"},
		{"sendMessage", fields("chat_id", "7", "text", "hi", "reply_markup", button(`{"text":"x","style":"danger"}`)), "can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"},
		{"sendMessage", fields("chat_id", "7", "text", "hi", "reply_markup", button(`{"text":"x","url":null,"callback_data":"d"}`)), ""},
		{"sendMessage", fields("chat_id", "7", "text", "hi", "reply_markup", button(`{"text":"x","callback_data":""}`)), "BUTTON_DATA_INVALID"},
		{"sendMessage", fields("chat_id", "7", "text", "hi", "reply_markup", button(`{"text":"x","callback_data":"`+strings.Repeat("d", 65)+`"}`)), "BUTTON_DATA_INVALID"},
		{"sendMessage", fields("chat_id", "7", "text", "hi", "reply_markup", button(`{"text":"x","callback_data":"d","pay":"true"}`)), `Field "pay" must be of type Boolean`},
		{"sendMessage", fields("chat_id", "7", "text", "hi", "reply_markup", button(`{"text":"x","callback_data":"d","z":1,"y":2}`)), `can't parse inline keyboard button: Unknown field "y"`},
		{"sendMessage", fields("chat_id", "7", "text", "hi", "reply_markup", `{"keyboard":[[{"text":"a","request_contact":true,"request_location":true}]]}`),
			"can't parse keyboard button: at most one of the fields"},

		// Inline query results: the subtype by its type and fields.
		{"answerInlineQuery", fields("inline_query_id", "q", "results", "["+article+"]", "cache_time", "1", "is_personal", "true"), ""},
		{"answerInlineQuery", fields("inline_query_id", "q", "results", `[{"type":"photo","id":"p","photo_file_id":"f"},{"type":"photo","id":"q","photo_url":"https://x","thumbnail_url":"https://x"}]`), ""},
		{"answerInlineQuery", fields("inline_query_id", "q", "results", `[{"type":"photo","id":"p"}]`), `Can't find field "photo_`},
		{"answerInlineQuery", fields("inline_query_id", "q", "results", `[{"type":"article","id":"a","title":"t","input_message_content":{"message_text":"m"},"thumb_url":"x"}]`),
			`can't parse InlineQueryResultArticle: Unknown field "thumb_url"`},
		{"answerInlineQuery", fields("inline_query_id", "q", "results", `[{"type":"article","id":"","title":"t","input_message_content":{"message_text":"m"}}]`), "RESULT_ID_INVALID"},
		{"answerInlineQuery", fields("inline_query_id", "q", "results", `[{"type":"article","id":"a","title":"t","input_message_content":{"message_text":""}}]`), "MESSAGE_EMPTY"},
		{"answerInlineQuery", fields("inline_query_id", "q", "results", `[{"type":"game","id":"a"}]`), `can't parse InlineQueryResultGame: Can't find field "game_short_name"`},
		{"answerInlineQuery", fields("inline_query_id", "q", "results", `[{"type":"poll","id":"a"}]`), "can't parse InlineQueryResult"},
		{"answerInlineQuery", fields("inline_query_id", "q", "results", `{}`), `parameter "results" must be of type Array of InlineQueryResult`},
		{"answerInlineQuery", fields("inline_query_id", "q", "results", `[{"type":"article","id":"a","title":"t","input_message_content":{"message_text":"m"},"reply_markup":`+
			button(`{"text":"x","callback_data":"d","copy_text":{"text":""}}`)+`}]`), "BUTTON_COPY_TEXT_INVALID"},

		// Lengths of parameters; an empty one counts as none.
		{"answerCallbackQuery", fields("callback_query_id", "1", "text", strings.Repeat("é", 201)), "MESSAGE_TOO_LONG"},
		{"answerCallbackQuery", fields("callback_query_id", "1", "text", ""), ""},
		{"setWebhook", fields("url", "https://x", "secret_token", strings.Repeat("s", 257)), `parameter "secret_token" must be 1-256 characters long`},
		{"setMyCommands", fields("commands", `[{"command":"","description":"d"}]`), "BOT_COMMAND_INVALID"},
		{"setMyCommands", fields("commands", `[{"command":"ai","description":"d"}]`, "scope", `{"type":"chat","chat_id":"@x"}`), ""},
		{"setMyCommands", fields("commands", `[{"command":"ai","description":"d"}]`, "scope", `{"type":"chat"}`), `can't parse BotCommandScopeChat: Can't find field "chat_id"`},

		// Methods the fake does not serve are checked all the same.
		{"sendLocation", fields("chat_id", "7", "latitude", "52.5", "longitude", "13.4"), ""},
		{"sendLocation", fields("chat_id", "7", "latitude", "north", "longitude", "13.4"), `parameter "latitude" must be of type Float`},
		{"noSuchMethod", fields("x", "y"), ""},
	} {
		err := checkCall(tc.method, tc.req)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s %v: %v", tc.method, tc.req.fields, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.desc, tc.want)):
			t.Errorf("%s %v = %v; want an error with %q", tc.method, tc.req.fields, err, tc.want)
		case err != nil && (err.code != http.StatusBadRequest || !strings.HasPrefix(err.desc, "Bad Request: ")):
			t.Errorf("%s %v = %d %q, want a Bad Request", tc.method, tc.req.fields, err.code, err.desc)
		}
	}
}

// TestCheckCallFiles checks uploads: a file is a parameter of type InputFile or attached by
// "attach://name" in another parameter; a file where the parameter takes none, or one that
// nothing attaches, is refused.
func TestCheckCallFiles(t *testing.T) {
	withFiles := func(r *request, names ...string) *request {
		for _, n := range names {
			r.files[n] = upload{name: n, data: []byte("PNG")}
		}
		return r
	}
	media := `{"type":"photo","media":"attach://board.png","caption":"x"}`
	for _, tc := range []struct {
		method string
		req    *request
		want   string
	}{
		{"sendPhoto", withFiles(fields("chat_id", "7"), "photo"), ""},
		{"sendPhoto", fields("chat_id", "7", "photo", "AgACAgFake000001"), ""},
		{"sendPhoto", withFiles(fields("chat_id", "7"), "image"), `unknown parameter "image"`},
		{"sendPhoto", withFiles(fields("chat_id", "7", "photo", "attach://image"), "image"), ""},
		{"sendPhoto", withFiles(fields("chat_id", "7", "photo", "x", "caption", "c"), "caption"), `parameter "caption" must be of type String, not a file`},
		{"sendPhoto", fields("chat_id", "7"), `parameter "photo" is required`},
		{"editMessageMedia", withFiles(fields("chat_id", "7", "message_id", "3", "media", media), "board.png"), ""},
		{"editMessageMedia", withFiles(fields("chat_id", "7", "message_id", "3", "media", media), "board.png", "other.png"), `unknown parameter "other.png"`},
		{"editMessageMedia", fields("chat_id", "7", "message_id", "3", "media", `{"type":"photo"}`), `can't parse InputMediaPhoto: Can't find field "media"`},
		{"editMessageMedia", fields("chat_id", "7", "message_id", "3", "media", `{"type":"photo","media":"x","thumbnail":"attach://t"}`), `can't parse InputMediaPhoto: Unknown field "thumbnail"`},
		{"editMessageMedia", fields("chat_id", "7", "message_id", "3", "media", `{"type":"video","media":"x","thumbnail":"attach://t"}`), ""}, // InputFile or String
	} {
		err := checkCall(tc.method, tc.req)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s %v %v: %v", tc.method, tc.req.fields, tc.req.files, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.desc, tc.want)):
			t.Errorf("%s %v = %v; want an error with %q", tc.method, tc.req.fields, err, tc.want)
		}
	}
}

// FuzzCheckCall checks arbitrary parameters: checkCall never panics, refuses only with a Bad
// Request, and gives the same answer every time (whatever the order of map iteration).
func FuzzCheckCall(f *testing.F) {
	f.Add("sendMessage", "reply_markup", `{"inline_keyboard":[[{"text":"a","callback_data":"x","copy_text":{"text":""},"z":1}]]}`, "text", "hi")
	f.Add("answerInlineQuery", "results", `[{"type":"photo","id":"p","photo_file_id":"f","reply_markup":{"inline_keyboard":[[{"text":"a"}]]}}]`, "inline_query_id", "q")
	f.Add("editMessageMedia", "media", `{"type":"photo","media":"attach://x","caption_entities":[{"type":"bold","offset":1e3,"length":-1}]}`, "message_id", "3")
	f.Add("setMyCommands", "commands", `[{"command":"a","description":"b"},null,7,"x",[]]`, "scope", `{"type":"chat","chat_id":1.5}`)
	f.Add("sendMessage", "entities", `[{"type":"text_mention","offset":0,"length":1,"user":{"id":1,"is_bot":false,"first_name":"A","x":{}}}]`, "chat_id", "7")
	f.Fuzz(func(t *testing.T, method, k1, v1, k2, v2 string) {
		r := fields(k1, v1, k2, v2)
		err := checkCall(method, r)
		for range 3 {
			again := checkCall(method, r)
			if (err == nil) != (again == nil) || err != nil && err.desc != again.desc {
				t.Fatalf("checkCall(%s, %q) = %v, then %v", method, r.fields, err, again)
			}
		}
		if err != nil && (err.code != http.StatusBadRequest || !strings.HasPrefix(err.desc, "Bad Request: ")) {
			t.Fatalf("checkCall(%s, %q) = %d %q", method, r.fields, err.code, err.desc)
		}
	})
}
