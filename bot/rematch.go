package bot

import (
	"context"

	"github.com/reversibot/reversi/bot/present"
	"github.com/reversibot/reversi/game"
)

// noticeOffer tells the player offered a rematch in a game whose boards are in the players'
// private chats (invitation, matchmaking) that the offer stands: their board shows it, but
// only by an edit, of which Telegram notifies nobody. The notice is a turn notice (it
// replaces the player's previous one, see sendNotice) and goes out after the step, outside
// its handler, if the offer still stands then. Nothing is sent for an offer in a group or an
// inline post, whose one message both players look at.
func (pl *play) noticeOffer(g *game.Game) {
	if g == nil || g.Flow != game.FlowInvite && g.Flow != game.FlowMatch || g.Rematch != game.RematchOffered {
		return
	}
	by := game.Side(g, g.RematchBy)
	if by < 0 {
		return
	}
	p, name := g.Players[1-by], g.Players[by].Name
	if p.ChatID == 0 || p.UserID == 0 {
		return
	}
	offer := func(now *game.Game) bool { return now.Rematch == game.RematchOffered && now.RematchBy == g.RematchBy }
	pl.after.goAfter(workNotice, turnNoticeTimeout, func(ctx context.Context) {
		pl.sendNotice(ctx, g.ID, p, game.TurnNotice{}, offer, present.OfferNotice(normLang(p.Lang), name))
	})
}
