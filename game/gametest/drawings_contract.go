package gametest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/reversibot/reversi/game"
)

// DrawingsContract checks that d keeps game.Drawings' promises (the memory one and package
// storage's run it). It uses message names starting "contract:".
func DrawingsContract(t *testing.T, d game.Drawings) {
	t.Helper()
	ctx := context.Background()
	const lease = time.Minute
	draw := func(msg string, g string, v int64, tok string, newer bool) game.DrawStart {
		t.Helper()
		st, err := d.BeginDraw(ctx, msg, game.Drawing{Game: g, Version: v, Token: tok, OnlyNewer: newer}, lease)
		if err != nil {
			t.Fatalf("BeginDraw(%s v%d by %s): %v", g, v, tok, err)
		}
		return st
	}
	end := func(msg, g string, v int64, tok string, e game.DrawEnd, hash string) bool {
		t.Helper()
		redraw, err := d.EndDraw(ctx, msg, game.Drawing{Game: g, Version: v, Token: tok}, e, hash)
		if err != nil {
			t.Fatalf("EndDraw(%s v%d by %s): %v", g, v, tok, err)
		}
		return redraw
	}
	want := func(got game.DrawStart, v game.DrawVerdict, hash string) {
		t.Helper()
		if got.Verdict != v || got.Hash != hash {
			t.Fatalf("BeginDraw = %v %q, want %v %q", got.Verdict, got.Hash, v, hash)
		}
	}

	// A first drawing goes; the same version again goes too, telling what the message shows.
	m := "contract:1"
	want(draw(m, "g", 3, "a", false), game.DrawGo, "")
	if end(m, "g", 3, "a", game.DrawSent, "h3") {
		t.Fatal("EndDraw asks for a redraw nobody wanted")
	}
	want(draw(m, "g", 3, "b", false), game.DrawGo, "h3")
	end(m, "g", 3, "b", game.DrawKept, "h3")
	// A recheck of the version shown is the same; an older drawing is stale.
	want(draw(m, "g", 3, "c", true), game.DrawSame, "")
	want(draw(m, "g", 2, "c", false), game.DrawStale, "")
	want(draw(m, "g", 2, "c", true), game.DrawStale, "")

	// While one edit is on its way another is busy, and its wish makes the holder redraw.
	want(draw(m, "g", 4, "a", false), game.DrawGo, "h3")
	want(draw(m, "g", 4, "b", false), game.DrawBusy, "")
	want(draw(m, "g", 5, "b", true), game.DrawBusy, "")
	want(draw(m, "g", 3, "b", false), game.DrawStale, "") // older than the one on its way
	if !end(m, "g", 4, "a", game.DrawSent, "h4") {
		t.Fatal("EndDraw after a busy edit wished for v5 does not ask for a redraw")
	}
	want(draw(m, "g", 5, "a", false), game.DrawGo, "h4")
	if end(m, "g", 5, "a", game.DrawSent, "h5") {
		t.Fatal("the wish was reported twice")
	}
	// Another token's end does not end the lease.
	want(draw(m, "g", 6, "a", false), game.DrawGo, "h5")
	if end(m, "g", 6, "x", game.DrawSent, "hx") {
		t.Fatal("a stranger's EndDraw asks for a redraw")
	}
	want(draw(m, "g", 6, "b", false), game.DrawBusy, "")
	// A failed edit forgets what the message shows: the version goes again, even as a recheck.
	end(m, "g", 6, "a", game.DrawFailed, "")
	want(draw(m, "g", 6, "c", true), game.DrawGo, "")
	end(m, "g", 6, "c", game.DrawSent, "h6")

	// The message goes over to another game: that game's drawing goes, whatever the
	// version, and takes the message from an edit of the old game on its way.
	want(draw(m, "g", 7, "a", false), game.DrawGo, "h6")
	want(draw(m, "g2", 1, "b", false), game.DrawGo, "")
	if end(m, "g", 7, "a", game.DrawSent, "h7") {
		t.Fatal("an edit of the game the message left asks for a redraw")
	}
	want(draw(m, "g2", 1, "c", true), game.DrawBusy, "") // b holds it still
	if !end(m, "g2", 1, "b", game.DrawSent, "g2h1") {
		t.Fatal("the busy recheck's wish is lost")
	}
	want(draw(m, "g2", 1, "c", true), game.DrawSame, "")

	// A failover lost the versions the message shows: a rewind draws an older version all
	// the same, waits for an edit on its way like any other, and is then what the message
	// shows (the versions the store makes next pass it again).
	rewound := func(msg string, v int64, tok string) game.DrawStart {
		t.Helper()
		st, err := d.BeginDraw(ctx, msg, game.Drawing{Game: "g", Version: v, Token: tok, Rewind: true}, lease)
		if err != nil {
			t.Fatalf("BeginDraw(g v%d by %s, rewind): %v", v, tok, err)
		}
		return st
	}
	r := "contract:rewind"
	want(draw(r, "g", 9, "a", false), game.DrawGo, "")
	end(r, "g", 9, "a", game.DrawSent, "h9")
	want(draw(r, "g", 4, "b", false), game.DrawStale, "")
	want(draw(r, "g", 10, "b", false), game.DrawGo, "h9")
	want(rewound(r, 4, "c"), game.DrawBusy, "") // b's edit is on its way
	end(r, "g", 10, "b", game.DrawSent, "h10")
	want(rewound(r, 4, "c"), game.DrawGo, "h10")
	end(r, "g", 4, "c", game.DrawSent, "h4")
	want(draw(r, "g", 4, "d", true), game.DrawSame, "")
	want(draw(r, "g", 3, "d", false), game.DrawStale, "")
	want(draw(r, "g", 5, "d", false), game.DrawGo, "h4")

	// Messages are independent.
	want(draw("contract:2", "g", 1, "a", false), game.DrawGo, "")
	want(draw("contract:3", "g", 1, "b", false), game.DrawGo, "")

	// Bad input is refused, never a panic.
	for _, c := range []struct {
		msg string
		d   game.Drawing
	}{
		{"", game.Drawing{Game: "g", Version: 1, Token: "a"}},
		{string(make([]byte, game.MaxDrawMsg+1)), game.Drawing{Game: "g", Version: 1, Token: "a"}},
		{"contract:4", game.Drawing{Version: 1, Token: "a"}},
		{"contract:4", game.Drawing{Game: "g", Version: 1}},
		{"contract:4", game.Drawing{Game: "g", Version: -1, Token: "a"}},
	} {
		if _, err := d.BeginDraw(ctx, c.msg, c.d, lease); !errors.Is(err, game.ErrInvalid) {
			t.Errorf("BeginDraw(%q, %+v) = %v, want ErrInvalid", c.msg, c.d, err)
		}
		if _, err := d.EndDraw(ctx, c.msg, c.d, game.DrawSent, "h"); !errors.Is(err, game.ErrInvalid) {
			t.Errorf("EndDraw(%q, %+v) = %v, want ErrInvalid", c.msg, c.d, err)
		}
	}
	if _, err := d.BeginDraw(ctx, "contract:4", game.Drawing{Game: "g", Version: 1, Token: "a"}, 0); !errors.Is(err, game.ErrInvalid) {
		t.Errorf("BeginDraw with no lease = %v, want ErrInvalid", err)
	}
}
