package game_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
)

// playAI plays the user's side with the lowest legal move until the game ends, calling AIReply
// whenever the AI owes a move, and returns the final Result and the passes reported. pick
// chooses the user's move from the legal ones (nil: the lowest).
func playAI(t *testing.T, e *env, r *game.Snapshot, user int64, pick ...func([]engine.Square) engine.Square) (*game.Snapshot, int) {
	t.Helper()
	passes := 0
	for steps := 0; r.End == nil; steps++ {
		if steps > 600 {
			t.Fatal("game does not end")
		}
		checkConsistent(t, r)
		if r.Reply != nil {
			r = e.ok(r.Reply.Wait(e.ctx))
			if len(r.Played) == 0 || r.Played[0].UserID != 0 {
				t.Fatalf("AIReply played %+v, want an AI move first", r.Played)
			}
		} else {
			c, p, ok := r.Turn()
			if !ok || p.UserID != user {
				t.Fatalf("Turn() = %v, %+v, %v; want the user to move", c, p, ok)
			}
			sq := firstLegal(t, r)
			if len(pick) > 0 {
				sq = pick[0](r.Pos.LegalMoves())
			}
			ply := game.Ply(r.Game)
			r = e.ok(e.svc.Move(e.ctx, r.Game.ID, user, sq, ply))
			if r.Played[0].Square != sq || game.Ply(r.Game) != ply+1 {
				t.Fatalf("Move(%v) played %+v, ply %d", sq, r.Played, game.Ply(r.Game))
			}
		}
		for i, p := range r.Played {
			if p.Square == engine.Pass {
				passes++
				if i == 0 || r.Played[i-1].Color == p.Color {
					t.Fatalf("pass %d of %+v does not follow the opponent's move", i, r.Played)
				}
			}
		}
	}
	checkConsistent(t, r)
	return r, passes
}

func TestAIGameToTheEnd(t *testing.T) {
	for _, tc := range []struct {
		size  int
		color game.Choice
	}{{4, game.ChooseBlack}, {4, game.ChooseWhite}, {6, game.ChooseBlack}, {6, game.ChooseWhite}, {8, game.ChooseBlack}, {8, game.ChooseWhite}} {
		t.Run(fmt.Sprintf("%dx%d-%d", tc.size, tc.size, tc.color), func(t *testing.T) {
			e := newEnv(t)
			r := e.ok(e.svc.NewAIGame(e.ctx, alice, alice.ChatID, tc.size, 2, tc.color))
			if aiFirst := r.Reply != nil; aiFirst != (tc.color == game.ChooseWhite) {
				t.Fatalf("AI to move = %v with the user on %v", aiFirst, tc.color)
			}
			if got := r.Game.Players[tc.color].UserID; got != alice.UserID {
				t.Fatalf("Players[%d] = %d, want Alice", tc.color, got)
			}
			cur := e.ok(e.svc.Current(e.ctx, alice.ChatID))
			if cur.Game.ID != r.Game.ID {
				t.Fatalf("Current = %s, want %s", cur.Game.ID, r.Game.ID)
			}
			r, passes := playAI(t, e, r, alice.UserID)
			b, w := r.Score()
			if b != r.End.Black || w != r.End.White {
				t.Fatalf("End score %d-%d, Score %d-%d", r.End.Black, r.End.White, b, w)
			}
			if want := map[engine.Outcome]game.Outcome{engine.BlackWins: game.OutcomeBlack,
				engine.WhiteWins: game.OutcomeWhite, engine.Draw: game.OutcomeDraw}[engine.OutcomeOf(b, w)]; r.End.Outcome != want {
				t.Fatalf("outcome %v with %d-%d", r.End.Outcome, b, w)
			}
			if r.End.Reason != game.EndNormal || r.Game.Status != game.StatusFinished {
				t.Fatalf("ended %v/%v", r.End.Reason, r.Game.Status)
			}
			if eg, err := engine.ReplayRecord(tc.size, r.End.Record); err != nil || !eg.Over() {
				t.Fatalf("record %q does not replay to the end: %v", r.End.Record, err)
			}
			t.Logf("%dx%d: %d-%d, %d passes, record %s", tc.size, tc.size, b, w, passes, r.End.Record)
			// The result counts once, in the record against level 2.
			if err := e.svc.Settle(e.ctx, r.Game.ID); err != nil {
				t.Fatalf("Settle: %v", err)
			}
			prof := e.profile(alice.UserID)
			rec := prof.Stats.VsAI[2]
			if rec.Wins+rec.Losses+rec.Draws != 1 {
				t.Fatalf("record vs level 2 = %+v, want one game", rec)
			}
			// The chat is free again; the game can still be read by its ID.
			_, err := e.svc.Current(e.ctx, alice.ChatID)
			wantErr(t, "Current after the end", err, game.ErrNoGame)
			_, err = e.svc.Move(e.ctx, r.Game.ID, alice.UserID, engine.SquareAt(0, 0), game.AnyPly)
			wantErr(t, "Move after the end", err, game.ErrGameOver)
			again := e.ok(e.svc.AIReply(e.ctx, r.Game.ID))
			if len(again.Played) != 0 || again.Reply != nil {
				t.Fatalf("AIReply after the end played %+v", again.Played)
			}
		})
	}
}

// On 4×4 with the user playing the middle legal move and the AI the lowest, both sides pass
// during the game (found by playing it out with the engine). Every reported pass must stand
// where that side had no move, which checkConsistent proves by replaying after each step.
func TestPassesAreReported(t *testing.T) {
	e := newEnv(t)
	total := 0
	middle := func(ms []engine.Square) engine.Square { return ms[len(ms)/2] }
	for _, c := range []game.Choice{game.ChooseBlack, game.ChooseWhite} {
		r := e.ok(e.svc.NewAIGame(e.ctx, alice, alice.ChatID, 4, 1, c))
		end, n := playAI(t, e, r, alice.UserID, middle)
		t.Logf("user on %d: %s, %d passes", c, end.End.Record, n)
		total += n
	}
	if total == 0 {
		t.Fatal("no game had a pass; the test proves nothing")
	}
}

func TestAIReplyIsIdempotent(t *testing.T) {
	e := newEnv(t)
	r := e.ok(e.svc.NewAIGame(e.ctx, alice, alice.ChatID, 8, 3, game.ChooseWhite))
	results := make(chan *game.Snapshot, 4)
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			r, err := e.svc.AIReply(e.ctx, r.Game.ID)
			results <- r
			errs <- err
		}()
	}
	moved := 0
	for range 4 {
		if r := <-results; r != nil && len(r.Played) > 0 {
			moved++
		}
		if err := <-errs; err != nil && !errors.Is(err, game.ErrConflict) {
			t.Fatalf("AIReply: %v", err)
		}
	}
	g := e.ok(e.svc.Game(e.ctx, r.Game.ID))
	if moved != 1 || len(g.Game.Moves) != 1 || g.Reply != nil {
		t.Fatalf("%d AIReply calls moved, %d moves stored, AI to move %v; want exactly one", moved, len(g.Game.Moves), g.Reply != nil)
	}
}

func TestUndo(t *testing.T) {
	e := newEnv(t)
	r := e.ok(e.svc.NewAIGame(e.ctx, alice, alice.ChatID, 8, 1, game.ChooseBlack))
	_, err := e.svc.Undo(e.ctx, r.Game.ID, alice.UserID, game.AnyPly)
	wantErr(t, "Undo at the start", err, game.ErrNothingToUndo)

	var history [][]byte
	for range 3 {
		history = append(history, append([]byte(nil), r.Game.Moves...))
		r = e.ok(e.svc.Move(e.ctx, r.Game.ID, alice.UserID, firstLegal(t, r), game.Ply(r.Game)))
		r = e.ok(e.svc.AIReply(e.ctx, r.Game.ID))
	}
	_, err = e.svc.Undo(e.ctx, r.Game.ID, bob.UserID, game.AnyPly)
	wantErr(t, "Undo by a spectator", err, game.ErrNotYourGame)
	_, err = e.svc.Undo(e.ctx, r.Game.ID, alice.UserID, game.Ply(r.Game)-1)
	wantErr(t, "Undo on an old board", err, game.ErrStale)

	for i := len(history) - 1; i >= 0; i-- {
		ply := game.Ply(r.Game)
		r = e.ok(e.svc.Undo(e.ctx, r.Game.ID, alice.UserID, ply))
		if string(r.Game.Moves) != string(history[i]) || r.Undone != ply-len(history[i]) {
			t.Fatalf("after undo %d: moves %x (undone %d), want %x", i, r.Game.Moves, r.Undone, history[i])
		}
		if _, p, ok := r.Turn(); !ok || p.UserID != alice.UserID || r.Reply != nil {
			t.Fatalf("after undo it is not Alice's turn")
		}
		checkConsistent(t, r)
	}
	_, err = e.svc.Undo(e.ctx, r.Game.ID, alice.UserID, game.AnyPly)
	wantErr(t, "Undo past the start", err, game.ErrNothingToUndo)

	// With the AI on black, the AI's first move stays.
	e2 := newEnv(t)
	r = e2.ok(e2.svc.NewAIGame(e2.ctx, alice, alice.ChatID, 8, 1, game.ChooseWhite))
	r = e2.ok(e2.svc.AIReply(e2.ctx, r.Game.ID))
	first := r.Game.Moves[0]
	r = e2.ok(e2.svc.Move(e2.ctx, r.Game.ID, alice.UserID, firstLegal(t, r), game.AnyPly))
	// Undo before the AI replied takes back only Alice's move.
	r = e2.ok(e2.svc.Undo(e2.ctx, r.Game.ID, alice.UserID, game.AnyPly))
	if len(r.Game.Moves) != 1 || r.Game.Moves[0] != first || r.Undone != 1 {
		t.Fatalf("undo with the AI on black left %x, undone %d", r.Game.Moves, r.Undone)
	}
	// A late AIReply now has nothing to do.
	if late := e2.ok(e2.svc.AIReply(e2.ctx, r.Game.ID)); len(late.Played) != 0 {
		t.Fatalf("AIReply after undo played %+v", late.Played)
	}
}

func TestHint(t *testing.T) {
	e := newEnv(t)
	r := e.ok(e.svc.NewAIGame(e.ctx, alice, alice.ChatID, 8, 3, game.ChooseBlack))
	sq, err := e.svc.Hint(e.ctx, r.Game.ID, alice.UserID)
	if err != nil {
		t.Fatalf("Hint: %v", err)
	}
	if ms := r.Pos.LegalMoves(); sq != ms[len(ms)-1] {
		t.Fatalf("Hint = %v, want %v (the mover's hint)", sq, ms[len(ms)-1])
	}
	_, err = e.svc.Hint(e.ctx, r.Game.ID, bob.UserID)
	wantErr(t, "Hint for a spectator", err, game.ErrNotYourGame)
	r = e.ok(e.svc.Move(e.ctx, r.Game.ID, alice.UserID, sq, game.Ply(r.Game)))
	_, err = e.svc.Hint(e.ctx, r.Game.ID, alice.UserID)
	wantErr(t, "Hint on the AI's turn", err, game.ErrNotYourTurn)

	hard := e.ok(e.svc.NewAIGame(e.ctx, bob, bob.ChatID, 8, 4, game.ChooseBlack))
	_, err = e.svc.Hint(e.ctx, hard.Game.ID, bob.UserID)
	wantErr(t, "Hint at level 4", err, game.ErrNoHint)
}

func TestNewAIGameChecks(t *testing.T) {
	e := newEnv(t)
	for _, tc := range []struct {
		size, level int
		want        error
	}{{7, 1, game.ErrBadSize}, {18, 1, game.ErrBadSize}, {8, 0, game.ErrBadLevel}, {8, 7, game.ErrBadLevel}} {
		_, err := e.svc.NewAIGame(e.ctx, alice, alice.ChatID, tc.size, tc.level, game.ChooseBlack)
		wantErr(t, fmt.Sprintf("NewAIGame(size %d, level %d)", tc.size, tc.level), err, tc.want)
	}
	r := e.ok(e.svc.NewAIGame(e.ctx, alice, alice.ChatID, 8, 1, game.ChooseRandom))
	_, err := e.svc.NewAIGame(e.ctx, alice, alice.ChatID, 8, 1, game.ChooseBlack)
	wantErr(t, "a second game in the chat", err, game.ErrAlreadyPlaying)
	_, err = e.svc.Find(e.ctx, alice, 8)
	wantErr(t, "Find during a game", err, game.ErrAlreadyPlaying)
	e.ok(e.svc.Resign(e.ctx, r.Game.ID, alice.UserID))
	e.ok(e.svc.NewAIGame(e.ctx, alice, alice.ChatID, 8, 1, game.ChooseBlack))
}

func TestResignAgainstAI(t *testing.T) {
	e := newEnv(t)
	r := e.ok(e.svc.NewAIGame(e.ctx, alice, alice.ChatID, 8, 5, game.ChooseBlack))
	_, err := e.svc.Resign(e.ctx, r.Game.ID, bob.UserID)
	wantErr(t, "Resign by a spectator", err, game.ErrNotYourGame)
	r = e.eachMoves(r)
	r = e.ok(e.svc.Resign(e.ctx, r.Game.ID, alice.UserID))
	if r.End == nil || r.End.Reason != game.EndResign || r.End.Outcome != game.OutcomeWhite || r.End.Winner != 1 {
		t.Fatalf("resigned game ended %+v", r.End)
	}
	_, err = e.svc.Resign(e.ctx, r.Game.ID, alice.UserID)
	wantErr(t, "Resign twice", err, game.ErrGameOver)
	prof := e.profile(alice.UserID)
	if rec := prof.Stats.VsAI[5]; rec != (game.AIRecord{Losses: 1}) {
		t.Fatalf("record vs level 5 = %+v, want one loss", rec)
	}
}

func TestAIRematch(t *testing.T) {
	e := newEnv(t)
	r := e.ok(e.svc.NewAIGame(e.ctx, alice, alice.ChatID, 6, 2, game.ChooseWhite))
	_, err := e.svc.Rematch(e.ctx, r.Game.ID, alice.UserID)
	wantErr(t, "Rematch during the game", err, game.ErrNotOver)
	r, _ = playAI(t, e, r, alice.UserID)
	_, err = e.svc.Rematch(e.ctx, r.Game.ID, bob.UserID)
	wantErr(t, "Rematch by a spectator", err, game.ErrNotYourGame)
	n := e.ok(e.svc.Rematch(e.ctx, r.Game.ID, alice.UserID))
	if n.Game.ID == r.Game.ID || n.Game.AILevel != 2 || n.Game.Size != 6 || n.Game.Players[1].UserID != alice.UserID || n.Reply == nil {
		t.Fatalf("rematch %+v does not repeat the settings", n.Game)
	}
	again := e.ok(e.svc.Rematch(e.ctx, r.Game.ID, alice.UserID))
	if again.Game.ID != n.Game.ID || !again.Existing {
		t.Fatalf("second Rematch made %s (existing %v), want %s", again.Game.ID, again.Existing, n.Game.ID)
	}
}
