package bot

import (
	"cmp"
	"context"
	"strconv"
	"strings"

	"github.com/go-telegram/bot/models"

	tgbot "github.com/go-telegram/bot"

	"github.com/reversibot/reversi/bot/boards"
	"github.com/reversibot/reversi/bot/botapi"
	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/bot/i18n"
	"github.com/reversibot/reversi/bot/present"
	"github.com/reversibot/reversi/game"
)

// Inline mode: an inline query offers a game of each size. The posted message carries a Join
// button whose data is a signed invitation (see invitation.go); the lobby is opened by
// chosen_inline_result, or by the first tap on Join when inline feedback is off.

// inlineMode handles inline mode: the inline queries (a game of each size to post), the
// chosen inline results (the posted lobby opened) and the invitations of the posts' Join
// buttons.
type inlineMode struct {
	*core
	play  *play           // who the user is, the results that count
	sign  callback.Signer // signs and checks the invitations of the posts' Join buttons
	links links           // the thumbnails and pictures of the results
}

// creatorTag is the Game field of an inline post's buttons before the lobby exists.
func creatorTag(user int64) string { return "u" + strconv.FormatInt(user, 36) }

// parseCreatorTag reads creatorTag.
func parseCreatorTag(s string) (int64, bool) {
	if !strings.HasPrefix(s, "u") {
		return 0, false
	}
	id, err := strconv.ParseInt(s[1:], 36, 64)
	return id, err == nil && id > 0
}

// onInlineQuery offers a game of every size, the one the query asks for first, each with the
// colour it asks for (parseInlineQuery: "10", "12 white", "16×16"; anything else offers the
// defaults), and a thumbnail of the board when the bot has a public URL. A board too big for
// a keyboard is a picture, which an inline message can show only from a URL: with a public
// URL its invitation is the picture of the starting board; without one the large sizes give
// way to a result that says why they are missing (first, when the query asked for one).
func (im *inlineMode) onInlineQuery(ctx context.Context, q *models.InlineQuery) error {
	if q.From == nil {
		return nil
	}
	w := im.play.whoIs(ctx, q.From)
	im.play.touch(ctx, w)
	want, color := parseInlineQuery(q.Query)
	sizes := append([]int(nil), game.Sizes...)
	for i, s := range sizes {
		if s == want {
			copy(sizes[1:i+1], sizes[:i])
			sizes[0] = want
		}
	}
	signer, nonce, made := im.signer(), newNonce(), im.now()
	results := make([]models.InlineQueryResult, 0, len(sizes))
	large := false // a large size left out: no picture can be shown
	for _, n := range sizes {
		picture := im.links.startPictureURL(n)
		if !present.FitsKeyboard(n) && picture == "" {
			large = true
			continue
		}
		text := present.InlineText(w.lang, w.name, n, color)
		join := invitation{creator: w.id, size: n, color: color, nonce: nonce, made: made}.callback(signer)
		kb := &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{
			{present.Button(tr(w.lang, i18n.KeyLobbyJoin), join)},
			{present.Button(tr(w.lang, i18n.KeyLobbyCancel), present.CallbackData(callback.ActionCancel, "", 0))},
		}}
		title, description := present.InlineResult(w.lang, n, color)
		if !present.FitsKeyboard(n) {
			// An inline message takes no upload: the board is a picture the bot serves, the
			// starting board's for the invitation, then each position's (package pictures).
			results = append(results, &models.InlineQueryResultPhoto{ID: inlineResultID(n, color, nonce),
				PhotoURL: picture, ThumbnailURL: cmp.Or(im.links.thumbnailURL(n), picture),
				Title: title, Description: description, Caption: text, ReplyMarkup: botapi.Markup(kb)})
			continue
		}
		res := &models.InlineQueryResultArticle{
			ID:                  inlineResultID(n, color, nonce),
			Title:               title,
			Description:         description,
			InputMessageContent: &models.InputTextMessageContent{MessageText: text},
			ReplyMarkup:         botapi.Markup(kb),
		}
		if u := im.links.thumbnailURL(n); u != "" {
			res.ThumbnailURL, res.ThumbnailWidth, res.ThumbnailHeight = u, ThumbnailSide, ThumbnailSide
		}
		results = append(results, res)
	}
	if large {
		results = append(results, &models.InlineQueryResultArticle{ID: "large",
			Title:       tr(w.lang, i18n.KeyInlineLargeTitle),
			Description: tr(w.lang, i18n.KeyInlineLargeDescription),
			InputMessageContent: &models.InputTextMessageContent{
				MessageText: tr(w.lang, i18n.KeyInlineLargeText, im.username)}})
		if want != 0 && !present.FitsKeyboard(want) { // asked for one: say why first
			last := results[len(results)-1]
			results = append([]models.InlineQueryResult{last}, results[:len(results)-1]...)
		}
	}
	return im.retry(ctx, "answerInlineQuery", func() error {
		_, err := im.tg.AnswerInlineQuery(ctx, &tgbot.AnswerInlineQueryParams{InlineQueryID: q.ID,
			Results: results, CacheTime: 1, IsPersonal: true})
		return err
	})
}

// onChosenInline opens the lobby of an inline post: Telegram tells who posted it, so no data
// needs believing. It also binds the post's invitation to the post, so that its data copied
// onto another message opens nothing there.
func (im *inlineMode) onChosenInline(ctx context.Context, r *models.ChosenInlineResult) error {
	size, color, nonce, ok := parseInlineResultID(r.ResultID)
	if r.InlineMessageID == "" || !ok || !im.svc.ValidSize(size) {
		return nil
	}
	w := im.play.whoIs(ctx, &r.From)
	im.play.touch(ctx, w)
	if nonce != 0 {
		inv := invitation{creator: w.id, size: size, color: color, nonce: nonce}
		if mine, err := im.claimInvitation(ctx, inv, r.InlineMessageID); err != nil {
			im.log.Warn("claim invitation", "user", w.id, "err", im.scrub(err))
		} else if !mine {
			im.log.Warn("invitation used on another message first", "user", w.id)
		}
	}
	search, slang, searching := im.play.searchShown(ctx, w.id)
	_, err := im.openInline(ctx, r.InlineMessageID, w.player(0), size, color, w.lang)
	if err == nil && searching {
		im.play.searchLeft(ctx, search, slang) // the post's lobby took the user out of the queue
	}
	return err
}

// openInline opens (or finds) the lobby of an inline message, its creator playing color,
// and records the message as its board.
func (im *inlineMode) openInline(ctx context.Context, inlineID string, creator game.Player, size int, color game.Choice, lang string) (*game.Game, error) {
	res, err := im.svc.OpenLobby(ctx, game.Lobby{Flow: game.FlowInline, Creator: creator,
		InlineID: inlineID, Size: size, Color: color, Lang: lang})
	if err != nil {
		return nil, err
	}
	ref := game.MessageRef{InlineID: inlineID}
	if boards.Has(res.Game, ref) {
		return res.Game, nil
	}
	return im.svc.AddBoard(ctx, res.Game.ID, ref)
}

// openInvitation opens the lobby of an inline message that has none from the data of its Join
// button (chosen_inline_result has not come: inline feedback off, or not yet arrived). The
// creator is believed only when the bot signed the data; the invitation must be fresh and
// not yet used on another message. Otherwise key names the answer and nothing is opened.
func (im *inlineMode) openInvitation(ctx context.Context, inlineID string, c callback.Data) (g *game.Game, key i18n.Key, err error) {
	inv, ok := readInvitation(im.signer(), c)
	if !ok || !im.svc.ValidSize(inv.size) {
		im.log.Warn("inline join: data not signed by the bot", "inline", inlineID)
		return nil, i18n.KeyErrBadInvitation, nil
	}
	if !inv.fresh(im.now()) {
		return nil, i18n.KeyErrInvitationExpired, nil
	}
	if mine, err := im.claimInvitation(ctx, inv, inlineID); err != nil {
		return nil, "", err
	} else if !mine {
		im.log.Warn("inline join: invitation copied from another message", "inline", inlineID, "creator", inv.creator)
		return nil, i18n.KeyErrBadInvitation, nil
	}
	creator := game.Player{UserID: inv.creator, Name: "#" + strconv.FormatInt(inv.creator, 10)}
	lang := langEN
	if p, err := im.players.Profile(ctx, inv.creator); err == nil {
		if p.Name != "" {
			creator.Name = p.Name
		}
		if p.Lang != "" {
			lang = normLang(p.Lang)
		}
	}
	creator.Lang = lang
	g, err = im.openInline(ctx, inlineID, creator, inv.size, inv.color, lang)
	return g, "", err
}
