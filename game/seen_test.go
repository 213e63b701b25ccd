package game_test

import (
	"slices"
	"testing"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
)

// undoneLine plays, in a new AI game of alice, her first legal move and the AI's reply, takes
// both back and plays another first move and the reply, one that brings the game to a position
// sharing a legal move with the first line's: the game is at the same ply on another
// position. It returns the game, the tag of the first line's position and a square legal on
// both positions (where a tap on the old board could land).
func undoneLine(e *env) (r *game.Snapshot, old uint64, sq engine.Square) {
	e.t.Helper()
	r = e.ok(e.svc.NewAIGame(e.ctx, alice, alice.ChatID, 8, 1, game.ChooseBlack))
	first := r.Pos.LegalMoves()
	r = e.ok(e.svc.MoveAt(e.ctx, r.Game.ID, alice.UserID, first[0], r.Pos.Tag()))
	r = e.ok(e.svc.AIReply(e.ctx, r.Game.ID))
	oldPos := r.Pos
	for _, m := range first[1:] {
		r = e.ok(e.svc.UndoAt(e.ctx, r.Game.ID, alice.UserID, r.Pos.Tag()))
		r = e.ok(e.svc.MoveAt(e.ctx, r.Game.ID, alice.UserID, m, r.Pos.Tag()))
		r = e.ok(e.svc.AIReply(e.ctx, r.Game.ID))
		if game.Ply(r.Game) != 2 || r.Pos == oldPos {
			e.t.Fatalf("the other line is at ply %d on %v, want ply 2 on another position than %v", game.Ply(r.Game), r.Pos, oldPos)
		}
		for _, sq := range oldPos.LegalMoves() {
			if r.Pos.IsLegal(sq) {
				return r, oldPos.Tag(), sq
			}
		}
	}
	e.t.Fatalf("no other line shares a legal move with %v", oldPos)
	return nil, 0, 0
}

// TestMoveAtTheSamePlyOfAnotherLine: after an undo and another line back to the same ply, a
// move (and an undo) made on the first line's board is stale and changes nothing, though its
// ply is current and its square legal; data that names no position is stale too. On the
// position as it is, both play.
func TestMoveAtTheSamePlyOfAnotherLine(t *testing.T) {
	e := newEnv(t)
	r, old, sq := undoneLine(e)
	id, before := r.Game.ID, slices.Clone(r.Game.Moves)
	_, err := e.svc.MoveAt(e.ctx, id, alice.UserID, sq, old)
	wantErr(t, "a move on the undone line's board", err, game.ErrStale)
	_, err = e.svc.MoveOnAt(e.ctx, r.Game, alice.UserID, sq, old)
	wantErr(t, "MoveOnAt on the undone line's board", err, game.ErrStale)
	_, err = e.svc.MoveAt(e.ctx, id, alice.UserID, sq, 0)
	wantErr(t, "a move naming no position", err, game.ErrStale)
	_, err = e.svc.UndoAt(e.ctx, id, alice.UserID, old)
	wantErr(t, "an undo on the undone line's board", err, game.ErrStale)
	_, err = e.svc.UndoAt(e.ctx, id, alice.UserID, 0)
	wantErr(t, "an undo naming no position", err, game.ErrStale)
	// Who may move is checked first, as for Move.
	_, err = e.svc.MoveAt(e.ctx, id, bob.UserID, sq, old)
	wantErr(t, "a stranger's move", err, game.ErrNotYourGame)
	if g := e.ok(e.svc.Game(e.ctx, id)); !slices.Equal(g.Game.Moves, before) || g.Reply != nil {
		t.Fatalf("refused steps changed the game: moves %x, want %x", g.Game.Moves, before)
	}

	tag, err := game.PosTag(r.Game)
	if err != nil || tag != r.Pos.Tag() {
		t.Fatalf("PosTag = %d, %v, want the position's tag %d", tag, err, r.Pos.Tag())
	}
	r = e.ok(e.svc.MoveAt(e.ctx, id, alice.UserID, sq, tag))
	if game.Ply(r.Game) != 3 || engine.Square(r.Game.Moves[2]) != sq {
		t.Fatalf("the current move was not played: moves %x", r.Game.Moves)
	}
	r = e.ok(e.svc.AIReply(e.ctx, id))
	if r = e.ok(e.svc.UndoAt(e.ctx, id, alice.UserID, r.Pos.Tag())); !slices.Equal(r.Game.Moves, before) {
		t.Fatalf("the current undo left %x, want %x", r.Game.Moves, before)
	}
}

// TestLost: a board drawn from a version above the stored game's shows writes the store lost;
// one drawn from the stored version or an older one, or naming none (0), does not.
func TestLost(t *testing.T) {
	g := &game.Game{Version: 7}
	for _, tc := range []struct {
		drawn int64
		want  bool
	}{{0, false}, {-1, false}, {1, false}, {6, false}, {7, false}, {8, true}, {1 << 40, true}} {
		if got := game.Lost(g, tc.drawn); got != tc.want {
			t.Errorf("Lost(version 7, drawn %d) = %v, want %v", tc.drawn, got, tc.want)
		}
	}
	if game.Lost(nil, 8) {
		t.Error("Lost(nil, 8) = true, want false")
	}
}
