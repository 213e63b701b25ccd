package telegram

import (
	"bytes"
	"context"
	"strconv"
	"sync"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/telegram/botapi"
	"github.com/reversibot/reversi/telegram/present"
)

// retry runs fn, a step safe to repeat whose Bot API calls are made once each (with b.tg),
// and again as botapi.Client.Retry decides: after a 429 once retry_after has passed, after
// a 5xx or a network error after a short backoff. The step's name is for the reader: the
// client counts each failed call in the metrics under its Bot API method.
func (b *Bot) retry(ctx context.Context, _ string, fn func() error) error {
	return b.api.Retry(ctx, fn)
}

// sendText sends a plain text message.
func (b *Bot) sendText(ctx context.Context, chatID int64, text string, kb *models.InlineKeyboardMarkup) (*models.Message, error) {
	return b.api.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: chatID, Text: clip(text, 4096),
		ReplyMarkup: botapi.Markup(kb)})
}

// sendPhoto sends a PNG with a caption.
func (b *Bot) sendPhoto(ctx context.Context, chatID int64, png []byte, caption string, kb *models.InlineKeyboardMarkup) (*models.Message, error) {
	return b.api.SendPhoto(ctx, &tgbot.SendPhotoParams{ChatID: chatID,
		Photo:   &models.InputFileUpload{Filename: "board.png", Data: bytes.NewReader(png)},
		Caption: clip(caption, 1024), ReplyMarkup: botapi.Markup(kb)})
}

// answer answers a callback query (once; the caller makes sure of that).
func (b *Bot) answer(ctx context.Context, queryID, text string, alert bool) error {
	_, err := b.api.AnswerCallbackQuery(ctx, &tgbot.AnswerCallbackQueryParams{CallbackQueryID: queryID,
		Text: clip(text, 200), ShowAlert: alert && text != ""})
	return err
}

// content is what one message shows.
type content = present.Content

// edit replaces the content of the message ref. "Message is not modified" is success, and so
// is the `true` an inline edit returns.
func (b *Bot) edit(ctx context.Context, ref game.MessageRef, c content) error {
	return editWith(ctx, b.api, ref, c)
}

// editOnce makes one edit request, without retries.
func (b *Bot) editOnce(ctx context.Context, ref game.MessageRef, c content) error {
	return editWith(ctx, b.tg, ref, c)
}

// editWith edits the message ref to show c through api: its photo by editMessageMedia (a
// message in a chat only: an inline message cannot take an upload), else its text.
func editWith(ctx context.Context, api *botapi.Client, ref game.MessageRef, c content) error {
	var err error
	if c.Photo != nil && ref.InlineID == "" {
		_, err = api.EditMessageMedia(ctx, &tgbot.EditMessageMediaParams{ChatID: ref.ChatID,
			MessageID: ref.MessageID, ReplyMarkup: botapi.Markup(c.Keyboard),
			Media: &models.InputMediaPhoto{Media: "attach://board.png", Caption: clip(c.Text, 1024),
				MediaAttachment: bytes.NewReader(c.Photo)}})
		return err
	}
	p := &tgbot.EditMessageTextParams{InlineMessageID: ref.InlineID, Text: clip(c.Text, 4096),
		ReplyMarkup: botapi.Markup(c.Keyboard)}
	if ref.InlineID == "" {
		p.ChatID, p.MessageID = ref.ChatID, ref.MessageID
	}
	_, err = api.EditMessageText(ctx, p)
	return err
}

// editMarkup replaces only the keyboard of the message ref.
func (b *Bot) editMarkup(ctx context.Context, ref game.MessageRef, kb *models.InlineKeyboardMarkup) error {
	p := &tgbot.EditMessageReplyMarkupParams{InlineMessageID: ref.InlineID, ReplyMarkup: botapi.Markup(kb)}
	if ref.InlineID == "" {
		p.ChatID, p.MessageID = ref.ChatID, ref.MessageID
	}
	_, err := b.api.EditMessageReplyMarkup(ctx, p)
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
			ctx, cancel := context.WithTimeout(b.base, 2*botapi.MaxRetryAfter)
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
