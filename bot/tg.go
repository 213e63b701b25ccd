package bot

import (
	"context"
	"log/slog"
	"strings"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/boards"
	"github.com/reversibot/reversi/bot/botapi"
	"github.com/reversibot/reversi/bot/present"
	"github.com/reversibot/reversi/game"
)

// messenger sends, edits and answers the bot's messages: what every handler and part that
// talks to Telegram uses. Its zero value is not usable: New wires it.
type messenger struct {
	api    *botapi.Client // every Bot API call, tried again after a 429 and where safe
	tg     *botapi.Client // api's Once view: calls made once, in steps that retry repeats
	boards *boards.Editor // posts and edits the board messages
	log    *slog.Logger
	redactor
}

// redactor blanks the bot token out of errors: the library's errors can carry the request
// URL, which holds the token.
type redactor struct{ token string }

// scrub returns err's text with the token blanked out.
func (r redactor) scrub(err error) string {
	if err == nil {
		return ""
	}
	s := err.Error()
	if r.token != "" {
		s = strings.ReplaceAll(s, r.token, "***")
	}
	return s
}

// retry runs fn, a step safe to repeat whose Bot API calls are made once each (with m.tg),
// and again as botapi.Client.Retry decides: after a 429 once retry_after has passed, after
// a 5xx or a network error after a short backoff. The step's name is for the reader: the
// client counts each failed call in the metrics under its Bot API method.
func (m *messenger) retry(ctx context.Context, _ string, fn func() error) error {
	return m.api.Retry(ctx, fn)
}

// sendText sends a plain text message.
func (m *messenger) sendText(ctx context.Context, chatID int64, text string, kb *models.InlineKeyboardMarkup) (*models.Message, error) {
	return m.api.SendMessage(ctx, &tgbot.SendMessageParams{ChatID: chatID, Text: clip(text, 4096),
		ReplyMarkup: botapi.Markup(kb)})
}

// typing shows "typing…" in the chat of the message ref while the AI thinks (not for an
// inline message, whose chat the bot cannot see); a failure is logged at debug level only.
func (m *messenger) typing(ctx context.Context, ref game.MessageRef) {
	if ref.InlineID != "" || ref.ChatID == 0 {
		return
	}
	if _, err := m.tg.SendChatAction(ctx, &tgbot.SendChatActionParams{ChatID: ref.ChatID,
		Action: models.ChatActionTyping}); err != nil {
		m.log.Debug("chat action", "chat", ref.ChatID, "err", m.scrub(err))
	}
}

// answer answers a callback query (once; the caller makes sure of that).
func (m *messenger) answer(ctx context.Context, queryID, text string, alert bool) error {
	_, err := m.api.AnswerCallbackQuery(ctx, &tgbot.AnswerCallbackQueryParams{CallbackQueryID: queryID,
		Text: clip(text, 200), ShowAlert: alert && text != ""})
	return err
}

// content is what one message shows.
type content = present.Content

// clipped returns c with its text cut to what Telegram takes (a caption when c is a photo,
// else a text), keeping only the entities that still lie inside whatever the cut left of it.
func clipped(c content) content {
	n := 4096
	if c.Photo != nil || c.PhotoURL != "" {
		n = 1024
	}
	cut := clip(c.Text, n)
	if cut != c.Text && len(c.Entities) > 0 {
		kept := utf16Len(cut) - 1 // the units before the "…"
		var ents []models.MessageEntity
		for _, e := range c.Entities {
			if e.Offset+e.Length <= kept {
				ents = append(ents, e)
			}
		}
		c.Entities = ents
	}
	c.Text = cut
	return c
}

// edit replaces the content of the message ref now (see boards.Editor.Edit).
func (m *messenger) edit(ctx context.Context, ref game.MessageRef, c content) error {
	return m.boards.Edit(ctx, ref, clipped(c))
}

// editMarkup replaces only the keyboard of the message ref now.
func (m *messenger) editMarkup(ctx context.Context, ref game.MessageRef, kb *models.InlineKeyboardMarkup) error {
	return m.boards.EditKeyboard(ctx, ref, kb)
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
