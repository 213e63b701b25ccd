package telegram

import (
	"context"
	"time"

	tgbot "github.com/go-telegram/bot"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/telegram/present"
)

// Turn notices. In a game between people whose boards are in their private chats (by
// invitation or matchmaking) every move only edits the boards, and Telegram does not notify
// anyone of an edit: a player could miss that it is their move for a day. So after each move
// the player to move gets a short message with the opponent's move ("Alice played d3. Your
// move."), and after the last move or a resignation the other player is told the game is
// over. Each notice replaces the player's previous one (game.Players.SwapTurnNotice, then
// deleteMessage), so a chat never fills with them; nothing tells a player of their own move.
// Notices are sent after the step, outside its handler, paced as infos: they never delay a
// board.

// turnNoticeTimeout bounds sending one notice and deleting the one it replaces.
const turnNoticeTimeout = 30 * time.Second

// noticeTurn tells the player the step res concerns, if any (see above); by is the user who
// made the step (0: the AI).
func (pl *play) noticeTurn(res *game.Snapshot, by int64) {
	g := res.Game
	if g == nil || g.Flow != game.FlowInvite && g.Flow != game.FlowMatch {
		return
	}
	to, text := present.TurnNotice(res, by)
	if to < 0 {
		return
	}
	p := g.Players[to]
	if p.ChatID == 0 || p.UserID == 0 {
		return
	}
	pl.bot.goAfter(turnNoticeTimeout, func(ctx context.Context) {
		pl.sendNotice(ctx, g.ID, p, text(normLang(p.Lang)))
	})
}

// sendNotice sends text to player p's private chat as their newest notice of game id and
// deletes the one it replaces. Failures are logged: a notice is a courtesy, the board is the
// game.
func (pl *play) sendNotice(ctx context.Context, id string, p game.Player, text string) {
	msg, err := pl.bot.sendText(ctx, p.ChatID, text, nil)
	if err != nil {
		pl.bot.log.Warn("turn notice", "game", id, "user", p.UserID, "err", pl.bot.scrub(err))
		return
	}
	prev, err := pl.bot.players.SwapTurnNotice(ctx, p.UserID, msg.ID)
	if err != nil {
		pl.bot.log.Warn("turn notice", "game", id, "user", p.UserID, "err", pl.bot.scrub(err))
		return
	}
	if prev == 0 || prev == msg.ID {
		return
	}
	if _, err := pl.bot.api.DeleteMessage(ctx, &tgbot.DeleteMessageParams{ChatID: p.ChatID, MessageID: prev}); err != nil {
		pl.bot.log.Info("turn notice: delete the previous", "game", id, "user", p.UserID, "err", pl.bot.scrub(err))
	}
}
