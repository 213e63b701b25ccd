package botapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
)

// GetUpdatesParams are the parameters of getUpdates.
type GetUpdatesParams struct {
	// Offset is the id of the first update wanted; every update before it is confirmed
	// (Telegram forgets it). 0 means from the first unconfirmed update on.
	Offset int64 `json:"offset,omitempty"`
	// Limit is the most updates wanted (1–100); 0 means 100.
	Limit int `json:"limit,omitempty"`
	// Timeout is how long, in seconds, Telegram waits for an update to come when there is
	// none (long polling); 0 answers at once.
	Timeout int `json:"timeout,omitempty"`
	// AllowedUpdates are the kinds of update wanted; nil keeps the previous choice.
	AllowedUpdates []string `json:"allowed_updates,omitempty"`
}

// maxUpdatesReply bounds the size of a getUpdates reply (100 updates).
const maxUpdatesReply = 32 << 20

// GetUpdates takes the updates from p.Offset on, waiting up to p.Timeout for one to come, and
// returns them with next, the offset that confirms them all (p.Offset when there are none).
// The message of a callback query holds its id, date and chat only (see wireUpdate).
// It confirms nothing itself: give next to the GetUpdates after the updates have been taken
// care of. An update that cannot be decoded is left out (and logged), and next confirms it
// with the others rather than have it offered again forever. It is not tried again: the
// caller polls again, after a wait of its choosing.
//
// go-telegram/bot has no getUpdates but the polling of its Start, which confirms each
// update before its handler has run; so this one call is made here, on encoding/json.
func (c *Client) GetUpdates(ctx context.Context, p GetUpdatesParams) (ups []*models.Update, next int64, err error) {
	const method = "getUpdates"
	body, err := json.Marshal(p)
	if err != nil {
		return nil, p.Offset, c.fail(ctx, method, 0, err)
	}
	x := &exchange{}
	buf := replyBuffers.Get().(*bytes.Buffer)
	defer releaseReply(buf)
	if err := c.post(ctx, method, body, x, buf); err != nil {
		return nil, p.Offset, c.fail(ctx, method, x.status, err)
	}
	ups, next, dropped, err := decodeUpdates(buf.Bytes(), p.Offset) // ups share no memory with buf
	if err != nil {
		return nil, p.Offset, c.fail(ctx, method, x.status, err)
	}
	for _, d := range dropped {
		c.log.Warn("bot: undecodable update dropped", "update", d.id, "err", d.err)
	}
	return ups, next, nil
}

// replyBuffers hold getUpdates replies while they are decoded: a reply of 100 taps is ≈0.5 MB,
// and reading each into a new buffer would cost a flood of taps a large share of its intake.
var replyBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledReply is the largest buffer releaseReply keeps.
const maxPooledReply = 4 << 20

// releaseReply gives buf back to replyBuffers, unless it grew over maxPooledReply.
func releaseReply(buf *bytes.Buffer) {
	if buf.Cap() <= maxPooledReply {
		buf.Reset()
		replyBuffers.Put(buf)
	}
}

// post sends body, a JSON object, to method and reads the reply into buf, whatever its
// status (noted in x).
func (c *Client) post(ctx context.Context, method string, body []byte, x *exchange, buf *bytes.Buffer) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url+method, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("error create request for method %s, %w", method, err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		var uerr *url.Error
		if errors.As(err, &uerr) {
			uerr.URL = strings.ReplaceAll(uerr.URL, c.token, "***")
		}
		return fmt.Errorf("error do request for method %s, %w", method, err)
	}
	defer func() { _ = resp.Body.Close() }()
	x.status = resp.StatusCode
	if _, err := buf.ReadFrom(io.LimitReader(resp.Body, maxUpdatesReply+1)); err != nil {
		return fmt.Errorf("error read response body for method %s, %w", method, err)
	}
	if buf.Len() > maxUpdatesReply {
		return fmt.Errorf("reply of method %s over %d bytes", method, maxUpdatesReply)
	}
	return nil
}

// reply is a Bot API reply but for its result.
type reply struct {
	OK          bool   `json:"ok"`
	ErrorCode   int    `json:"error_code"`
	Description string `json:"description"`
	Parameters  struct {
		RetryAfter      int `json:"retry_after"`
		MigrateToChatID int `json:"migrate_to_chat_id"`
	} `json:"parameters"`
}

// err returns the error of a reply that is no success, as the library's (tgbot.ErrorConflict,
// *tgbot.TooManyRequestsError, ...); nil for a success.
func (r *reply) err(method string) error {
	if r.OK {
		return nil
	}
	switch r.ErrorCode {
	case 0:
		return fmt.Errorf("malformed reply to method %s", method)
	case http.StatusTooManyRequests:
		return &tgbot.TooManyRequestsError{Message: fmt.Sprintf("%s, %s", tgbot.ErrorTooManyRequests, r.Description),
			RetryAfter: r.Parameters.RetryAfter}
	case http.StatusBadRequest:
		if r.Parameters.MigrateToChatID != 0 {
			return &tgbot.MigrateError{Message: fmt.Sprintf("%s: %s", tgbot.ErrorBadRequest, r.Description),
				MigrateToChatID: r.Parameters.MigrateToChatID}
		}
		return fmt.Errorf("%w, %s", tgbot.ErrorBadRequest, r.Description)
	case http.StatusUnauthorized:
		return fmt.Errorf("%w, %s", tgbot.ErrorUnauthorized, r.Description)
	case http.StatusForbidden:
		return fmt.Errorf("%w, %s", tgbot.ErrorForbidden, r.Description)
	case http.StatusNotFound:
		return fmt.Errorf("%w, %s", tgbot.ErrorNotFound, r.Description)
	case http.StatusConflict:
		return fmt.Errorf("%w, %s", tgbot.ErrorConflict, r.Description)
	}
	return fmt.Errorf("error response from telegram for method %s, %d %s", method, r.ErrorCode, r.Description)
}

// dropped is an update that decodeUpdates left out.
type dropped struct {
	id  int64
	err error
}

// wireUpdate is a models.Update as GetUpdates decodes it: the message of a callback query is
// cut down to wireMessageRef. A tap's update carries the whole tapped message, keyboard and
// all (an 8×8 board is 67 buttons), which models.MaybeInaccessibleMessage decodes twice:
// decoding a tap into models.Update takes 4–6 times as long as this way (≈87 µs against
// ≈15 µs on the 2-core machine, BenchmarkDecodeUpdates), and a flood of taps is taken by the
// same loop as every other update.
type wireUpdate struct {
	models.Update
	CallbackQuery *wireCallbackQuery `json:"callback_query,omitempty"` // hides Update.CallbackQuery
}

// wireCallbackQuery is a models.CallbackQuery with its message cut down.
type wireCallbackQuery struct {
	models.CallbackQuery
	Message *wireMessageRef `json:"message,omitempty"` // hides CallbackQuery.Message
}

// wireMessageRef is what GetUpdates keeps of the message a tapped button belongs to: which
// message it is, in which chat, and whether it is still accessible (a date of 0 says it is
// not).
type wireMessageRef struct {
	ID   int         `json:"message_id"`
	Date int         `json:"date"`
	Chat models.Chat `json:"chat"`
}

// update returns w as a models.Update; the message of a callback query holds its id, date
// and chat only (as an InaccessibleMessage when its date is 0, as the library decodes it).
func (w *wireUpdate) update() *models.Update {
	u := w.Update
	if q := w.CallbackQuery; q != nil {
		cq := q.CallbackQuery
		if m := q.Message; m != nil {
			if m.Date == 0 {
				cq.Message = models.MaybeInaccessibleMessage{Type: models.MaybeInaccessibleMessageTypeInaccessibleMessage,
					InaccessibleMessage: &models.InaccessibleMessage{Chat: m.Chat, MessageID: m.ID}}
			} else {
				cq.Message = models.MaybeInaccessibleMessage{Type: models.MaybeInaccessibleMessageTypeMessage,
					Message: &models.Message{ID: m.ID, Date: m.Date, Chat: m.Chat}}
			}
		}
		u.CallbackQuery = &cq
	}
	return &u
}

// DecodeUpdate decodes one update (a webhook request's body) as GetUpdates decodes those of
// its reply: the message of a callback query holds its id, date and chat only.
func DecodeUpdate(data []byte) (*models.Update, error) {
	var w wireUpdate
	if err := json.Unmarshal(data, &w); err != nil {
		return nil, err
	}
	return w.update(), nil
}

// decodeUpdates decodes a getUpdates reply (data) to the updates asked for from offset on
// (see wireUpdate). An update that does not decode is left out and listed in drops; next is
// the offset that confirms all the updates of the reply (offset when there are none). err is
// the reply's failure, or says that it is not a Bot API reply.
func decodeUpdates(data []byte, offset int64) (ups []*models.Update, next int64, drops []dropped, err error) {
	var r struct {
		reply
		Result []*wireUpdate `json:"result"`
	}
	next = offset
	if json.Unmarshal(data, &r) != nil {
		// Some update is not what the Bot API promises: take the others one by one.
		return decodeOneByOne(data, offset)
	}
	if err := r.err("getUpdates"); err != nil {
		return nil, offset, nil, err
	}
	ups = make([]*models.Update, 0, len(r.Result))
	for _, w := range r.Result {
		if w == nil { // null: no update at all
			continue
		}
		u := w.update()
		ups = append(ups, u)
		next = max(next, u.ID+1)
	}
	return ups, next, nil, nil
}

// decodeOneByOne is decodeUpdates for a reply whose updates do not all decode.
func decodeOneByOne(data []byte, offset int64) (ups []*models.Update, next int64, drops []dropped, err error) {
	var r struct {
		reply
		Result []json.RawMessage `json:"result"`
	}
	if json.Unmarshal(data, &r) != nil {
		return nil, offset, nil, errors.New("malformed reply to method getUpdates")
	}
	if err := r.err("getUpdates"); err != nil {
		return nil, offset, nil, err
	}
	next = offset
	for _, raw := range r.Result {
		if string(bytes.TrimSpace(raw)) == "null" {
			continue
		}
		var w wireUpdate
		if err := json.Unmarshal(raw, &w); err != nil {
			var id struct {
				ID int64 `json:"update_id"`
			}
			_ = json.Unmarshal(raw, &id)
			drops = append(drops, dropped{id: id.ID, err: err})
			next = max(next, id.ID+1)
			continue
		}
		u := w.update()
		ups = append(ups, u)
		next = max(next, u.ID+1)
	}
	return ups, next, drops, nil
}
