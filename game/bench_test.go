package game_test

import (
	"testing"

	"github.com/reversibot/reversi/game"
)

// BenchmarkMove measures one human move between people on 8×8 (read, replay, check, CAS),
// starting a new game whenever one ends. Run it against a real Redis with REDIS_URL set.
func BenchmarkMove(b *testing.B) {
	e := newEnv(b)
	var r *game.Snapshot
	newGame := func() {
		l := e.ok(e.svc.OpenLobby(e.ctx, game.Lobby{Flow: game.FlowInvite, Creator: alice, Size: 8, Color: game.ChooseBlack}))
		r = e.ok(e.svc.Join(e.ctx, l.Game.ID, bob))
	}
	newGame()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if r.End != nil {
			newGame()
		}
		_, p, _ := r.Turn()
		r = e.ok(e.svc.Move(e.ctx, r.Game.ID, p.UserID, r.Pos.Moves().First(), game.Ply(r.Game)))
	}
}

// BenchmarkMoveAndAIReply measures a human move plus the AI's reply through the pool with a
// trivial mover: the hosting cost of one exchange against the AI, without the search.
func BenchmarkMoveAndAIReply(b *testing.B) {
	e := newEnv(b)
	chat := int64(1)
	var r *game.Snapshot
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if r == nil || r.End != nil {
			chat++
			r = e.ok(e.svc.NewAIGame(e.ctx, game.Player{UserID: chat, ChatID: chat}, chat, 8, 1, game.ChooseBlack))
		}
		r = e.ok(e.svc.Move(e.ctx, r.Game.ID, chat, r.Pos.Moves().First(), game.Ply(r.Game)))
		if r.Reply != nil {
			r = e.ok(r.Reply.Wait(e.ctx))
		}
	}
}
