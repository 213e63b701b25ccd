package engine

import (
	"math/rand/v2"
	"testing"
)

// TestResultNumbers pins the numbers of Outcome and EndReason: stored games keep them, so they
// must never change.
func TestResultNumbers(t *testing.T) {
	for v, want := range map[Outcome]uint8{Ongoing: 0, BlackWins: 1, WhiteWins: 2, Draw: 3} {
		if uint8(v) != want {
			t.Errorf("%v = %d, want %d", v, uint8(v), want)
		}
	}
	for v, want := range map[EndReason]uint8{EndNormal: 0, EndResign: 1, EndTimeout: 2, EndAbandoned: 3} {
		if uint8(v) != want {
			t.Errorf("%v = %d, want %d", v, uint8(v), want)
		}
	}
	for r, s := range map[EndReason]string{EndNormal: "normal", EndResign: "resign", EndTimeout: "timeout",
		EndAbandoned: "abandoned", 9: "reason(9)"} {
		if r.String() != s {
			t.Errorf("EndReason(%d).String() = %q, want %q", r, r.String(), s)
		}
	}
}

func TestResult(t *testing.T) {
	none := Color(-1)
	for _, c := range []struct {
		r             Result
		valid, over   bool
		winner, loser Color // none for no winner, no loser
		s             string
	}{
		{Result{}, true, false, none, none, "ongoing"},
		{Result{BlackWins, EndNormal}, true, true, Black, White, "black wins"},
		{Result{WhiteWins, EndNormal}, true, true, White, Black, "white wins"},
		{Result{Draw, EndNormal}, true, true, none, none, "draw"},
		{Result{WhiteWins, EndResign}, true, true, White, Black, "white wins (resign)"},
		{Result{BlackWins, EndTimeout}, true, true, Black, White, "black wins (timeout)"},
		{Result{Ongoing, EndAbandoned}, true, true, none, none, "abandoned"},
		{Result{Ongoing, EndResign}, false, true, none, none, "ongoing (resign)"},
		{Result{Draw, EndTimeout}, false, true, none, none, "draw (timeout)"},
		{Result{BlackWins, EndAbandoned}, false, true, Black, White, "black wins (abandoned)"},
		{Result{7, EndNormal}, false, true, none, none, "Outcome(7)"},
		{Result{Ongoing, 9}, false, true, none, none, "ongoing (reason(9))"},
	} {
		if got := c.r.Valid(); got != c.valid {
			t.Errorf("%v.Valid() = %v", c.r, got)
		}
		if got := c.r.Over(); got != c.over {
			t.Errorf("%v.Over() = %v", c.r, got)
		}
		w, ok := c.r.Winner()
		if ok != (c.winner != none) || ok && w != c.winner {
			t.Errorf("%v.Winner() = %v, %v; want %v", c.r, w, ok, c.winner)
		}
		l, ok := c.r.Loser()
		if ok != (c.loser != none) || ok && l != c.loser {
			t.Errorf("%v.Loser() = %v, %v; want %v", c.r, l, ok, c.loser)
		}
		if got := c.r.String(); got != c.s {
			t.Errorf("Result%+v.String() = %q, want %q", c.r, got, c.s)
		}
	}
	for _, c := range []Color{Black, White} {
		if w, ok := WinFor(c).Winner(); !ok || w != c {
			t.Errorf("WinFor(%v).Winner() = %v, %v", c, w, ok)
		}
	}
}

// TestGameResult checks that the result a game's board gives is valid and over exactly when
// the game is.
func TestGameResult(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for i := 0; i < 50; i++ {
		g := randomGame(t, 6, rng)
		for {
			r := g.Result()
			if !r.Valid() || r.Over() != g.Over() || r.Outcome != g.Outcome() || r.Reason != EndNormal {
				t.Fatalf("Result() = %v in %v (over %v)", r, g.Position(), g.Over())
			}
			if g.Undo() != nil {
				break
			}
		}
	}
}
