package webapp

import (
	"net/http"

	"github.com/reversibot/reversi/bot/i18n"
	"github.com/reversibot/reversi/game"
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
	CodePageOld        = "page_old"          // a move that names no position (a page from before positions were named): 409
	CodeMoveLost       = "move_lost"         // a move on a page ahead of the stored game (a Redis failover lost its last writes): 409
)

// ownTexts are the texts (package i18n) of the API's own codes, and of the game codes whose
// chat text speaks of chat things (/board, buttons) that the page words otherwise.
var ownTexts = map[string]i18n.Key{
	CodeAuthBad:             i18n.KeyAppAuthBad,
	CodeAuthExpired:         i18n.KeyAppAuthExpired,
	CodePrivate:             i18n.KeyAppPrivate,
	CodeTooMany:             i18n.KeyAppTooMany,
	CodeTooManyWatches:      i18n.KeyAppTooManyWatches,
	CodeServerBusy:          i18n.KeyAppServerBusy,
	CodeTooLarge:            i18n.KeyAppTooLarge,
	CodeMissingGame:         i18n.KeyAppMissingGame,
	CodeBadMoveRequest:      i18n.KeyAppBadMoveRequest,
	CodePageOld:             i18n.KeyAppPageOld,
	CodeMoveLost:            i18n.KeyGameMoveLost,
	string(game.CodeNoGame): i18n.KeyAppNoGame,
	string(game.CodeStale):  i18n.KeyAppStale,
}

// errorText is the text of an error code in lang: the API's own, else the chat's (i18n.Error,
// which has one for every game.Code and the internal error's for unknown codes).
func errorText(lang, code string) string {
	if k, ok := ownTexts[code]; ok {
		return i18n.T(lang, k)
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

// pageKeys are the texts the page shows, all of them: app.js names each by its key's value
// (t('app.your_move')) and finds it in the catalogue that index.html carries (pageCatalogue).
// The page's other texts come from the API: the players' names, a result, an error's text.
var pageKeys = []i18n.Key{
	i18n.KeyAppTitle, i18n.KeyAppYourMove, i18n.KeyAppWaitingFor, i18n.KeyAppToMove, i18n.KeyAppThinking,
	i18n.KeyAppLobby, i18n.KeyAppSending, i18n.KeyAppYou, i18n.KeyAppBot, i18n.KeyAppBlack, i18n.KeyAppWhite,
	i18n.KeyAppWatching, i18n.KeyAppMoveNumber, i18n.KeyAppMovesPlayed, i18n.KeyAppLastMove, i18n.KeyAppDiscs,
	i18n.KeyAppReconnecting, i18n.KeyAppNoInitData, i18n.KeyAppFailed, i18n.KeyAppOffline,
	i18n.KeyGamePass, i18n.KeyGameMoveLost,
}

// PageTexts is the catalogue of the page's texts in every language, which index.html carries
// as JSON in <script type="application/json" id="texts">: the page reads it before it shows
// anything, so it needs no request for its texts and holds none of its own.
type PageTexts struct {
	// Default is the language of a user whose language the page cannot tell (i18n.Default).
	Default string `json:"default"`
	// Pick maps the primary language subtags of a language_code that get another language
	// than Default to that language (i18n.PickTable): the page's first guess, from initData's
	// user, until the API's State.Lang tells the language the user chose.
	Pick map[string]string `json:"pick"`
	// Texts holds the texts by language and key. A text is a string, a format whose verbs are
	// %s, %d, their indexed forms (%[2]s) and %%; a plural text is an object of its forms by
	// CLDR plural category ("one", "few", "many", "other"), each a format taking the count
	// first, as i18n.Plural does.
	Texts map[string]map[i18n.Key]any `json:"texts"`
}

// pageCatalogue returns the texts of pageKeys in every language.
func pageCatalogue() PageTexts {
	c := PageTexts{Default: i18n.Default, Pick: i18n.PickTable(), Texts: map[string]map[i18n.Key]any{}}
	for _, lang := range i18n.Langs() {
		m := make(map[i18n.Key]any, len(pageKeys))
		for _, k := range pageKeys {
			if fs := i18n.Forms(lang, k); fs != nil {
				m[k] = fs
			} else {
				m[k] = i18n.T(lang, k)
			}
		}
		c.Texts[lang] = m
	}
	return c
}
