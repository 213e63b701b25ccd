package present

import (
	"strconv"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/bot/i18n"
	"github.com/reversibot/reversi/game"
)

// The message of a matchmaking search (/find, or the menu's random opponent) is one message
// that follows the search: waiting (with a Cancel button), then found, cancelled, over or
// expired, each without a button that could act on a search that is over.

// Searching is the message of a search for an opponent on size×size that waits, for at most
// left more (rounded up to minutes); its button cancels the search.
func Searching(lang string, size int, left time.Duration) Content {
	return Content{Text: tr(lang, i18n.KeyFindQueued, size, size, i18n.Duration(lang, left)),
		Keyboard: &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{
			{Button(tr(lang, i18n.KeyFindCancel), callback.Data{Action: callback.ActionCancel}.Encode())}}}}
}

// SearchStarting is the message of a search before the queue has answered: no button yet.
func SearchStarting(lang string, size int) Content {
	return Content{Text: tr(lang, i18n.KeyFindStarting, size, size)}
}

// SearchFound is the message of a search that found opponent, whose rating is rating; the
// reader plays colour (0 black, 1 white).
func SearchFound(lang, opponent string, rating, colour int) Content {
	return Content{Text: tr(lang, i18n.KeyFindPaired, opponent, rating, ColorName(lang, colour))}
}

// SearchCancelled is the message of a search its owner cancelled.
func SearchCancelled(lang string) Content {
	return Content{Text: tr(lang, i18n.KeyFindCancelled)}
}

// SearchOver is what a search message says when its Cancel is tapped after the search ended
// (paired, expired, or left for another game).
func SearchOver(lang string) Content {
	return Content{Text: tr(lang, i18n.KeyFindOver)}
}

// SearchLeft is the message of a search that stopped because its owner went into another
// game (against the bot, a lobby, an invitation).
func SearchLeft(lang string) Content {
	return Content{Text: tr(lang, i18n.KeyFindLeft)}
}

// SearchExpired is the message of a search on size×size that ended by itself because nobody
// came; its button searches again for the same size.
func SearchExpired(lang string, size int) Content {
	return Content{Text: tr(lang, i18n.KeyFindExpired, size, size),
		Keyboard: &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{
			{Button(tr(lang, i18n.KeyFindAgain), FindData(size))}}}}
}

// FindData is the callback data of a button that starts a search for size (callback.ActionMenu
// with MenuFind, the size in Page); size 0 opens the size choice.
func FindData(size int) string {
	return callback.Data{Action: callback.ActionMenu, Arg: int(MenuFind), Page: size}.Encode()
}

// findMenu is the keyboard of the random opponent's size choice: a button per size, and Back
// to the main menu.
func findMenu(lang string) *models.InlineKeyboardMarkup {
	row := make([]models.InlineKeyboardButton, 0, len(game.Sizes))
	for _, n := range game.Sizes {
		row = append(row, Button(strconv.Itoa(n)+"×"+strconv.Itoa(n), FindData(n)))
	}
	return &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{row,
		backRow(lang, callback.Data{Action: callback.ActionMenu, Arg: int(MenuMain)}.Encode())}}
}
