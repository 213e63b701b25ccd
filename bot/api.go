package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
	"github.com/reversibot/reversi/render"
)

// defaultAPIURL is the Bot API server used when Options.APIURL is empty (go-telegram/bot's
// default as well).
const defaultAPIURL = "https://api.telegram.org"

// maxReply bounds the size of a Bot API reply the lean path reads.
const maxReply = 8 << 20

// botAPI makes the Bot API calls of the hot path (answering taps, editing boards, taking
// updates) without go-telegram/bot: the request is a JSON body built by hand and sent with
// a Content-Length, and a successful reply is recognised without decoding its result (the
// edited message, which the bot never reads). Its errors are those go-telegram/bot gives
// for the same replies (*tgbot.TooManyRequestsError for 429, errors wrapping
// tgbot.ErrorBadRequest, tgbot.ErrorForbidden and so on), so that retry, errKind and
// notModified treat both paths alike; and they never contain the token.
type botAPI struct {
	client *http.Client
	prefix string // base URL + "/bot" + token + "/"
	token  string
}

// newBotAPI returns the lean client for the server at base ("" means Telegram's).
func newBotAPI(client *http.Client, base, token string) *botAPI {
	if base == "" {
		base = defaultAPIURL
	}
	return &botAPI{client: client, prefix: strings.TrimRight(base, "/") + "/bot" + token + "/", token: token}
}

// bufPool holds the buffers that replies and webhook requests are read into.
var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// okPrefix starts every successful reply of the Bot API (and of the fake server).
var okPrefix = []byte(`{"ok":true`)

// call posts body (a JSON object) to method and checks the reply; the result is ignored.
func (a *botAPI) call(ctx context.Context, method string, body []byte) error {
	status, reply, err := a.post(ctx, method, body)
	if err != nil {
		return err
	}
	defer releaseBuffer(reply)
	if bytes.HasPrefix(reply.Bytes(), okPrefix) {
		return nil
	}
	var f apiFailure
	if json.Unmarshal(reply.Bytes(), &f) != nil {
		return malformed(method, status)
	}
	return a.scrubbed(f.err(method, status))
}

// post sends body to method and returns the HTTP status and the reply, whatever the status;
// give the reply back with releaseBuffer.
func (a *botAPI) post(ctx context.Context, method string, body []byte) (int, *bytes.Buffer, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.prefix+method, bytes.NewReader(body))
	if err != nil {
		return 0, nil, a.scrubbed(fmt.Errorf("error create request for method %s, %w", method, err))
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := a.client.Do(req)
	if err != nil {
		var uerr *url.Error
		if errors.As(err, &uerr) {
			uerr.URL = strings.ReplaceAll(uerr.URL, a.token, "***")
		}
		return 0, nil, a.scrubbed(fmt.Errorf("error do request for method %s, %w", method, err))
	}
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	_, err = buf.ReadFrom(io.LimitReader(resp.Body, maxReply))
	_ = resp.Body.Close()
	if err != nil {
		releaseBuffer(buf)
		return 0, nil, a.scrubbed(fmt.Errorf("error read response body for method %s, %w", method, err))
	}
	return resp.StatusCode, buf, nil
}

// maxPooledBuffer is the largest buffer releaseBuffer keeps: a getUpdates reply of 100 taps,
// each carrying its board's keyboard, is ≈400 KB, and reading each into a new buffer cost the
// polling loop a tenth of its CPU under a flood of taps.
const maxPooledBuffer = 1 << 20

// releaseBuffer gives a reply buffer back to the pool (unless it grew larger than
// maxPooledBuffer).
func releaseBuffer(buf *bytes.Buffer) {
	if buf.Cap() <= maxPooledBuffer {
		bufPool.Put(buf)
	}
}

// malformed is the error of a reply that is not a Bot API reply (a proxy's error page, say).
func malformed(method string, status int) error {
	return fmt.Errorf("error response from telegram for method %s, HTTP %d: malformed reply", method, status)
}

// apiFailure is the part of a reply the bot reads when it is not plainly a success.
type apiFailure struct {
	OK          bool   `json:"ok"`
	ErrorCode   int    `json:"error_code"`
	Description string `json:"description"`
	Parameters  struct {
		RetryAfter      int `json:"retry_after"`
		MigrateToChatID int `json:"migrate_to_chat_id"`
	} `json:"parameters"`
}

// err maps the reply to go-telegram/bot's error for it: nil for a success, and a malformed
// reply's error when it names no error code.
func (f *apiFailure) err(method string, status int) error {
	if f.OK {
		return nil
	}
	switch f.ErrorCode {
	case 0:
		return malformed(method, status)
	case http.StatusTooManyRequests:
		return &tgbot.TooManyRequestsError{Message: fmt.Sprintf("%s, %s", tgbot.ErrorTooManyRequests, f.Description),
			RetryAfter: f.Parameters.RetryAfter}
	case http.StatusBadRequest:
		if f.Parameters.MigrateToChatID != 0 {
			return &tgbot.MigrateError{Message: fmt.Sprintf("%s: %s", tgbot.ErrorBadRequest, f.Description),
				MigrateToChatID: f.Parameters.MigrateToChatID}
		}
		return fmt.Errorf("%w, %s", tgbot.ErrorBadRequest, f.Description)
	case http.StatusForbidden:
		return fmt.Errorf("%w, %s", tgbot.ErrorForbidden, f.Description)
	case http.StatusUnauthorized:
		return fmt.Errorf("%w, %s", tgbot.ErrorUnauthorized, f.Description)
	case http.StatusNotFound:
		return fmt.Errorf("%w, %s", tgbot.ErrorNotFound, f.Description)
	case http.StatusConflict:
		return fmt.Errorf("%w, %s", tgbot.ErrorConflict, f.Description)
	}
	return fmt.Errorf("error response from telegram for method %s, %d %s", method, f.ErrorCode, f.Description)
}

// scrubbed returns err with the token blanked out of its text; errors.Is and errors.As still
// see err (a *url.Error inside names the request URL, which holds the token).
func (a *botAPI) scrubbed(err error) error {
	if err == nil || a.token == "" || !strings.Contains(err.Error(), a.token) {
		return err
	}
	return &scrubbedError{err: err, text: strings.ReplaceAll(err.Error(), a.token, "***")}
}

// scrubbedError is an error whose text had the token taken out.
type scrubbedError struct {
	err  error
	text string
}

func (e *scrubbedError) Error() string { return e.text }
func (e *scrubbedError) Unwrap() error { return e.err }

// jsonObject builds a JSON object field by field. Like go-telegram/bot's requests, it leaves
// out empty strings, zero numbers and false.
type jsonObject struct {
	b      []byte
	fields int
}

// newObject starts an object at the end of b.
func newObject(b []byte) jsonObject { return jsonObject{b: append(b, '{')} }

func (o *jsonObject) key(k string) {
	if o.fields > 0 {
		o.b = append(o.b, ',')
	}
	o.fields++
	o.b = append(o.b, '"')
	o.b = append(o.b, k...)
	o.b = append(o.b, '"', ':')
}

// str adds a string field unless v is empty.
func (o *jsonObject) str(k, v string) {
	if v != "" {
		o.key(k)
		o.b = render.AppendJSONString(o.b, v)
	}
}

// int adds a number field unless v is 0.
func (o *jsonObject) int(k string, v int64) {
	if v != 0 {
		o.key(k)
		o.b = strconv.AppendInt(o.b, v, 10)
	}
}

// bool adds a true field; false is left out.
func (o *jsonObject) bool(k string, v bool) {
	if v {
		o.key(k)
		o.b = append(o.b, "true"...)
	}
}

// keyboard adds an inline keyboard unless kb is nil.
func (o *jsonObject) keyboard(k string, kb *models.InlineKeyboardMarkup) {
	if kb != nil {
		o.key(k)
		o.b = render.AppendKeyboardJSON(o.b, kb)
	}
}

// done closes the object and returns the bytes.
func (o *jsonObject) done() []byte { return append(o.b, '}') }
