package gametest_test

import (
	"context"
	"testing"
	"time"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/game/gametest"
)

func TestDrawingsContract(t *testing.T) {
	gametest.DrawingsContract(t, gametest.NewDrawings(nil))
}

// A lease whose holder never ends it frees the message once it runs out, and a record left
// alone is forgotten after game.DrawingsTTL.
func TestDrawingsExpire(t *testing.T) {
	ctx := context.Background()
	clock := gametest.NewClock(time.Unix(1e9, 0))
	d := gametest.NewDrawings(clock.Now)
	begin := func(v int64, tok string) game.DrawVerdict {
		t.Helper()
		st, err := d.BeginDraw(ctx, "m", game.Drawing{Game: "g", Version: v, Token: tok}, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		return st.Verdict
	}
	if v := begin(2, "dead"); v != game.DrawGo {
		t.Fatalf("first = %v", v)
	}
	clock.Add(999 * time.Millisecond)
	if v := begin(3, "b"); v != game.DrawBusy {
		t.Fatalf("within the lease = %v, want busy", v)
	}
	clock.Add(time.Millisecond)
	if v := begin(3, "b"); v != game.DrawGo {
		t.Fatalf("after the lease = %v, want go", v)
	}
	if _, err := d.EndDraw(ctx, "m", game.Drawing{Game: "g", Version: 3, Token: "b"}, game.DrawSent, "h"); err != nil {
		t.Fatal(err)
	}
	if v := begin(2, "c"); v != game.DrawStale {
		t.Fatalf("older = %v, want stale", v)
	}
	clock.Add(game.DrawingsTTL)
	if v := begin(2, "c"); v != game.DrawGo {
		t.Fatalf("older after the record's TTL = %v, want go", v)
	}
}
