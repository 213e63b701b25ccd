// Package present draws the bot's messages: a game's board, an invitation, the menus, a turn
// reminder. Each is a Content (a text with its entities, a keyboard, a picture) computed from
// domain values alone: the package does no I/O, reads no store and sends nothing, so its
// output is fixed by its input and its golden tests show every message as a player sees it.
package present

import (
	"strings"
	"unicode/utf16"

	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/bot/i18n"
)

// Content is what one message shows.
type Content struct {
	Text     string                       // the text, or the caption of a photo
	Keyboard *models.InlineKeyboardMarkup // the inline keyboard, nil for none
	Photo    []byte                       // a PNG when the message is a photo
	// PhotoURL is a picture Telegram fetches from this address, for a message that cannot
	// take an upload (an inline message); it stands for Photo. Set by the Telegram layer,
	// which serves the pictures; "" for none.
	PhotoURL string
	// Grid is set on the board of an inline message too big for a keyboard: the board as
	// lines of symbols, for when no picture can be shown there (see WithGrid). Text then
	// holds the status alone, and Entities lie in it.
	Grid string
	// Entities mark parts of Text (of the caption for a photo), in UTF-16 units as Telegram
	// counts them: sent as entities, or caption_entities with a photo. The text stays plain
	// (no parse mode); nil for none.
	Entities []models.MessageEntity
}

// WithGrid returns c showing its Grid above its Text as one text, the entities moved along;
// c itself when it has no Grid.
func (c Content) WithGrid() Content {
	if c.Grid == "" {
		return c
	}
	grid := c.Grid
	if !strings.HasSuffix(grid, "\n") {
		grid += "\n"
	}
	shift := len(utf16.Encode([]rune(grid)))
	if len(c.Entities) > 0 {
		ents := make([]models.MessageEntity, len(c.Entities))
		for i, e := range c.Entities {
			e.Offset += shift
			ents[i] = e
		}
		c.Entities = ents
	}
	c.Text, c.Grid = grid+c.Text, ""
	return c
}

// tr returns the text key of package i18n in lang, formatted with args.
func tr(lang string, key i18n.Key, args ...any) string { return i18n.T(lang, key, args...) }

// CallbackData is the callback data of a button asking for action a in game id (empty for
// none), drawn at ply.
func CallbackData(a callback.Action, id string, ply int) string {
	return callback.Data{Action: a, Game: id, Ply: ply}.Encode()
}

// Button is a button sending the callback data data.
func Button(text, data string) models.InlineKeyboardButton {
	return models.InlineKeyboardButton{Text: text, CallbackData: data}
}
