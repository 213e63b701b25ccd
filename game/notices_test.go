package game_test

import (
	"testing"

	"github.com/reversibot/reversi/game"
)

// A "your move" notice is false once a newer version of its game has another move on the
// board or is over, and only then.
func TestTurnNoticeStale(t *testing.T) {
	n := game.TurnNotice{MessageID: 5, GameID: "g1", Version: 4, Moves: 3}
	at := func(id string, version int64, status game.Status, moves int) *game.Game {
		return &game.Game{ID: id, Version: version, Status: status, Moves: make([]byte, moves)}
	}
	for _, c := range []struct {
		what  string
		n     game.TurnNotice
		g     *game.Game
		stale bool
	}{
		{"the same version", n, at("g1", 4, game.StatusPlaying, 3), false},
		{"a board posted again", n, at("g1", 5, game.StatusPlaying, 3), false},
		{"a move since", n, at("g1", 5, game.StatusPlaying, 4), true},
		{"resigned since", n, at("g1", 5, game.StatusFinished, 3), true},
		{"an older read", n, at("g1", 3, game.StatusPlaying, 2), false},
		{"another game", n, at("g2", 9, game.StatusFinished, 9), false},
		{"no game", n, nil, false},
		{"a notice that claims nothing", game.TurnNotice{MessageID: 5}, at("g1", 9, game.StatusFinished, 9), false},
	} {
		if got := c.n.Stale(c.g); got != c.stale {
			t.Errorf("%s: Stale = %v, want %v", c.what, got, c.stale)
		}
	}
}
