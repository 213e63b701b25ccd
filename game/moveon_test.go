package game_test

import (
	"testing"

	"github.com/reversibot/reversi/game"
)

// TestMoveOnReadGame: MoveOn plays on the game as the caller read it; when another write came
// between that read and the move, the move is applied once on the stored game and the other
// write is kept.
func TestMoveOnReadGame(t *testing.T) {
	e := newEnv(t)
	r := e.ok(e.svc.NewAIGame(e.ctx, alice, alice.ChatID, 8, 1, game.ChooseBlack))
	read, err := e.store.Game(e.ctx, r.Game.ID)
	if err != nil {
		t.Fatal(err)
	}
	// Another process records a board meanwhile: read is now one version behind.
	board := game.MessageRef{ChatID: alice.ChatID, MessageID: 77}
	if _, err := e.svc.AddBoard(e.ctx, r.Game.ID, board); err != nil {
		t.Fatal(err)
	}
	sq := firstLegal(t, r)
	moved := e.ok(e.svc.MoveOn(e.ctx, read, alice.UserID, sq, 0))
	if len(moved.Game.Moves) != 1 || moved.Game.Moves[0] != byte(sq) || moved.Reply == nil {
		t.Fatalf("MoveOn played %v, AI to move %v; want %v once", moved.Game.Moves, moved.Reply != nil, sq)
	}
	stored, err := e.store.Game(e.ctx, r.Game.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(stored.Moves) != 1 || len(stored.Boards) != 1 || stored.Boards[0] != board {
		t.Fatalf("stored game: moves %v, boards %v; want the move and the board", stored.Moves, stored.Boards)
	}
	if len(read.Moves) != 0 || len(read.Boards) != 0 {
		t.Errorf("MoveOn changed the game it was given: %+v", read)
	}
	// Checks see the game as read: the same read, a move later, is out of date.
	_, err = e.svc.MoveOn(e.ctx, read, alice.UserID, sq, 0)
	wantErr(t, "MoveOn on a read older than a move", err, game.ErrStale)
	_, err = e.svc.MoveOn(e.ctx, nil, alice.UserID, sq, 0)
	wantErr(t, "MoveOn(nil)", err, game.ErrNoGame)
}
