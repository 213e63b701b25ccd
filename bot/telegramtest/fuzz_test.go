package telegramtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/botapi"
)

func FuzzParseMarkup(f *testing.F) {
	f.Add(`{"inline_keyboard":[[{"text":"a","callback_data":"x"}]]}`)
	f.Add(`{"inline_keyboard":[[{"text":"a","url":"https://t.me/bot?start=x"},{"text":"b","switch_inline_query":""}]]}`)
	f.Add(`{"inline_keyboard":[[{"text":"a","callback_data":"","copy_text":{"text":""}}]]}`)
	f.Add(`{"inline_keyboard":[[{"text":"a","copy_text":{"text":"c"}},{"text":"b","callback_data":"x","pay":true}]]}`)
	f.Add(`{"keyboard":[[{"text":"a"}]]}`)
	f.Add(`{"inline_keyboard":[[]]}`)
	f.Add(`null`)
	f.Add(`{"inline_keyboard":7}`)
	f.Fuzz(func(t *testing.T, raw string) {
		kb, err := parseMarkup(raw)
		if err != nil {
			if kb != nil || err.code != http.StatusBadRequest || !strings.HasPrefix(err.desc, "Bad Request: ") {
				t.Fatalf("parseMarkup(%q) = %v, %v", raw, kb, err)
			}
			return
		}
		if kb == nil {
			return
		}
		total := 0
		for _, row := range kb.InlineKeyboard {
			if len(row) == 0 || len(row) > MaxButtonsPerRow {
				t.Fatalf("accepted a row of %d buttons: %q", len(row), raw)
			}
			total += len(row)
			for _, b := range row {
				if b.Text == "" || len(b.CallbackData) > MaxCallbackData {
					t.Fatalf("accepted button %+v from %q", b, raw)
				}
			}
		}
		if total > MaxButtons {
			t.Fatalf("accepted %d buttons", total)
		}
		if strings.Contains(raw, "switch_inline_query") {
			return // models.InlineKeyboardButton cannot hold an empty switch_inline_query
		}
		again, err := parseMarkup(string(mustJSON(answerMarkup(kb))))
		if err != nil || !sameMarkup(kb, again) {
			t.Fatalf("re-encoded keyboard %s: %v, same=%v", mustJSON(answerMarkup(kb)), err, sameMarkup(kb, again))
		}
	})
}

func FuzzParseEntities(f *testing.F) {
	for _, s := range []string{"<b>a</b>", "a &lt; b &amp;&#1046;&#x416;", "<a href=\"x\">y</a>", "<b><i>x</b></i>", "<", "&", "a\\.b *c*", "3.5"} {
		f.Add(s, "HTML")
		f.Add(s, "MarkdownV2")
	}
	f.Fuzz(func(t *testing.T, s, mode string) {
		visible, err := parseEntities(s, mode)
		if err != nil {
			return
		}
		if !utf8.ValidString(visible) {
			t.Fatalf("parseEntities(%q, %q) = invalid UTF-8 %q", s, mode, visible)
		}
		if strings.EqualFold(mode, "html") && len(visible) > len(s) {
			t.Fatalf("visible text %q longer than the source %q", visible, s)
		}
	})
}

// startedUser is a new user of s named name (language "en") who has sent the bot start, a
// /start message; a send that fails fails tb.
func startedUser(tb testing.TB, s *Server, name, start string) *Person {
	tb.Helper()
	u := s.NewUser(name, "en")
	if _, err := u.Send(u.ID(), start); err != nil {
		tb.Fatal(err)
	}
	return u
}

// FuzzServeHTTP sends arbitrary requests: the server never panics and always
// answers a JSON body whose error_code equals the HTTP status.
func FuzzServeHTTP(f *testing.F) {
	s := New()
	defer s.Close()
	u := startedUser(f, s, "Fuzz", "/start")
	g := s.NewGroup("g", u)
	if _, err := u.InlineQuery("q"); err != nil {
		f.Fatal(err)
	}
	chat := func(id int64) string { return strings.TrimSpace(string(mustJSON(id))) }
	form := func(kv ...string) []byte {
		v := url.Values{}
		for i := 0; i+1 < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		return []byte(v.Encode())
	}
	ct := "application/x-www-form-urlencoded"
	f.Add("sendMessage", ct, form("chat_id", chat(u.ID()), "text", "hi", "reply_markup", `{"inline_keyboard":[[{"text":"a","callback_data":"x"}]]}`))
	f.Add("sendMessage", ct, form("chat_id", chat(g.ID()), "text", "<b>x", "parse_mode", "HTML"))
	f.Add("editMessageText", ct, form("chat_id", chat(u.ID()), "message_id", "2", "text", "x"))
	f.Add("editMessageMedia", ct, form("inline_message_id", "x", "media", `{"type":"photo","media":"attach://f"}`))
	f.Add("answerInlineQuery", ct, form("inline_query_id", "iq7000001", "results", `[{"type":"article","id":"a","title":"t","input_message_content":{"message_text":"m"}}]`))
	f.Add("answerCallbackQuery", "application/json", []byte(`{"callback_query_id":"1","text":5}`))
	f.Add("getUpdates", ct, form("offset", "-3", "timeout", "9", "allowed_updates", `["message"]`))
	f.Add("setWebhook", ct, form("url", "http://127.0.0.1:1/x", "secret_token", "a b"))
	f.Add("sendPhoto", "multipart/form-data; boundary=XX", []byte("--XX\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.png\"\r\n\r\nnot png\r\n--XX--\r\n"))
	f.Add("setMyCommands", ct, form("commands", `[{"command":"ai","description":"d"}]`, "scope", `{"type":"all_group_chats"}`))
	f.Fuzz(func(t *testing.T, method, contentType string, body []byte) {
		if strings.EqualFold(method, "setWebhook") {
			return // a webhook would start real deliveries; covered by tests
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // a long poll must not wait
		req := httptest.NewRequestWithContext(ctx, http.MethodPost, "/bot"+DefaultToken+"/"+url.PathEscape(method), bytes.NewReader(body))
		req.Header.Set("Content-Type", contentType)
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		var resp struct {
			OK        *bool `json:"ok"`
			ErrorCode int   `json:"error_code"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &resp); err != nil || resp.OK == nil {
			t.Fatalf("%s: body %q is not a Bot API answer: %v", method, rec.Body.Bytes(), err)
		}
		if *resp.OK != (rec.Code == http.StatusOK) || !*resp.OK && resp.ErrorCode != rec.Code {
			t.Fatalf("%s: status %d, body %s", method, rec.Code, rec.Body.Bytes())
		}
	})
}

func FuzzDeliverRaw(f *testing.F) {
	s := New()
	defer s.Close()
	f.Add([]byte(`{"message":{"text":"/start"}}`))
	f.Add([]byte(`{"update_id":-5,"callback_query":{"data":""}}`))
	f.Add([]byte(`{}`))
	f.Add([]byte(`[1]`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		id, err := s.DeliverRaw(raw)
		if err != nil {
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if id == 0 {
			return
		}
		last := s.st.updates[len(s.st.updates)-1]
		var obj map[string]json.RawMessage
		if last.id != id || json.Unmarshal(last.body, &obj) != nil || string(obj["update_id"]) != string(mustJSON(id)) {
			t.Fatalf("queued %s as update %d", last.body, id)
		}
		s.st.updates = nil
	})
}

// bodyTypes are the content types FuzzDecodeBody sends its bodies as.
var bodyTypes = []string{
	"application/json", "application/x-www-form-urlencoded", "multipart/form-data; boundary=XX",
	"application/json; charset=utf-8", "text/plain", "",
}

// FuzzDecodeBody decodes arbitrary bodies of every content type: decodeBody never panics,
// refuses only with a Bad Request, and its fields are what encoding/json, net/url and
// mime/multipart read from the body.
func FuzzDecodeBody(f *testing.F) {
	f.Add(uint8(0), []byte(`{"chat_id":123,"text":"a\nb","reply_markup":{"inline_keyboard":[[{"text":"x","callback_data":"y"}]]}}`))
	f.Add(uint8(0), []byte(`{"a":null,"a":"x","b":-0.5E-3,"c":[true,false,null],"d":"\ud800"}`))
	f.Add(uint8(0), []byte("{\"a\":\"\xff\",\"b\":{\"c\":\"\xfe\"}}"))
	f.Add(uint8(1), []byte("chat_id=1&text=a%20b&reply_markup=%7B%7D&text=c"))
	f.Add(uint8(2), []byte("--XX\r\nContent-Disposition: form-data; name=\"text\"\r\n\r\nhi\r\n--XX\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.png\"\r\n\r\nPNG\r\n--XX--\r\n"))
	f.Add(uint8(4), []byte("a=1;b"))
	f.Fuzz(func(t *testing.T, kind uint8, body []byte) {
		ct := bodyTypes[int(kind)%len(bodyTypes)]
		req := &request{fields: map[string]string{}, files: map[string]upload{}}
		if err := decodeBody(req, ct, body); err != nil {
			if err.code != http.StatusBadRequest || !strings.HasPrefix(err.desc, "Bad Request: ") {
				t.Fatalf("decodeBody(%q, %q) = %v", ct, body, err)
			}
			return
		}
		if len(bytes.TrimSpace(body)) == 0 {
			if len(req.fields)+len(req.files) != 0 {
				t.Fatalf("an empty body gave %q", req.fields)
			}
			return
		}
		switch {
		case strings.HasPrefix(ct, "application/json"):
			var obj map[string]any
			if err := json.Unmarshal(body, &obj); err != nil || len(obj) != len(req.fields) {
				t.Fatalf("decodeBody took %q as %q; encoding/json reads %v, %v", body, req.fields, obj, err)
			}
			for k, v := range obj {
				got := req.fields[k]
				switch v := v.(type) {
				case nil:
					if got != "" {
						t.Fatalf("%q: null read as %q", k, got)
					}
				case string:
					if got != v {
						t.Fatalf("%q: %q read as %q", k, v, got)
					}
				default: // the member's JSON text
					var back any
					if err := json.Unmarshal([]byte(got), &back); err != nil || !reflect.DeepEqual(back, v) {
						t.Fatalf("%q: %v read as %q", k, v, got)
					}
				}
			}
		case strings.HasPrefix(ct, "multipart/"):
			form, err := multipart.NewReader(bytes.NewReader(body), "XX").ReadForm(1 << 20)
			if err != nil && len(req.fields)+len(req.files) == 0 {
				return // no part: ReadForm says so, NextPart reads the end
			}
			if err != nil {
				t.Fatalf("decodeBody took multipart %q as %q; mime/multipart refuses it: %v", body, req.fields, err)
			}
			for k, v := range req.fields {
				if vs := form.Value[k]; len(vs) == 0 || vs[len(vs)-1] != v {
					t.Fatalf("multipart %q: %q read as %q, want the last of %q", body, k, v, vs)
				}
			}
			for k, up := range req.files {
				fs := form.File[k]
				if len(fs) == 0 || fs[len(fs)-1].Filename != up.name || fs[len(fs)-1].Size != int64(len(up.data)) {
					t.Fatalf("multipart %q: file %q read as %q (%d bytes)", body, k, up.name, len(up.data))
				}
			}
			_ = form.RemoveAll()
		default:
			vals, err := url.ParseQuery(string(body))
			if err != nil || len(vals) != len(req.fields) {
				t.Fatalf("form %q read as %q; net/url reads %q, %v", body, req.fields, vals, err)
			}
			for k, vs := range vals {
				if req.fields[k] != vs[0] {
					t.Fatalf("form %q: %q read as %q, want %q", body, k, req.fields[k], vs[0])
				}
			}
		}
	})
}

// inProcess is an HTTP client of the server that calls its ServeHTTP, without the network.
type inProcess struct{ s *Server }

func (c inProcess) Do(r *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	c.s.ServeHTTP(rec, r)
	return rec.Result(), nil
}

// FuzzLibraryRoundTrip edits a message through go-telegram/bot, which encodes the request
// as multipart/form-data with the keyboard as a JSON text field, and reads the answer back
// with the library: what the fake stores and answers is what was sent, and what it refuses
// (with Telegram's error) is what formatText and parseMarkup refuse of the text and of the
// keyboard's JSON.
func FuzzLibraryRoundTrip(f *testing.F) {
	s := New()
	defer s.Close()
	u := startedUser(f, s, "Fuzz", "/start")
	c, err := tgbot.New(s.Token(), tgbot.WithServerURL("http://fake.invalid"), tgbot.WithSkipGetMe(),
		tgbot.WithHTTPClient(time.Minute, inProcess{s}))
	if err != nil {
		f.Fatal(err)
	}
	first, err := c.SendMessage(context.Background(), &tgbot.SendMessageParams{ChatID: u.ID(), Text: "first"})
	if err != nil {
		f.Fatal(err)
	}
	f.Add("Alice vs Bob\n⚫ to move", "·", "v1:m:34:123456", "https://t.me/ReversiTestBot?start=x", "", uint8(8), uint8(8))
	f.Add("a\r\n--boundary\r\n\"", "\"<b>", "\x00", "tg://resolve?domain=x", "copy", uint8(1), uint8(9))
	f.Add(" ", "x", "", "", "", uint8(13), uint8(8))
	f.Add("Alice vs Bob", "·", "d", "https://t.me/x", "c", uint8(1), uint8(3))
	f.Add("\xff", "\xfe", strings.Repeat("d", 65), "ftp://x", "\u2028", uint8(2), uint8(3))
	f.Fuzz(func(t *testing.T, text, label, data, link, copyText string, rows, cols uint8) {
		kb := &models.InlineKeyboardMarkup{}
		for r := range int(rows%14) + 1 {
			row := make([]models.InlineKeyboardButton, int(cols%10)+1)
			for c := range row {
				b := &row[c]
				b.Text = label
				switch (r + c) % 4 {
				case 0:
					b.CallbackData = fmt.Sprint(data, r, c)
				case 1:
					b.URL = link
				case 2:
					b.CopyText.Text = copyText
				case 3:
					b.CallbackData = data
				}
			}
			kb.InlineKeyboard = append(kb.InlineKeyboard, row)
		}
		before, ok := s.Message(u.ID(), first.ID)
		if !ok {
			t.Fatal("the message is gone")
		}
		rm := botapi.Markup(kb)
		raw, encErr := json.Marshal(rm)
		got, err := c.EditMessageText(context.Background(), &tgbot.EditMessageTextParams{
			ChatID: u.ID(), MessageID: first.ID, Text: text, ReplyMarkup: rm,
		})
		if encErr != nil { // a button without exactly one action: the call fails, nothing changes
			if !errors.Is(encErr, botapi.ErrKeyboard) || err == nil {
				t.Fatalf("keyboard %+v: encoding %v, call %v", kb, encErr, err)
			}
			if after, _ := s.Message(u.ID(), first.ID); after.Edits != before.Edits {
				t.Fatal("a failed edit changed the message")
			}
			return
		}

		// What the fake should make of the request: the library sends the text as it is and
		// the keyboard as botapi.Markup has it; what the Bot API's description
		// forbids is refused first.
		want := checkCall("editMessageText", &request{fields: map[string]string{"chat_id": fmt.Sprint(u.ID()),
			"message_id": fmt.Sprint(first.ID), "text": text, "reply_markup": string(raw)}})
		visible, ferr := formatText(text, "", MaxTextLen, "message is too long")
		if want == nil && blank(text) {
			want = badRequest("message text is empty")
		}
		if want == nil {
			want = ferr
		}
		mk, merr := parseMarkup(string(raw))
		if want == nil {
			want = merr
		}
		if want == nil && visible == before.Text && sameMarkup(mk, before.Markup) {
			want = errNotModified
		}
		if want != nil {
			if err == nil || !strings.Contains(err.Error(), want.desc) {
				t.Fatalf("EditMessageText(%q, %s) = %v; want %q", text, raw, err, want.desc)
			}
			if after, _ := s.Message(u.ID(), first.ID); after.Edits != before.Edits {
				t.Fatal("a refused edit changed the message")
			}
			return
		}
		if err != nil {
			t.Fatalf("EditMessageText(%q, %s): %v", text, raw, err)
		}
		if utf8.ValidString(label) && utf8.ValidString(data) && utf8.ValidString(link) && utf8.ValidString(copyText) &&
			!reflect.DeepEqual(mk, kb) {
			t.Fatalf("keyboard %+v read as %+v", kb, mk)
		}
		after, _ := s.Message(u.ID(), first.ID)
		if after.Text != text || !sameMarkup(after.Markup, mk) || after.Edits != before.Edits+1 {
			t.Fatalf("stored %+v; sent %q, %+v", after, text, mk)
		}
		if got.Text != text || !reflect.DeepEqual(got.ReplyMarkup, mk) {
			t.Fatalf("answered %+v; sent %q, %+v", got, text, mk)
		}
	})
}

// TestDecodeMultipart checks a multipart/form-data body as mime/multipart writes it (and
// go-telegram/bot sends it): text fields and files.
func TestDecodeMultipart(t *testing.T) {
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	if err := w.SetBoundary("XX"); err != nil {
		t.Fatal(err)
	}
	fw, _ := w.CreateFormField("text")
	_, _ = fw.Write([]byte("hi"))
	ff, _ := w.CreateFormFile("photo", "a.png")
	_, _ = ff.Write([]byte("PNG"))
	_ = w.Close()
	req := &request{fields: map[string]string{}, files: map[string]upload{}}
	if err := decodeBody(req, w.FormDataContentType(), body.Bytes()); err != nil || req.fields["text"] != "hi" || string(req.files["photo"].data) != "PNG" {
		t.Fatalf("decodeBody(%q) = %+v, %v", body.Bytes(), req, err)
	}
}
