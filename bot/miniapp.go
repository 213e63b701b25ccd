package bot

import (
	"net/url"
	"strings"

	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/i18n"
	"github.com/reversibot/reversi/bot/present"
	"github.com/reversibot/reversi/game"
)

// The Mini App board (package webapp) is offered under every board in play when the bot has
// a public HTTPS address (Options.PublicURL): in a private chat as a web_app button that
// opens MiniAppPath, elsewhere (groups, inline posts, where Telegram allows no web_app
// button) as a direct link to the Mini App made in BotFather (Options.MiniAppName), which
// hands the game's ID to the page as its start parameter. The page's requests come to the
// bot's MiniApp (miniappgames.go); moves made in it take the path of a tapped square.

// MiniAppPath is the path under Options.PublicURL where the Mini App's page is served (cmd
// mounts package webapp there); a web_app button opens MiniAppPath + "?g=" + the game's ID.
const MiniAppPath = "/app/"

// miniAppURL is the address of the Mini App page of game id, "" when the bot has no public
// HTTPS address (Telegram opens web_app buttons over HTTPS only).
func (b *Bot) miniAppURL(id string) string {
	if !strings.HasPrefix(b.publicURL, "https://") {
		return ""
	}
	return b.publicURL + MiniAppPath + "?g=" + url.QueryEscape(id)
}

// miniAppLink is the direct link that opens the Mini App with game id in any chat, "" when
// the operator named no Mini App (Options.MiniAppName) or the page has no HTTPS address.
func (b *Bot) miniAppLink(id string) string {
	if b.miniAppName == "" || b.miniAppURL(id) == "" || b.username == "" {
		return ""
	}
	return "https://t.me/" + b.username + "/" + b.miniAppName + "?startapp=" + url.QueryEscape(id)
}

// miniAppButton is the button under a board of game g in message ref that opens the game in
// the Mini App: a web_app button in a private chat, the direct link elsewhere; ok is false
// when there is none (no address, no app name, or a game not in play).
func (b *Bot) miniAppButton(g *game.Game, ref game.MessageRef, lang string) (btn models.InlineKeyboardButton, ok bool) {
	if g.Status != game.StatusPlaying {
		return btn, false
	}
	text := tr(lang, i18n.KeyBtnMiniApp)
	if ref.InlineID == "" && ref.ChatID > 0 { // a private chat: its ID is its user's
		if u := b.miniAppURL(g.ID); u != "" {
			return models.InlineKeyboardButton{Text: text, WebApp: &models.WebAppInfo{URL: u}}, true
		}
		return btn, false
	}
	if u := b.miniAppLink(g.ID); u != "" {
		return models.InlineKeyboardButton{Text: text, URL: u}, true
	}
	return btn, false
}

// finish turns the drawn board c of game g for message ref into what the bot sends: the Mini
// App's button added under it, an inline board too big for a keyboard shown as a picture the
// bot serves (or, without a public address, as its grid of symbols), and the text clipped to
// Telegram's limits.
func (b *Bot) finish(g *game.Game, ref game.MessageRef, c content) content {
	if btn, ok := b.miniAppButton(g, ref, present.ViewLang(g, ref)); ok && c.Keyboard != nil {
		kb := *c.Keyboard
		kb.InlineKeyboard = append(append([][]models.InlineKeyboardButton(nil), kb.InlineKeyboard...),
			[]models.InlineKeyboardButton{btn})
		c.Keyboard = &kb
	}
	if ref.InlineID != "" && g.Status == game.StatusLobby && !present.FitsKeyboard(g.Size) && c.Photo == nil {
		c.PhotoURL = b.startPictureURL(g.Size) // the invitation was posted as this picture
	}
	if c.Grid != "" {
		if u := b.pictureURL(g); u != "" {
			c.PhotoURL, c.Grid = u, ""
		} else {
			c = c.WithGrid()
		}
	}
	return clipped(c)
}

// changed tells Options.OnGameChange that game g changed in this process.
func (b *Bot) changed(g *game.Game) {
	if b.onChange != nil && g != nil {
		b.onChange(g)
	}
}

// refresh redraws every board of g (boards.Editor.Refresh) and tells Options.OnGameChange.
func (b *Bot) refresh(g *game.Game) {
	b.boards.Refresh(g)
	b.changed(g)
}
