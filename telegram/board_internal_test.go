package telegram

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/game/gametest"
	"github.com/reversibot/reversi/storage/storagetest"
)

func TestBoardBatchReadsWhenSent(t *testing.T) {
	ctx := context.Background()
	st := storagetest.New(t)
	svc := game.New(game.Config{Store: st, Mover: gametest.FirstMover{}})
	defer svc.Close()
	b := &Bot{svc: svc, players: game.NewPlayers(st), log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	b.edits.latest = make(map[string]*boardBatch)
	if err := st.SetStyle(ctx, 2, game.StyleImage); err != nil {
		t.Fatal(err)
	}
	g := &game.Game{Size: 8, Flow: game.FlowInvite, Status: game.StatusPlaying,
		Players: [2]game.Player{{UserID: 1, Name: "A", ChatID: 1}, {UserID: 2, Name: "B", ChatID: 2}},
		Boards:  []game.MessageRef{{ChatID: 1, MessageID: 10}, {ChatID: 2, MessageID: 11}}}
	if err := st.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	bb := b.newBoardBatch(g, g.Boards)
	if len(bb.users) != 2 {
		t.Fatalf("batch users %v, want both players", bb.users)
	}
	// Edits that start together share a read made after the batch was made.
	var wg sync.WaitGroup
	states := make([]boardState, 4)
	for i := range states {
		wg.Go(func() {
			s, err := bb.read(ctx, b)
			if err != nil {
				t.Error(err)
			}
			states[i] = s
		})
	}
	wg.Wait()
	for i, s := range states {
		if s.g == nil || s.g.Version != g.Version {
			t.Fatalf("edit %d read %+v, want version %d", i, s.g, g.Version)
		}
		for j, ref := range g.Boards {
			want := []game.Style{game.StyleButtons, game.StyleImage}[j]
			hint, _ := styleUser(g, ref)
			if got := b.styleIn(ctx, s, ref, hint); got != want {
				t.Errorf("edit %d: style of board %d = %v, want %v", i, j, got, want)
			}
		}
	}
	// An edit that starts after the read was over reads the game again.
	g2 := g.Clone()
	g2.Moves = append(g2.Moves, 0x23)
	if err := st.UpdateGame(ctx, g2); err != nil {
		t.Fatal(err)
	}
	s, err := bb.read(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	if s.g.Version != g2.Version || len(s.g.Moves) != 1 {
		t.Errorf("late edit read version %d, want %d", s.g.Version, g2.Version)
	}
	eg, err := s.replay()
	if err != nil || eg.Len() != 1 {
		t.Errorf("replay: %v, %d plies", err, eg.Len())
	}
	// A style that follows someone the batch did not read (here: no hint) is read on its own.
	if got := b.styleIn(ctx, s, g.Boards[1], 0); got != game.StyleImage {
		t.Errorf("style read on its own = %v, want image", got)
	}
}
