package bot

import (
	"context"
	"time"

	tgbot "github.com/go-telegram/bot"

	"github.com/reversibot/reversi/bot/botapi"
	"github.com/reversibot/reversi/bot/present"
	"github.com/reversibot/reversi/game"
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
//
// A notice says only what is still true. It waits for its chat's budget first and reads the
// game only then, as it leaves the queue: one that a step since made false (the player moved
// meanwhile, or the game ended) is not sent. And the record of a player's newest notice keeps
// what a "your move" notice claimed (game.TurnNotice: the game, its version and how many
// moves it had), so that the next step of the game takes it back (deleteMessage) once it is
// false: no "Your move" stays under a board that says it is the opponent's. Of the step and
// a notice sent at the same moment, one sees the other (the step is stored before it reads
// the record, the record before the notice reads the game again), and only the one that
// drops the record (DropTurnNotice) deletes the message.

// turnNoticeTimeout bounds sending one notice and deleting the one it replaces.
const turnNoticeTimeout = 30 * time.Second

// noticeTurn tells the player the step res concerns, if any (see above), and takes back the
// notices of the game that the step made false; by is the user who made the step (0: the AI).
func (pl *play) noticeTurn(res *game.Snapshot, by int64) {
	g := res.Game
	if g == nil || g.Flow != game.FlowInvite && g.Flow != game.FlowMatch {
		return
	}
	pl.after.goAfter(workNotice, turnNoticeTimeout, func(ctx context.Context) {
		for _, p := range g.Players {
			pl.takeBackNotice(ctx, p, g)
		}
	})
	to, text := present.TurnNotice(res, by)
	if to < 0 {
		return
	}
	p := g.Players[to]
	if p.ChatID == 0 || p.UserID == 0 {
		return
	}
	claim := game.TurnNotice{} // the game is over: that stays true
	if res.End == nil {
		claim = game.TurnNotice{GameID: g.ID, Version: g.Version, Moves: len(g.Moves)}
	}
	pl.after.goAfter(workNotice, turnNoticeTimeout, func(ctx context.Context) {
		pl.sendNotice(ctx, g.ID, p, claim, func(now *game.Game) bool { return !claim.Stale(now) },
			text(normLang(p.Lang)))
	})
}

// sendNotice sends text to player p's private chat as their newest notice of game id, once
// the chat's budget has room and only if holds says the game as it is then still bears it
// out, and deletes the notice it replaces. claim (its MessageID aside) is what the record of
// the notice keeps for later steps to check; once recorded, the notice is taken back at once
// should a step that came meanwhile have made it false. Failures are logged: a notice is a
// courtesy, the board is the game.
func (pl *play) sendNotice(ctx context.Context, id string, p game.Player, claim game.TurnNotice,
	holds func(*game.Game) bool, text string) {
	ctx, giveBack, ok := pl.paceNotice(ctx, p.ChatID)
	if !ok {
		return
	}
	defer giveBack()
	res, err := pl.svc.Game(ctx, id)
	if err != nil {
		pl.log.Warn("turn notice: read the game", "game", id, "user", p.UserID, "err", pl.scrub(err))
		return
	}
	if !holds(res.Game) {
		pl.log.Debug("turn notice no longer true", "game", id, "user", p.UserID, "version", res.Game.Version)
		return
	}
	msg, err := pl.sendText(ctx, p.ChatID, text, nil)
	if err != nil {
		pl.log.Warn("turn notice", "game", id, "user", p.UserID, "err", pl.scrub(err))
		return
	}
	claim.MessageID = msg.ID
	prev, err := pl.players.SwapTurnNotice(ctx, p.UserID, claim)
	if err != nil {
		pl.log.Warn("turn notice", "game", id, "user", p.UserID, "err", pl.scrub(err))
		return
	}
	if prev.MessageID != 0 && prev.MessageID != msg.ID {
		pl.deleteNotice(ctx, p, prev.MessageID, "delete the previous")
	}
	if claim.GameID == "" {
		return
	}
	if res, err = pl.svc.Game(ctx, id); err == nil && claim.Stale(res.Game) {
		pl.dropNotice(ctx, p, claim)
	}
}

// paceNotice waits for the budget of chat for an info and returns ctx carrying the unit it
// was given (Pacer.Paid), so that the notice is checked after the wait and sent without
// another, and giveBack, which the caller calls when done (the unit goes back if no notice was
// sent); ok is false when ctx ended first. Without pacing, or when the budgets cannot be
// reached, it returns ctx as it is (the client then paces the send itself, or a 429 guards it).
func (pl *play) paceNotice(ctx context.Context, chat int64) (_ context.Context, giveBack func(), ok bool) {
	if pl.pacer == nil {
		return ctx, func() {}, true
	}
	key := botapi.ChatOf(chat)
	if _, err := pl.pacer.Wait(ctx, key, botapi.PaceInfo); err != nil {
		if ctx.Err() != nil {
			return ctx, func() {}, false
		}
		pl.log.Warn("turn notice: pace", "chat", chat, "err", pl.scrub(err))
		return ctx, func() {}, true
	}
	paid, giveBack := pl.pacer.Paid(ctx, key)
	return paid, giveBack, true
}

// takeBackNotice deletes player p's newest notice if g, a later state of its game, made it
// false.
func (pl *play) takeBackNotice(ctx context.Context, p game.Player, g *game.Game) {
	if p.UserID == 0 || p.ChatID == 0 {
		return
	}
	n, err := pl.players.NewestTurnNotice(ctx, p.UserID)
	if err != nil {
		pl.log.Warn("turn notice: read", "game", g.ID, "user", p.UserID, "err", pl.scrub(err))
		return
	}
	if n.Stale(g) {
		pl.dropNotice(ctx, p, n)
	}
}

// dropNotice forgets n as player p's newest notice and deletes its message, unless another
// step or notice has dropped or replaced it first (that one deletes it).
func (pl *play) dropNotice(ctx context.Context, p game.Player, n game.TurnNotice) {
	ok, err := pl.players.DropTurnNotice(ctx, p.UserID, n)
	if err != nil {
		pl.log.Warn("turn notice: drop", "game", n.GameID, "user", p.UserID, "err", pl.scrub(err))
		return
	}
	if ok {
		pl.deleteNotice(ctx, p, n.MessageID, "take back")
	}
}

// deleteNotice deletes the notice msg in player p's private chat; a failure (a notice older
// than Telegram lets a bot delete, one the player deleted) is logged.
func (pl *play) deleteNotice(ctx context.Context, p game.Player, msg int, why string) {
	if _, err := pl.api.DeleteMessage(ctx, &tgbot.DeleteMessageParams{ChatID: p.ChatID, MessageID: msg}); err != nil {
		pl.log.Info("turn notice: "+why, "user", p.UserID, "err", pl.scrub(err))
	}
}
