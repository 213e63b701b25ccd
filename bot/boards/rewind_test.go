package boards

import (
	"context"
	"testing"
	"time"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/game/gametest"
)

// TestRewindThroughALeftoverLease: after a Redis failover the drawn record is as old as the
// store. It may say that a message shows the stored game when it shows a newer drawing the
// failover lost, and hold a lease that a dead edit took. The rewind of that board waits out
// the lease and then draws the board as stored; before, its recheck asked only for a newer
// drawing, was told the message showed this one, and the board stayed ahead for good.
func TestRewindThroughALeftoverLease(t *testing.T) {
	f := newFixture(t)
	clock := gametest.NewClock(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)) // the record's clock
	d := gametest.NewDrawings(clock.Now)
	f.e.o.Drawings = d
	one := twoPlayers("g")
	one.Boards = one.Boards[:1]
	g := f.r.put(one)
	ref := g.Boards[0]
	ctx := context.Background()

	// The record as the failover left it: this version shown, and an edit's lease.
	c, err := f.e.o.Content(g, nil, ref, game.StyleButtons, engine.Pass)
	if err != nil {
		t.Fatal(err)
	}
	old := game.Drawing{Game: g.ID, Version: g.Version, Token: "old"}
	if _, err := d.BeginDraw(ctx, key(ref), old, time.Second); err != nil {
		t.Fatal(err)
	}
	if _, err := d.EndDraw(ctx, key(ref), old, game.DrawSent, contentHash(c)); err != nil {
		t.Fatal(err)
	}
	if _, err := d.BeginDraw(ctx, key(ref), game.Drawing{Game: g.ID, Version: g.Version, Token: "dead"}, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	f.api.show(ref, "the lost move") // what the message shows in fact

	f.e.Rewind(g, ref)
	// Each recheck finds the lease still held until the record's clock has passed it.
	done := make(chan struct{})
	go func() { f.work.Wait(); close(done) }()
	for waiting := true; waiting; {
		select {
		case <-done:
			waiting = false
		case fn := <-f.timer:
			clock.Add(time.Second)
			go fn()
		case <-time.After(guard):
			t.Fatal("the Editor never settled")
		}
	}
	if shown, _ := f.api.shown(ref); shown != c.Text {
		t.Fatalf("after the rewind the message shows %q, want the stored game's %q", shown, c.Text)
	}
}
