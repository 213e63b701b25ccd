package telegramtest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
	"go.uber.org/goleak"

	"github.com/reversibot/reversi/bot/telegramtest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 {
		http.DefaultTransport.(*http.Transport).CloseIdleConnections()
		// A server connection that answered with "Connection: close" lingers for net/http's
		// fixed 500 ms (closeWriteAndWait) before it ends by itself: not a leak.
		if err := goleak.Find(goleak.IgnoreAnyFunction("net/http.(*conn).closeWriteAndWait")); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// client is a real go-telegram/bot client of srv.
func client(t *testing.T, srv *telegramtest.Server, opts ...tgbot.Option) *tgbot.Bot {
	t.Helper()
	all := append([]tgbot.Option{tgbot.WithServerURL(srv.URL()), tgbot.WithSkipGetMe(),
		tgbot.WithErrorsHandler(func(error) {})}, opts...)
	b, err := tgbot.New(srv.Token(), all...)
	if err != nil {
		t.Fatalf("tgbot.New: %v", err)
	}
	return b
}

// guard bounds a wait that should succeed at once; it is a failing guard,
// not a synchronisation tool.
func guard(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// keyboard builds rows×cols callback buttons labelled r,c with data "d:r:c".
func keyboard(rows, cols int) *models.InlineKeyboardMarkup {
	kb := &models.InlineKeyboardMarkup{}
	for r := range rows {
		var row []models.InlineKeyboardButton
		for c := range cols {
			row = append(row, models.InlineKeyboardButton{Text: fmt.Sprintf("%d,%d", r, c), CallbackData: fmt.Sprintf("d:%d:%d", r, c)})
		}
		kb.InlineKeyboard = append(kb.InlineKeyboard, row)
	}
	return kb
}

// started returns a user who has written /start to the bot, with that
// update already consumed.
func started(t *testing.T, srv *telegramtest.Server, name, lang string) *telegramtest.Person {
	t.Helper()
	u := srv.NewUser(name, lang)
	if _, err := u.Send(u.ID(), "/start"); err != nil {
		t.Fatalf("Send: %v", err)
	}
	drain(t, srv)
	return u
}

// startedAlice starts a fake with opts, and returns it with a client of it, a guard context
// and a user Alice (language "en") who has started the bot, as started makes her.
func startedAlice(t *testing.T, opts ...telegramtest.ServerOption) (*telegramtest.Server, *tgbot.Bot, context.Context, *telegramtest.Person) {
	t.Helper()
	srv := telegramtest.Start(t, opts...)
	b := client(t, srv)
	ctx := guard(t)
	return srv, b, ctx, started(t, srv, "Alice", "en")
}

// drain confirms every queued update with a raw getUpdates.
func drain(t *testing.T, srv *telegramtest.Server) []map[string]json.RawMessage {
	t.Helper()
	var ups []map[string]json.RawMessage
	status, body := raw(t, srv, "getUpdates", url.Values{"timeout": {"0"}})
	if status != 200 {
		t.Fatalf("getUpdates: %d %s", status, body)
	}
	mustDecodeResult(t, body, &ups)
	if len(ups) > 0 {
		var last int64
		_ = json.Unmarshal(ups[len(ups)-1]["update_id"], &last)
		raw(t, srv, "getUpdates", url.Values{"timeout": {"0"}, "offset": {fmt.Sprint(last + 1)}})
	}
	return ups
}

// raw posts a URL-encoded request and returns the status and body.
func raw(t *testing.T, srv *telegramtest.Server, method string, params url.Values) (int, []byte) {
	t.Helper()
	return rawToken(t, srv, srv.Token(), method, params)
}

// rawToken posts a URL-encoded request with token in place of srv's and returns the
// status and body.
func rawToken(t *testing.T, srv *telegramtest.Server, token, method string, params url.Values) (int, []byte) {
	t.Helper()
	return post(t, srv, token, method, "application/x-www-form-urlencoded", strings.NewReader(params.Encode()))
}

// post sends body, of type contentType, to method with token and returns the status and
// body of the answer; a request that gets no answer fails the test.
func post(t *testing.T, srv *telegramtest.Server, token, method, contentType string, body io.Reader) (int, []byte) {
	t.Helper()
	resp, err := http.Post(srv.URL()+"/bot"+token+"/"+method, contentType, body)
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	defer resp.Body.Close()
	reply, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	return resp.StatusCode, reply
}

func mustDecodeResult(t *testing.T, body []byte, dst any) {
	t.Helper()
	var r struct {
		OK     bool            `json:"ok"`
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(body, &r); err != nil || !r.OK {
		t.Fatalf("response %s: ok=%v err=%v", body, r.OK, err)
	}
	if err := json.Unmarshal(r.Result, dst); err != nil {
		t.Fatalf("result %s: %v", r.Result, err)
	}
}

// pngBytes draws a w×h PNG.
func pngBytes(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := range w {
		img.Set(x, x%h, color.RGBA{R: 200, A: 255})
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func wantErr(t *testing.T, err error, substr string) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), substr) {
		t.Fatalf("error = %v, want one containing %q", err, substr)
	}
}
