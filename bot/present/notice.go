package present

import (
	"github.com/reversibot/reversi/bot/i18n"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
)

// TurnNotice returns whom of res.Game's players (0 black, 1 white; -1: nobody) the step res,
// made by the user by, concerns and the notice's text in a language: after a move, the player
// to move, unless it is the one who moved (the other had to pass); after the game's last move
// or a resignation, the player who did not make it; after a resignation or claim that aborted
// the game (before each player had moved), the player who did not end it. These are the
// notices of games whose boards are in the players' private chats (invitation, matchmaking),
// where a board's edit notifies nobody.
func TurnNotice(res *game.Snapshot, by int64) (int, func(lang string) string) {
	g := res.Game
	if res.End != nil && g.Aborted() && len(res.Played) == 0 {
		side := game.Side(g, by)
		if side < 0 || g.Players[1-side].UserID == 0 {
			return -1, nil
		}
		name := g.Players[side].Name
		return 1 - side, func(lang string) string { return tr(lang, i18n.KeyNoticeAborted, name) }
	}
	if res.End != nil && res.End.Reason == game.EndResign && len(res.Played) == 0 {
		if res.End.Winner < 0 {
			return -1, nil
		}
		loser := g.Players[1-res.End.Winner].Name
		return res.End.Winner, func(lang string) string { return tr(lang, i18n.KeyNoticeResigned, loser) }
	}
	last, ok := lastPersonMove(res.Played)
	if !ok {
		return -1, nil
	}
	mover := game.Side(g, last.UserID)
	if mover < 0 {
		return -1, nil
	}
	name, sq := g.Players[mover].Name, last.Square.String()
	if res.End != nil {
		return 1 - mover, func(lang string) string { return tr(lang, i18n.KeyNoticeGameOver, name, sq) }
	}
	c, p, ok := res.Turn()
	if !ok || p.UserID == 0 || p.UserID == last.UserID {
		return -1, nil
	}
	return int(c), func(lang string) string { return tr(lang, i18n.KeyNoticeYourMove, name, sq) }
}

// lastPersonMove is the last move of played that a person made (not a pass, not the AI's).
func lastPersonMove(played []game.Played) (game.Played, bool) {
	for i := len(played) - 1; i >= 0; i-- {
		if p := played[i]; p.Square != engine.Pass && p.UserID != 0 {
			return p, true
		}
	}
	return game.Played{}, false
}

// OfferNotice is the notice to a player offered a rematch by the player named by, whose
// board shows the offer only by an edit.
func OfferNotice(lang, by string) string { return tr(lang, i18n.KeyEndOfferNotice, by) }
