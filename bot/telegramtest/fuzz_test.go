package telegramtest

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"
)

func FuzzParseMarkup(f *testing.F) {
	f.Add(`{"inline_keyboard":[[{"text":"a","callback_data":"x"}]]}`)
	f.Add(`{"inline_keyboard":[[{"text":"a","url":"https://t.me/bot?start=x"},{"text":"b","switch_inline_query":""}]]}`)
	f.Add(`{"inline_keyboard":[[{"text":"a","callback_data":"","copy_text":{"text":""}}]]}`)
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
		again, err := parseMarkup(string(mustJSON(kb)))
		if err != nil || !sameMarkup(kb, again) {
			t.Fatalf("re-encoded keyboard %s: %v, same=%v", mustJSON(kb), err, sameMarkup(kb, again))
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

// FuzzServeHTTP sends arbitrary requests: the server never panics and always
// answers a JSON body whose error_code equals the HTTP status.
func FuzzServeHTTP(f *testing.F) {
	s := New()
	defer s.Close()
	u := s.NewUser("Fuzz", "en")
	if _, err := u.Send(u.ID(), "/start"); err != nil {
		f.Fatal(err)
	}
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
