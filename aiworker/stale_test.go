package aiworker_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/game/gametest"
	"github.com/reversibot/reversi/storage"
	"github.com/reversibot/reversi/storage/storagetest"
)

// everyoneLeases grants every lease to every caller.
type everyoneLeases struct{}

func (everyoneLeases) AcquireLease(context.Context, string, time.Duration) (string, bool, error) {
	return "t", true, nil
}

func (everyoneLeases) RenewLease(context.Context, string, string, time.Duration) (bool, error) {
	return true, nil
}

func (everyoneLeases) ReleaseLease(context.Context, string, string) error { return nil }

// TestStaleRemoteMoveIsNotApplied: the AI's move comes from a worker after the game moved on
// (the player undid, resigned, or another process played the AI's move already); the host's
// compare-and-set drops it, and the game is as the other step left it. The test plays the
// worker by hand, so it decides when the answer arrives.
func TestStaleRemoteMoveIsNotApplied(t *testing.T) {
	const user = 7
	tests := []struct {
		name string
		// meddle changes the game while the AI thinks, and returns the moves the game must
		// hold at the end; nil leaves it alone.
		meddle   func(t *testing.T, svc *game.Service, st *storage.Store, id string) []byte
		finished bool
	}{
		{"undisturbed", nil, false},
		{"undo", func(t *testing.T, svc *game.Service, st *storage.Store, id string) []byte {
			r, err := svc.Undo(context.Background(), id, user, game.AnyPly)
			if err != nil {
				t.Fatalf("Undo: %v", err)
			}
			return r.Game.Moves
		}, false},
		{"resign", func(t *testing.T, svc *game.Service, st *storage.Store, id string) []byte {
			r, err := svc.Resign(context.Background(), id, user)
			if err != nil {
				t.Fatalf("Resign: %v", err)
			}
			return r.Game.Moves
		}, true},
		{"another process moved", func(t *testing.T, svc *game.Service, st *storage.Store, id string) []byte {
			// A process that does not see this one's lease on the game: as when this one
			// stalled past its lease's TTL.
			other := game.New(game.Config{Store: st, Mover: gametest.FirstMover{}, Leases: everyoneLeases{}})
			defer other.Close()
			r, err := other.AIReply(context.Background(), id)
			if err != nil || len(r.Played) == 0 {
				t.Fatalf("the other process's AIReply = %+v, %v; want a move", r, err)
			}
			return r.Game.Moves
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			st := storagetest.New(t)
			m := newMover(t, st)
			svc := game.New(game.Config{Store: st, Mover: m})
			defer svc.Close()

			r, err := svc.NewAIGame(ctx, game.Player{UserID: user, Name: "Ann"}, 100, 8, 3, game.ChooseBlack)
			if err != nil {
				t.Fatal(err)
			}
			id := r.Game.ID
			mine := r.Pos.Moves().First()
			if r, err = svc.Move(ctx, id, user, mine, game.AnyPly); err != nil || r.Reply == nil {
				t.Fatalf("Move = %+v, %v; want the AI to move next", r, err)
			}
			type reply struct {
				r   *game.Snapshot
				err error
			}
			done := make(chan reply, 1)
			go func() {
				r, err := svc.AIReply(ctx, id)
				done <- reply{r, err}
			}()

			// The worker: take the job and find the AI's move.
			var d []game.AIDelivery
			eventually(t, "the AI's job arrives", func() bool {
				d, err = st.ReadAIJobs(ctx, "hand", 1, quick)
				if err != nil {
					t.Fatal(err)
				}
				return len(d) == 1
			})
			pos, err := engine.ParsePosition(d[0].Job.Position)
			if err != nil {
				t.Fatal(err)
			}
			aiMove := pos.LegalMoves()[len(pos.LegalMoves())-1] // not FirstMover's choice

			want := append([]byte{byte(mine)}, byte(aiMove))
			if tt.meddle != nil {
				want = tt.meddle(t, svc, st, id)
			}
			if err := st.PostAIResult(ctx, d[0].Job.ReplyTo, game.AIResult{JobID: d[0].Job.ID, Move: aiMove.String()}); err != nil {
				t.Fatal(err)
			}
			var got reply
			select {
			case got = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("AIReply never returned")
			}
			if got.err != nil {
				t.Fatalf("AIReply = %v", got.err)
			}
			if tt.meddle != nil && len(got.r.Played) != 0 {
				t.Errorf("AIReply played %+v on a game that moved on, want nothing", got.r.Played)
			}
			g, err := st.Game(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(g.Moves, want) {
				t.Errorf("game moves = %v, want %v", g.Moves, want)
			}
			if (g.Status == game.StatusFinished) != tt.finished {
				t.Errorf("game status = %v, want finished %v", g.Status, tt.finished)
			}
		})
	}
}
