package telegram

import (
	"context"
	"strconv"
	"strings"

	"github.com/go-telegram/bot/models"

	tgbot "github.com/go-telegram/bot"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/render"
	"github.com/reversibot/reversi/telegram/boards"
	"github.com/reversibot/reversi/telegram/i18n"
	"github.com/reversibot/reversi/telegram/present"
)

// Inline mode: an inline query offers a game of each size. The posted message carries a Join
// button whose data is a signed invitation (see invitation.go); the lobby is opened by
// chosen_inline_result, or by the first tap on Join when inline feedback is off.

// inlineMode handles inline mode: the inline queries (a game of each size to post), the
// chosen inline results (the posted lobby opened) and the invitations of the posts' Join
// buttons.
type inlineMode struct {
	bot  *Bot  // the clients, the Service and the signing key
	play *play // who the user is, the results that count
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

// onInlineQuery offers a game of every size (a size typed in the query comes first).
func (im *inlineMode) onInlineQuery(ctx context.Context, q *models.InlineQuery) error {
	if q.From == nil {
		return nil
	}
	w := im.play.whoIs(ctx, q.From)
	im.play.touch(ctx, w)
	sizes := append([]int(nil), game.Sizes...)
	if n, err := strconv.Atoi(strings.TrimSpace(q.Query)); err == nil {
		for i, s := range sizes {
			if s == n {
				sizes[0], sizes[i] = sizes[i], sizes[0]
			}
		}
	}
	signer, nonce, made := im.signer(), newNonce(), im.bot.now()
	results := make([]models.InlineQueryResult, 0, len(sizes))
	for _, n := range sizes {
		text := tr(w.lang, i18n.KeyInlineText, w.name, n, n)
		join := invitation{creator: w.id, size: n, nonce: nonce, made: made}.callback(signer)
		kb := &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{
			{present.Button(tr(w.lang, i18n.KeyLobbyJoin), join)},
			{present.Button(tr(w.lang, i18n.KeyLobbyCancel), present.CallbackData(render.ActionCancel, "", 0))},
		}}
		results = append(results, &models.InlineQueryResultArticle{
			ID:                  inlineResultID(n, nonce),
			Title:               tr(w.lang, i18n.KeyInlineTitle, n),
			Description:         tr(w.lang, i18n.KeyInlineDescription, n),
			InputMessageContent: &models.InputTextMessageContent{MessageText: text},
			ReplyMarkup:         kb,
		})
	}
	return im.bot.retry(ctx, "answerInlineQuery", func() error {
		_, err := im.bot.tg.AnswerInlineQuery(ctx, &tgbot.AnswerInlineQueryParams{InlineQueryID: q.ID,
			Results: results, CacheTime: 1, IsPersonal: true})
		return err
	})
}

// onChosenInline opens the lobby of an inline post: Telegram tells who posted it, so no data
// needs believing. It also binds the post's invitation to the post, so that its data copied
// onto another message opens nothing there.
func (im *inlineMode) onChosenInline(ctx context.Context, r *models.ChosenInlineResult) error {
	size, nonce, ok := parseInlineResultID(r.ResultID)
	if r.InlineMessageID == "" || !ok || !im.bot.svc.ValidSize(size) {
		return nil
	}
	w := im.play.whoIs(ctx, &r.From)
	im.play.touch(ctx, w)
	if nonce != 0 {
		inv := invitation{creator: w.id, size: size, nonce: nonce}
		if mine, err := im.claimInvitation(ctx, inv, r.InlineMessageID); err != nil {
			im.bot.log.Warn("claim invitation", "user", w.id, "err", im.bot.scrub(err))
		} else if !mine {
			im.bot.log.Warn("invitation used on another message first", "user", w.id)
		}
	}
	_, err := im.openInline(ctx, r.InlineMessageID, w.player(0), size, w.lang)
	return err
}

// openInline opens (or finds) the lobby of an inline message and records the message as its
// board.
func (im *inlineMode) openInline(ctx context.Context, inlineID string, creator game.Player, size int, lang string) (*game.Game, error) {
	res, err := im.bot.svc.OpenLobby(ctx, game.Lobby{Flow: game.FlowInline, Creator: creator,
		InlineID: inlineID, Size: size, Color: game.ChooseRandom, Lang: lang})
	if err != nil {
		return nil, err
	}
	ref := game.MessageRef{InlineID: inlineID}
	if boards.Has(res.Game, ref) {
		return res.Game, nil
	}
	return im.bot.svc.AddBoard(ctx, res.Game.ID, ref)
}

// openInvitation opens the lobby of an inline message that has none from the data of its Join
// button (chosen_inline_result has not come: inline feedback off, or not yet arrived). The
// creator is believed only when the bot signed the data; the invitation must be fresh and
// not yet used on another message. Otherwise key names the answer and nothing is opened.
func (im *inlineMode) openInvitation(ctx context.Context, inlineID string, c render.Callback) (g *game.Game, key i18n.Key, err error) {
	inv, ok := readInvitation(im.signer(), c)
	if !ok || !im.bot.svc.ValidSize(inv.size) {
		im.bot.log.Warn("inline join: data not signed by the bot", "inline", inlineID)
		return nil, i18n.KeyErrBadInvitation, nil
	}
	if !inv.fresh(im.bot.now()) {
		return nil, i18n.KeyErrInvitationExpired, nil
	}
	if mine, err := im.claimInvitation(ctx, inv, inlineID); err != nil {
		return nil, "", err
	} else if !mine {
		im.bot.log.Warn("inline join: invitation copied from another message", "inline", inlineID, "creator", inv.creator)
		return nil, i18n.KeyErrBadInvitation, nil
	}
	creator := game.Player{UserID: inv.creator, Name: "#" + strconv.FormatInt(inv.creator, 10)}
	lang := langEN
	if p, err := im.bot.players.Profile(ctx, inv.creator); err == nil {
		if p.Name != "" {
			creator.Name = p.Name
		}
		if p.Lang != "" {
			lang = normLang(p.Lang)
		}
	}
	creator.Lang = lang
	g, err = im.openInline(ctx, inlineID, creator, inv.size, lang)
	return g, "", err
}
