package bot

import (
	"context"
	"encoding/json"
	"time"

	"github.com/go-telegram/bot/models"
	"github.com/reversibot/reversi/render"
)

// allowedUpdates are the kinds of update the bot asks Telegram for.
var allowedUpdates = []string{"message", "callback_query", "inline_query", "chosen_inline_result"}

// wireUpdate is an update as the bot decodes it: like models.Update, but for the kinds it
// handles only, and with the message of a callback query cut down to what the bot reads of it
// (see wireMessageRef). A tap's update carries the whole board message, keyboard and all, and
// decoding that into models.Message (twice, as models.MaybeInaccessibleMessage does) was the
// costliest part of taking an update.
type wireUpdate struct {
	ID                 int64                      `json:"update_id"`
	Message            *models.Message            `json:"message"`
	EditedMessage      *models.Message            `json:"edited_message"`
	CallbackQuery      *wireCallbackQuery         `json:"callback_query"`
	InlineQuery        *models.InlineQuery        `json:"inline_query"`
	ChosenInlineResult *models.ChosenInlineResult `json:"chosen_inline_result"`
}

// wireCallbackQuery is models.CallbackQuery with a lean message.
type wireCallbackQuery struct {
	ID              string          `json:"id"`
	From            models.User     `json:"from"`
	Message         *wireMessageRef `json:"message"`
	InlineMessageID string          `json:"inline_message_id"`
	ChatInstance    string          `json:"chat_instance"`
	Data            string          `json:"data"`
	GameShortName   string          `json:"game_short_name"`
}

// wireMessageRef is what the bot reads of the message a button belongs to: which message
// it is, in which chat, and whether it is still accessible (a date of 0 says it is not).
type wireMessageRef struct {
	ID   int         `json:"message_id"`
	Date int         `json:"date"`
	Chat models.Chat `json:"chat"`
}

// update converts w to the models.Update the handlers take. The message of a callback query
// holds its ID, date and chat only.
func (w *wireUpdate) update() *models.Update {
	u := &models.Update{ID: w.ID, Message: w.Message, EditedMessage: w.EditedMessage,
		InlineQuery: w.InlineQuery, ChosenInlineResult: w.ChosenInlineResult}
	if q := w.CallbackQuery; q != nil {
		cq := &models.CallbackQuery{ID: q.ID, From: q.From, InlineMessageID: q.InlineMessageID,
			ChatInstance: q.ChatInstance, Data: q.Data, GameShortName: q.GameShortName}
		if m := q.Message; m != nil {
			if m.Date == 0 {
				cq.Message = models.MaybeInaccessibleMessage{Type: models.MaybeInaccessibleMessageTypeInaccessibleMessage,
					InaccessibleMessage: &models.InaccessibleMessage{Chat: m.Chat, MessageID: m.ID}}
			} else {
				cq.Message = models.MaybeInaccessibleMessage{Type: models.MaybeInaccessibleMessageTypeMessage,
					Message: &models.Message{ID: m.ID, Date: m.Date, Chat: m.Chat}}
			}
		}
		u.CallbackQuery = cq
	}
	return u
}

// decodeUpdate decodes one update.
func decodeUpdate(data []byte) (*models.Update, error) {
	var w wireUpdate
	if err := json.Unmarshal(data, &w); err != nil {
		return nil, err
	}
	return w.update(), nil
}

// getUpdates asks for the updates from offset on (0: all unconfirmed), waiting up to timeout
// for one to come. An update that cannot be decoded is left out (and logged), so that it is
// confirmed with the others rather than offered again forever; next is the offset that
// confirms all of them.
func (b *Bot) getUpdates(ctx context.Context, offset int64, timeout time.Duration) (ups []*models.Update, next int64, err error) {
	o := newObject(make([]byte, 0, 128))
	o.int("offset", offset)
	o.int("timeout", int64(timeout/time.Second))
	o.key("allowed_updates")
	o.b = append(o.b, '[')
	for i, a := range allowedUpdates {
		if i > 0 {
			o.b = append(o.b, ',')
		}
		o.b = render.AppendJSONString(o.b, a)
	}
	o.b = append(o.b, ']')
	status, reply, err := b.api.post(ctx, "getUpdates", o.done())
	if err != nil {
		return nil, offset, err
	}
	defer releaseBuffer(reply)
	data := cutKeyboards(reply.Bytes(), true)
	var r struct {
		apiFailure
		Result []wireUpdate `json:"result"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		// Some update is not what the Bot API promises: take the others one by one.
		return b.updatesOneByOne(data, offset, status)
	}
	if err := r.err("getUpdates", status); err != nil {
		return nil, offset, b.api.scrubbed(err)
	}
	next = offset
	ups = make([]*models.Update, len(r.Result))
	for i := range r.Result {
		ups[i] = r.Result[i].update()
		next = max(next, ups[i].ID+1)
	}
	return ups, next, nil
}

// updatesOneByOne decodes a getUpdates reply update by update, leaving out (and logging) those
// that cannot be decoded.
func (b *Bot) updatesOneByOne(reply []byte, offset int64, status int) ([]*models.Update, int64, error) {
	var r struct {
		apiFailure
		Result []json.RawMessage `json:"result"`
	}
	if json.Unmarshal(reply, &r) != nil {
		return nil, offset, malformed("getUpdates", status)
	}
	if err := r.err("getUpdates", status); err != nil {
		return nil, offset, b.api.scrubbed(err)
	}
	next := offset
	var ups []*models.Update
	for _, raw := range r.Result {
		u, err := decodeUpdate(raw)
		if err != nil {
			var id struct {
				ID int64 `json:"update_id"`
			}
			_ = json.Unmarshal(raw, &id)
			b.log.Warn("telegram: undecodable update dropped", "update", id.ID, "err", err)
			next = max(next, id.ID+1)
			continue
		}
		ups = append(ups, u)
		next = max(next, u.ID+1)
	}
	return ups, next, nil
}

// Waits after a failed getUpdates: the first, and the most.
const (
	firstPollBackoff = 100 * time.Millisecond
	maxPollBackoff   = 5 * time.Second
)

// poll takes updates by long polling and dispatches each, until ctx ends or the bot shuts
// down. While every handler is busy it waits (and takes no more updates). An update is confirmed to Telegram (by the offset of the next getUpdates) only after
// dispatch took it, so a stop never drops a confirmed update. A failed getUpdates is logged
// and tried again after a wait that doubles up to maxPollBackoff.
func (b *Bot) poll(ctx context.Context) {
	var offset int64
	var backoff time.Duration
	for ctx.Err() == nil {
		if backoff > 0 {
			t := time.NewTimer(backoff)
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
		}
		ups, next, err := b.getUpdates(ctx, offset, pollTimeout-time.Second)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			b.log.Warn("telegram", "err", b.scrub(err))
			backoff = min(max(2*backoff, firstPollBackoff), maxPollBackoff)
			continue
		}
		backoff = 0
		for _, u := range ups {
			if b.dispatch(ctx, u) != taken {
				return // shut down, or stopped while waiting for a handler
			}
		}
		offset = next
	}
}

// The keyboard of a tapped message is most of a tap's update (an 8×8 board is 64 buttons),
// and the bot never reads it. Before decoding, cutKeyboards cuts the member reply_markup out
// of callback_query.message (in an update, or in each update of a getUpdates reply): a quick
// scan that only balances brackets and strings, after which encoding/json has a small
// document to check and decode. Only a member that wireMessageRef would skip anyway is cut,
// so the decoded update is the same; a document that does not have the expected shape is left
// as it is. The one difference: the cut keyboard itself is not checked to be valid JSON.

// cutKeyboards cuts the callback_query.message.reply_markup members out of data, an update
// (reply false) or a getUpdates reply (reply true), in place, and returns what is left.
func cutKeyboards(data []byte, reply bool) []byte {
	var cuts [][2]int
	update := func(i int) int {
		return members(data, i, func(key []byte, v int) (int, bool) {
			if string(key) != "callback_query" {
				return skipValue(data, v), false
			}
			return members(data, v, func(key []byte, v int) (int, bool) {
				if string(key) != "message" {
					return skipValue(data, v), false
				}
				return members(data, v, func(key []byte, v int) (int, bool) {
					return skipValue(data, v), string(key) == "reply_markup"
				}, &cuts), false
			}, &cuts), false
		}, &cuts)
	}
	var end int
	if reply {
		end = members(data, 0, func(key []byte, v int) (int, bool) {
			if string(key) != "result" {
				return skipValue(data, v), false
			}
			return elements(data, v, update), false
		}, &cuts)
	} else {
		end = update(0)
	}
	if end < 0 || len(cuts) == 0 {
		return data
	}
	w := cuts[0][0]
	for k, c := range cuts {
		next := len(data)
		if k+1 < len(cuts) {
			next = cuts[k+1][0]
		}
		w += copy(data[w:], data[c[1]:next])
	}
	return data[:w]
}

// skipSpace returns the index of the first byte from i on that is not JSON whitespace.
func skipSpace(d []byte, i int) int {
	for i < len(d) && (d[i] == ' ' || d[i] == '\t' || d[i] == '\n' || d[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index just past the string that starts at d[i] ('"'), -1 if it
// does not end.
func skipString(d []byte, i int) int {
	for i++; i < len(d); i++ {
		switch d[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// skipValue returns the index just past the value that starts at d[i] (after whitespace),
// -1 if there is none. Objects and arrays are only balanced, not checked.
func skipValue(d []byte, i int) int {
	i = skipSpace(d, i)
	if i >= len(d) {
		return -1
	}
	switch d[i] {
	case '"':
		return skipString(d, i)
	case '{', '[':
		depth := 0
		for ; i < len(d); i++ {
			switch d[i] {
			case '"':
				j := skipString(d, i)
				if j < 0 {
					return -1
				}
				i = j - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return -1
	case ',', ':', '}', ']':
		return -1
	}
	for j := i; j < len(d); j++ {
		switch d[j] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return j
		}
	}
	return len(d)
}

// members walks the object that starts at d[i] (after whitespace) and returns the index just
// past it, -1 when it is not a well-formed object. visit gets each member's key (as written,
// escapes and all) and the index of its value, and returns the index just past the value
// (-1: malformed) and whether to cut the member, which members adds to cuts together with a
// comma beside it.
func members(d []byte, i int, visit func(key []byte, v int) (int, bool), cuts *[][2]int) int {
	i = skipSpace(d, i)
	if i >= len(d) || d[i] != '{' {
		return -1
	}
	i = skipSpace(d, i+1)
	if i < len(d) && d[i] == '}' {
		return i + 1
	}
	prevComma := -1
	for {
		if i >= len(d) || d[i] != '"' {
			return -1
		}
		k := skipString(d, i)
		if k < 0 {
			return -1
		}
		colon := skipSpace(d, k)
		if colon >= len(d) || d[colon] != ':' {
			return -1
		}
		end, cut := visit(d[i+1:k-1], colon+1)
		if end < 0 {
			return -1
		}
		next := skipSpace(d, end)
		if next >= len(d) {
			return -1
		}
		switch {
		case cut && d[next] == ',':
			addCut(cuts, i, next+1)
		case cut && prevComma >= 0:
			addCut(cuts, prevComma, end)
		case cut:
			addCut(cuts, i, end)
		}
		switch d[next] {
		case ',':
			if !cut {
				prevComma = next
			}
			i = skipSpace(d, next+1)
		case '}':
			return next + 1
		default:
			return -1
		}
	}
}

// addCut adds the range [a, b) to cuts, merging it with the last one when they overlap (a
// member cut with the comma before it, after one cut with the comma after it).
func addCut(cuts *[][2]int, a, b int) {
	if n := len(*cuts); n > 0 && a < (*cuts)[n-1][1] {
		last := &(*cuts)[n-1]
		last[0], last[1] = min(last[0], a), max(last[1], b)
		return
	}
	*cuts = append(*cuts, [2]int{a, b})
}

// elements walks the array that starts at d[i] (after whitespace), calling visit for each
// element (it returns the index just past the element, -1: malformed), and returns the index
// just past the array, -1 when it is not well formed.
func elements(d []byte, i int, visit func(v int) int) int {
	i = skipSpace(d, i)
	if i >= len(d) || d[i] != '[' {
		return -1
	}
	i = skipSpace(d, i+1)
	if i < len(d) && d[i] == ']' {
		return i + 1
	}
	for {
		end := visit(i)
		if end < 0 {
			return -1
		}
		next := skipSpace(d, end)
		if next >= len(d) {
			return -1
		}
		switch d[next] {
		case ',':
			i = skipSpace(d, next+1)
		case ']':
			return next + 1
		default:
			return -1
		}
	}
}
