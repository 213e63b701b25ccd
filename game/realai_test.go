package game_test

import (
	"testing"

	"github.com/reversibot/reversi/engine/ai"
	"github.com/reversibot/reversi/game"
)

// A whole 6×6 game against the real AI (ai.Player) at level 1 (45 ms a move at most), with hints.
func TestRealAI(t *testing.T) {
	e := newEnv(t)
	svc := game.New(game.Config{Store: e.store, Mover: ai.NewPlayer(7), AllowSmall: true})
	defer svc.Close()
	e.svc = svc
	r := e.ok(svc.NewAIGame(e.ctx, alice, alice.ChatID, 6, 1, game.ChooseBlack))
	sq, err := svc.Hint(e.ctx, r.Game.ID, alice.UserID)
	if err != nil || !r.Pos.IsLegal(sq) {
		t.Fatalf("Hint = %v, %v; want a legal move", sq, err)
	}
	r, _ = playAI(t, e, r, alice.UserID)
	t.Logf("6x6 against level 1: %d-%d (%s)", r.End.Black, r.End.White, r.End.Record)
}
