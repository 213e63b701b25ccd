package bot

import (
	"context"
	"strconv"
	"strings"

	"github.com/go-telegram/bot/models"

	tgbot "github.com/go-telegram/bot"

	"github.com/reversibot/reversi/bot/host"
	"github.com/reversibot/reversi/render"
	"github.com/reversibot/reversi/storage"
)

// Inline mode: an inline query offers a game of each size. The posted message carries a Join
// button whose callback names the size (Arg) and the creator ("u" + the user id in base 36, in
// Callback.Game); the lobby is opened by chosen_inline_result, or by the first tap on Join
// when inline feedback is off.

// inlineResultID names the result of a size.
func inlineResultID(size int) string { return "g" + strconv.Itoa(size) }

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
func (b *Bot) onInlineQuery(ctx context.Context, q *models.InlineQuery) error {
	if q.From == nil {
		return nil
	}
	w := b.whoIs(ctx, q.From)
	if err := b.store.TouchUser(ctx, w.id, w.name); err != nil {
		b.log.Warn("touch user", "user", w.id, "err", b.scrub(err))
	}
	sizes := append([]int(nil), host.Sizes...)
	if n, err := strconv.Atoi(strings.TrimSpace(q.Query)); err == nil {
		for i, s := range sizes {
			if s == n {
				sizes[0], sizes[i] = sizes[i], sizes[0]
			}
		}
	}
	results := make([]models.InlineQueryResult, 0, len(sizes))
	for _, n := range sizes {
		text := tr(w.lang, "inline.text", w.name, n, n)
		kb := &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{
			{button(tr(w.lang, "lobby.join"), render.Callback{Action: render.ActionJoin, Game: creatorTag(w.id), Arg: n}.Encode())},
			{button(tr(w.lang, "lobby.cancel"), render.Callback{Action: render.ActionCancel}.Encode())},
		}}
		results = append(results, &models.InlineQueryResultArticle{
			ID:                  inlineResultID(n),
			Title:               tr(w.lang, "inline.title", n),
			Description:         tr(w.lang, "inline.description", n),
			InputMessageContent: &models.InputTextMessageContent{MessageText: text},
			ReplyMarkup:         kb,
		})
	}
	return b.retry(ctx, "answerInlineQuery", func() error {
		_, err := b.tg.AnswerInlineQuery(ctx, &tgbot.AnswerInlineQueryParams{InlineQueryID: q.ID,
			Results: results, CacheTime: 1, IsPersonal: true})
		return err
	})
}

// onChosenInline opens the lobby of an inline post.
func (b *Bot) onChosenInline(ctx context.Context, r *models.ChosenInlineResult) error {
	if r.InlineMessageID == "" || !strings.HasPrefix(r.ResultID, "g") {
		return nil
	}
	size, err := strconv.Atoi(r.ResultID[1:])
	if err != nil || !b.svc.ValidSize(size) {
		return nil
	}
	w := b.whoIs(ctx, &r.From)
	_, err = b.openInline(ctx, r.InlineMessageID, w.player(0), size, w.lang)
	return err
}

// openInline opens (or finds) the lobby of an inline message and records the message as its
// board.
func (b *Bot) openInline(ctx context.Context, inlineID string, creator storage.Player, size int, lang string) (*storage.Game, error) {
	res, err := b.svc.OpenLobby(ctx, host.Lobby{Flow: storage.FlowInline, Creator: creator,
		InlineID: inlineID, Size: size, Color: host.ChooseRandom, Lang: lang})
	if err != nil {
		return nil, err
	}
	ref := storage.BoardRef{InlineID: inlineID}
	if hasBoard(res.Game, ref) {
		return res.Game, nil
	}
	return b.svc.AddBoard(ctx, res.Game.ID, ref)
}

// inlineLobby returns the game of an inline message, opening its lobby from the button's
// data when chosen_inline_result has not (inline feedback off, or not yet arrived).
func (b *Bot) inlineLobby(ctx context.Context, inlineID string, c render.Callback) (*storage.Game, error) {
	res, err := b.svc.CurrentInline(ctx, inlineID)
	if err == nil {
		return res.Game, nil
	}
	creatorID, ok := parseCreatorTag(c.Game)
	if !ok || !b.svc.ValidSize(c.Arg) {
		return nil, host.ErrNoGame
	}
	creator := storage.Player{UserID: creatorID, Name: "#" + strconv.FormatInt(creatorID, 10)}
	lang := langEN
	if p, err := b.store.Profile(ctx, creatorID); err == nil {
		if p.Name != "" {
			creator.Name = p.Name
		}
		if p.Lang != "" {
			lang = normLang(p.Lang)
		}
	}
	creator.Lang = lang
	return b.openInline(ctx, inlineID, creator, c.Arg, lang)
}
