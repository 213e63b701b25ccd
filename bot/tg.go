package bot

import (
	"context"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/boards"
	"github.com/reversibot/reversi/bot/botapi"
	"github.com/reversibot/reversi/bot/present"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
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

// typing shows "typing…" in the chat of the message ref while the AI thinks (not for an
// inline message, whose chat the bot cannot see); a failure is logged at debug level only.
func (b *Bot) typing(ctx context.Context, ref game.MessageRef) {
	if ref.InlineID != "" || ref.ChatID == 0 {
		return
	}
	if _, err := b.tg.SendChatAction(ctx, &tgbot.SendChatActionParams{ChatID: ref.ChatID,
		Action: models.ChatActionTyping}); err != nil {
		b.log.Debug("chat action", "chat", ref.ChatID, "err", b.scrub(err))
	}
}

// answer answers a callback query (once; the caller makes sure of that).
func (b *Bot) answer(ctx context.Context, queryID, text string, alert bool) error {
	_, err := b.api.AnswerCallbackQuery(ctx, &tgbot.AnswerCallbackQueryParams{CallbackQueryID: queryID,
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
func (b *Bot) edit(ctx context.Context, ref game.MessageRef, c content) error {
	return b.boards.Edit(ctx, ref, clipped(c))
}

// editMarkup replaces only the keyboard of the message ref now.
func (b *Bot) editMarkup(ctx context.Context, ref game.MessageRef, kb *models.InlineKeyboardMarkup) error {
	return b.boards.EditKeyboard(ctx, ref, kb)
}

// newEditor returns the board Editor of b, which draws a board as present.BoardHinted does, in
// the style styleUser and styleOf say, and records a posted board through b's Service. It
// runs its edits in b.base and counts them in b.wg, so that Shutdown waits for them.
func (b *Bot) newEditor() *boards.Editor {
	return boards.New(boards.Options{API: b.api, Once: b.tg, Reader: b.svc,
		Content: func(g *game.Game, eg *engine.Game, ref game.MessageRef, style game.Style, hint engine.Square) (boards.Content, error) {
			c, err := present.BoardHinted(g, eg, ref, 0, style, hint)
			return b.finish(g, ref, c), err
		},
		StyleUser: styleUser, StyleOf: b.styleOf, AddBoard: b.svc.AddBoard,
		Logger: b.log, Context: b.base, Work: &b.wg, Pacer: b.pacer, Drawings: b.drawings})
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
