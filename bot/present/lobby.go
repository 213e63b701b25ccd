package present

import (
	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/bot/i18n"
	"github.com/reversibot/reversi/game"
)

// Lobby is the invitation to game g, in lang; its first button joins the game. An invite
// (game.FlowInvite) joins through a deep link to the bot username (a forwarded message keeps
// only URL buttons working for others); the other buttons are callbacks.
func Lobby(g *game.Game, lang, username string) Content {
	creator := g.Players[0].Name
	var text string
	var join models.InlineKeyboardButton
	switch g.Flow {
	case game.FlowInvite:
		text = tr(lang, i18n.KeyInviteText, creator, g.Size, g.Size)
		join = models.InlineKeyboardButton{Text: tr(lang, i18n.KeyInviteButton),
			URL: "https://t.me/" + username + "?start=j" + g.ID}
	case game.FlowInline:
		text = InlineText(lang, creator, g.Size, game.Choice(g.CreatorColor))
		join = Button(tr(lang, i18n.KeyLobbyJoin), CallbackData(callback.ActionJoin, g.ID, 0))
	default:
		switch g.CreatorColor {
		case 0, 1:
			text = tr(lang, i18n.KeyLobbyTextColor, creator, g.Size, g.Size, ColorName(lang, int(g.CreatorColor)))
		default:
			text = tr(lang, i18n.KeyLobbyText, creator, g.Size, g.Size, tr(lang, i18n.KeyLobbyRandomColors))
		}
		join = Button(tr(lang, i18n.KeyLobbyJoin), CallbackData(callback.ActionJoin, g.ID, 0))
	}
	kb := &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{
		{join},
		{Button(tr(lang, i18n.KeyLobbyCancel), CallbackData(callback.ActionCancel, g.ID, 0))},
	}}
	return Content{Text: text, Keyboard: kb}
}

// ColorName names colour i (0 black, 1 white) in words.
func ColorName(lang string, i int) string {
	if i == 1 {
		return tr(lang, i18n.KeyColorNameWhite)
	}
	return tr(lang, i18n.KeyColorNameBlack)
}

// Moved is what the old copy of a board (or, lobby true, of an invitation) says after /board
// moved it to a new message, in lang: a line pointing below, and no buttons, so that a chat
// has one live board of a game at most.
func Moved(lang string, lobby bool) Content {
	if lobby {
		return Content{Text: tr(lang, i18n.KeyBoardLobbyMoved)}
	}
	return Content{Text: tr(lang, i18n.KeyBoardMoved)}
}

// InlineText is the text of an inline post that invites its chat to a game on size×size with
// creator, who plays color (game.ChooseRandom: drawn when someone joins).
func InlineText(lang, creator string, size int, color game.Choice) string {
	if color == game.ChooseBlack || color == game.ChooseWhite {
		return tr(lang, i18n.KeyInlineTextColor, creator, size, size, creator, ColorName(lang, int(color)))
	}
	return tr(lang, i18n.KeyInlineText, creator, size, size)
}

// InlineResult is the title and description of the inline-mode result that offers a game on
// size×size, its poster playing color.
func InlineResult(lang string, size int, color game.Choice) (title, description string) {
	title = tr(lang, i18n.KeyInlineTitle, size)
	switch color {
	case game.ChooseBlack, game.ChooseWhite:
		description = tr(lang, i18n.KeyInlineDescriptionColor, size, ColorName(lang, int(color)))
	default:
		description = tr(lang, i18n.KeyInlineDescription, size)
	}
	return title, description
}
