package game_test

import (
	"testing"
	"time"

	"github.com/reversibot/reversi/game"
)

func TestLifetimesOf(t *testing.T) {
	l := game.Lifetimes{Lobby: time.Hour, Finished: 2 * time.Hour, Idle: 3 * time.Hour}
	for st, want := range map[game.Status]time.Duration{
		game.StatusLobby: time.Hour, game.StatusFinished: 2 * time.Hour, game.StatusPlaying: 3 * time.Hour,
	} {
		if got := l.Of(st); got != want {
			t.Errorf("Lifetimes.Of(%v) = %v, want %v", st, got, want)
		}
	}
}
