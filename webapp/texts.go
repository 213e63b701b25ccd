package webapp

import (
	"net/http"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/telegram/i18n"
)

// The codes of the API's own refusals, besides those of package game (game.Code), which an
// error answer carries as they are.
const (
	CodeAuthBad        = "auth_bad"          // initData missing, malformed or forged: 401
	CodeAuthExpired    = "auth_expired"      // initData too old (or dated ahead): 401
	CodePrivate        = "private_game"      // a private game (AI, invite, match) and not a player: 403
	CodeTooMany        = "too_many_requests" // over the user's budget (Games.Allow): 429
	CodeTooManyWatches = "too_many_watches"  // the user holds MaxWatchesPerUser watches: 429
	CodeServerBusy     = "server_busy"       // MaxWatches reached, or the server closing: 503
	CodeTooLarge       = "too_large"         // a request body over MaxBody: 413
	CodeMissingGame    = "no_game_id"        // no game named (neither ?g= nor start_param), or a malformed ID: 400
	CodeBadMoveRequest = "bad_move"          // a move request that does not parse: 400
)

// ownTexts are the texts of the API's own codes, and of the game codes whose chat text
// speaks of chat things (/board, buttons) that the page words otherwise.
var ownTexts = map[string][2]string{ // [en, ru]
	CodeAuthBad: {"This board could not confirm who you are. Open it again from the chat with the bot.",
		"Не удалось проверить, кто вы. Откройте доску снова из чата с ботом."},
	CodeAuthExpired: {"This board was opened too long ago. Open it again from the chat with the bot.",
		"Доска открыта слишком давно. Откройте её снова из чата с ботом."},
	CodePrivate: {"This game is private: only its two players can see it.",
		"Это закрытая партия: её видят только двое игроков."},
	CodeTooMany: {"Too many requests. Wait a moment and try again.",
		"Слишком много запросов. Подождите немного и попробуйте снова."},
	CodeTooManyWatches: {"This game is open in too many windows. Close some of them.",
		"Партия открыта в слишком многих окнах. Закройте лишние."},
	CodeServerBusy: {"The server is busy. Reconnecting…",
		"Сервер занят. Переподключаюсь…"},
	CodeTooLarge: {"The request is too large.",
		"Слишком большой запрос."},
	CodeMissingGame: {"No game is named here. Open the board from the game's message in the chat.",
		"Партия не указана. Откройте доску из сообщения с партией в чате."},
	CodeBadMoveRequest: {"That move could not be read.",
		"Не удалось прочитать ход."},
	string(game.CodeNoGame): {"This game no longer exists.",
		"Этой партии больше нет."},
	string(game.CodeStale): {"The board changed before your move arrived: here it is as it is now.",
		"Доска изменилась раньше, чем пришёл ваш ход: вот она сейчас."},
}

// errorText is the text of an error code in lang: the API's own, else the chat's (i18n.Error,
// which has one for every game.Code and the internal error's for unknown codes).
func errorText(lang, code string) string {
	if t, ok := ownTexts[code]; ok {
		if lang == i18n.RU {
			return t[1]
		}
		return t[0]
	}
	if game.Code(code).Internal() {
		return i18n.Error(lang, string(game.CodeInternal))
	}
	return i18n.Error(lang, code)
}

// httpStatus is the HTTP status of an error of package game, by its code.
func httpStatus(c game.Code) int {
	switch c {
	case game.CodeNoGame:
		return http.StatusNotFound
	case game.CodeNotYourGame:
		return http.StatusForbidden
	case game.CodeNotYourTurn, game.CodeStale, game.CodeGameOver, game.CodeNotStarted, game.CodeConflict,
		game.CodeNotOver, game.CodeAlreadyPlaying, game.CodeOpponentBusy, game.CodeOwnLobby,
		game.CodeLobbyTaken, game.CodeNotIdle, game.CodeNoOffer, game.CodeOwnOffer, game.CodeOfferExpired,
		game.CodeNothingToUndo, game.CodeNoMoves:
		return http.StatusConflict
	case game.CodeOffBoard, game.CodeOccupied, game.CodeIllegal, game.CodeNotAIGame, game.CodeNoHint,
		game.CodePeopleOnly:
		return http.StatusUnprocessableEntity
	case game.CodeBadRequest, game.CodeBadSize, game.CodeBadLevel:
		return http.StatusBadRequest
	case game.CodeBusy, game.CodeUnavailable:
		return http.StatusServiceUnavailable
	case game.CodeSetAside:
		return http.StatusGone
	}
	return http.StatusInternalServerError
}
