package present_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/reversibot/reversi/bot/i18n"
	"github.com/reversibot/reversi/bot/present"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
)

// TestGoldenNotices shows the notices of a game by invitation in both languages, with whom
// each goes to: the opponent's move, the last move, a resignation, an aborted game, a rematch
// offer; and that a player's own move and a step of the AI tell nobody.
func TestGoldenNotices(t *testing.T) {
	for _, lang := range i18n.Langs() {
		invite := func(moves []byte) *game.Game {
			g := people(8, moves, lang)
			g.Flow, g.ChatID = game.FlowInvite, 0
			return g
		}
		step := func(g *game.Game, by int64, end *game.End) *game.Snapshot {
			eg, err := present.Replay(g)
			if err != nil {
				t.Fatal(err)
			}
			res := &game.Snapshot{Game: g, Pos: eg.Position(), End: end}
			if n := len(g.Moves); n > 0 && by != 0 {
				res.Played = []game.Played{{Square: engine.Square(g.Moves[n-1]), UserID: by}}
			}
			return res
		}
		moves := play(t, 8, 3)
		over := invite(moves)
		over.Status, over.Outcome, over.Reason = game.StatusFinished, game.OutcomeWhite, game.EndResign
		aborted := invite(moves[:1])
		aborted.Status, aborted.Reason = game.StatusFinished, game.EndAbandoned
		for _, c := range []struct {
			name string
			res  *game.Snapshot
			by   int64
		}{
			{"your_move", step(invite(moves), 1, nil), 1}, // Alice (black) played the third move
			{"game_over", step(over, 1, &game.End{Reason: game.EndNormal, Winner: 0}), 1},
			{"resigned", &game.Snapshot{Game: over, End: &game.End{Reason: game.EndResign, Winner: 1}}, 1},
			{"aborted", &game.Snapshot{Game: aborted, End: &game.End{Reason: game.EndAbandoned, Winner: -1}}, 2},
		} {
			to, text := present.TurnNotice(c.res, c.by)
			if to < 0 {
				t.Fatalf("%s: no notice", c.name)
			}
			golden(t, "notice_"+c.name+"_"+lang, fmt.Sprintf("to: %s\n%s\n", c.res.Game.Players[to].Name, text(lang)))
		}
		golden(t, "notice_offer_"+lang, present.OfferNotice(lang, "Bob")+"\n")
		// The mover's own move and the AI's reply tell nobody.
		ownTurn := step(invite(moves[:2]), 2, nil) // Bob played; Alice to move
		if to, _ := present.TurnNotice(ownTurn, 2); to != 0 {
			t.Errorf("Bob's move notifies player %d, want Alice (0)", to)
		}
		ai := vsAI(8, 2, moves, lang)
		if to, text := present.TurnNotice(step(ai, 0, nil), 0); to >= 0 {
			t.Errorf("an AI step notifies player %d: %q", to, text(lang))
		}
		if to, _ := present.TurnNotice(&game.Snapshot{Game: aborted, End: &game.End{Reason: game.EndAbandoned, Winner: -1}}, 3); to >= 0 {
			t.Errorf("a step by a stranger notifies player %d", to)
		}
	}
	if got := present.OfferNotice(i18n.RU, "Боб"); !strings.Contains(got, "Боб") {
		t.Errorf("the offer notice %q does not name who offers", got)
	}
}
