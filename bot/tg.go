package bot

import (
	"bytes"
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/game"
)

// Limits on waiting for Telegram's rate limits.
const (
	maxRetries    = 4
	maxRetryAfter = 60 * time.Second
)

// retry runs fn, and again after a 429 once retry_after has passed (at most maxRetries
// times). It records failures in the metrics.
func (b *Bot) retry(ctx context.Context, method string, fn func() error) error {
	for attempt := 0; ; attempt++ {
		err := fn()
		if err == nil {
			return nil
		}
		b.met.TelegramError(method, errKind(err))
		var tooMany *tgbot.TooManyRequestsError
		if !errors.As(err, &tooMany) || attempt >= maxRetries {
			return err
		}
		wait := min(time.Duration(tooMany.RetryAfter)*time.Second, maxRetryAfter)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
	}
}

// errKind classifies a Bot API error for the metrics.
func errKind(err error) string {
	var tooMany *tgbot.TooManyRequestsError
	switch {
	case errors.As(err, &tooMany):
		return "too_many_requests"
	case notModified(err):
		return "not_modified"
	case errors.Is(err, tgbot.ErrorForbidden):
		return "forbidden"
	case errors.Is(err, tgbot.ErrorBadRequest):
		return "bad_request"
	case strings.Contains(err.Error(), "error response from telegram"):
		return "server"
	}
	return "network"
}

// notModified reports Telegram's harmless answer to an edit that changes nothing.
func notModified(err error) bool {
	return err != nil && strings.Contains(err.Error(), "message is not modified")
}

// markup returns m as a ReplyMarkup, nil (no keyboard) when m is nil.
func markup(m *models.InlineKeyboardMarkup) models.ReplyMarkup {
	if m == nil {
		return nil
	}
	return m
}

// sendText sends a plain text message.
func (b *Bot) sendText(ctx context.Context, chatID int64, text string, kb *models.InlineKeyboardMarkup) (*models.Message, error) {
	var msg *models.Message
	err := b.retry(ctx, "sendMessage", func() error {
		var err error
		msg, err = b.tg.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: chatID, Text: clip(text, 4096),
			ReplyMarkup: markup(kb)})
		return err
	})
	return msg, err
}

// sendPhoto sends a PNG with a caption.
func (b *Bot) sendPhoto(ctx context.Context, chatID int64, png []byte, caption string, kb *models.InlineKeyboardMarkup) (*models.Message, error) {
	var msg *models.Message
	err := b.retry(ctx, "sendPhoto", func() error {
		var err error
		msg, err = b.tg.SendPhoto(ctx, &tgbot.SendPhotoParams{ChatID: chatID,
			Photo:   &models.InputFileUpload{Filename: "board.png", Data: bytes.NewReader(png)},
			Caption: clip(caption, 1024), ReplyMarkup: markup(kb)})
		return err
	})
	return msg, err
}

// answer answers a callback query (once; the caller makes sure of that).
func (b *Bot) answer(ctx context.Context, queryID, text string, alert bool) error {
	o := newObject(make([]byte, 0, 128))
	o.str("callback_query_id", queryID)
	o.str("text", clip(text, 200))
	o.bool("show_alert", alert && text != "")
	body := o.done()
	return b.retry(ctx, "answerCallbackQuery", func() error {
		return b.api.call(ctx, "answerCallbackQuery", body)
	})
}

// content is what one board message shows.
type content struct {
	text  string // the text, or the caption of a photo
	kb    *models.InlineKeyboardMarkup
	photo []byte // a PNG when the message is a photo
}

// edit replaces the content of the message ref. "Message is not modified" is success, and so
// is the `true` an inline edit returns (the lean path never decodes a result).
func (b *Bot) edit(ctx context.Context, ref game.MessageRef, c content) error {
	return b.retry(ctx, editMethod(ref, c), func() error { return b.editOnce(ctx, ref, c) })
}

// editMethod is the Bot API method that edit uses for c.
func editMethod(ref game.MessageRef, c content) string {
	if c.photo != nil && ref.InlineID == "" {
		return "editMessageMedia"
	}
	return "editMessageText"
}

// editOnce makes one edit request, without retries.
func (b *Bot) editOnce(ctx context.Context, ref game.MessageRef, c content) error {
	var err error
	if editMethod(ref, c) == "editMessageMedia" {
		_, err = b.tg.EditMessageMedia(ctx, &tgbot.EditMessageMediaParams{ChatID: ref.ChatID,
			MessageID: ref.MessageID, ReplyMarkup: markup(c.kb),
			Media: &models.InputMediaPhoto{Media: "attach://board.png", Caption: clip(c.text, 1024),
				MediaAttachment: bytes.NewReader(c.photo)}})
		if notModified(err) {
			return nil
		}
		return err
	}
	o := refObject(ref, 64+len(c.text)+kbSize(c.kb))
	o.str("text", clip(c.text, 4096))
	o.keyboard("reply_markup", c.kb)
	return editResult(b.api.call(ctx, "editMessageText", o.done()))
}

// editMarkup replaces only the keyboard of the message ref.
func (b *Bot) editMarkup(ctx context.Context, ref game.MessageRef, kb *models.InlineKeyboardMarkup) error {
	o := refObject(ref, 64+kbSize(kb))
	o.keyboard("reply_markup", kb)
	body := o.done()
	return b.retry(ctx, "editMessageReplyMarkup", func() error {
		return editResult(b.api.call(ctx, "editMessageReplyMarkup", body))
	})
}

// refObject starts the JSON body of an edit of the message ref, with room for size bytes.
func refObject(ref game.MessageRef, size int) jsonObject {
	o := newObject(make([]byte, 0, size))
	if ref.InlineID != "" {
		o.str("inline_message_id", ref.InlineID)
	} else {
		o.int("chat_id", ref.ChatID)
		o.int("message_id", int64(ref.MessageID))
	}
	return o
}

// kbSize estimates the size of kb in JSON, to size a request body at once.
func kbSize(kb *models.InlineKeyboardMarkup) int {
	if kb == nil {
		return 0
	}
	n := 32
	for _, row := range kb.InlineKeyboard {
		n += 2 + 56*len(row)
	}
	return n
}

// editResult is the outcome of an edit: "message is not modified" is success.
func editResult(err error) error {
	if notModified(err) {
		return nil
	}
	return err
}

// clip cuts s to at most n UTF-16 units, as Telegram counts the length of a text, ending it
// with "…" (the bot's texts keep well inside the limits, so this only guards against
// surprises). The cut falls between characters as a reader sees them (see cutUnits).
func clip(s string, n int) string {
	if len(s) <= n || utf16Len(s) <= n { // a UTF-8 byte is at least a UTF-16 unit
		return s
	}
	return cutUnits(s, n-1) + "…"
}

// refKey names the message ref for the editor.
func refKey(ref game.MessageRef) string {
	if ref.InlineID != "" {
		return "i:" + ref.InlineID
	}
	return strconv.FormatInt(ref.ChatID, 10) + ":" + strconv.Itoa(ref.MessageID)
}

// editor coalesces the edits of each message: while an edit of a message is on its way, newer
// requests for it replace each other, and only the newest is sent next. A request names a game,
// not a content: the content is drawn from the store when the edit is sent, so it always shows
// the newest state, whatever order the requests came in.
type editor struct {
	mu sync.Mutex
	m  map[string]*editSlot
	// latest is, by refKey, the newest board batch that drew each board and has its check
	// (boardBatch.landed) to come.
	latest map[string]*boardBatch
}

type editSlot struct {
	pending func(ctx context.Context)
	running bool
}

// editQueued reports whether an edit of ref is waiting to start in this process, or, unless
// self (the caller is the running edit of ref), running. Such an edit reads the store when it
// starts, so it draws at least the state the store has now.
func (b *Bot) editQueued(ref game.MessageRef, self bool) bool {
	e := &b.edits
	e.mu.Lock()
	defer e.mu.Unlock()
	s := e.m[refKey(ref)]
	return s != nil && (s.pending != nil || s.running && !self)
}

// schedule asks for an edit of ref; do performs it. It returns at once.
func (b *Bot) schedule(ref game.MessageRef, do func(ctx context.Context)) {
	key := refKey(ref)
	e := &b.edits
	e.mu.Lock()
	s := e.m[key]
	if s == nil {
		s = &editSlot{}
		e.m[key] = s
	}
	s.pending = do
	if s.running {
		e.mu.Unlock()
		return
	}
	s.running = true
	e.mu.Unlock()
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		for {
			e.mu.Lock()
			do := s.pending
			s.pending = nil
			if do == nil {
				s.running = false
				delete(e.m, key)
				e.mu.Unlock()
				return
			}
			e.mu.Unlock()
			ctx, cancel := context.WithTimeout(b.base, 2*maxRetryAfter)
			func() {
				defer func() {
					if r := recover(); r != nil {
						b.log.Error("panic in edit", "panic", r)
					}
				}()
				do(ctx)
			}()
			cancel()
		}
	}()
}
