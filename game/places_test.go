package game_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/reversibot/reversi/game"
)

func TestGamePlaces(t *testing.T) {
	g := &game.Game{ChatID: -1, InlineID: "in-g",
		Players: [2]game.Player{{UserID: 1, ChatID: 1}, {UserID: 2}},
		Boards:  []game.MessageRef{{ChatID: -1, MessageID: 5}, {InlineID: "in-b"}}}
	var got []string
	g.Places(func(c int64) { got = append(got, fmt.Sprint("chat ", c)) },
		func(id string) { got = append(got, "inline "+id) })
	want := []string{"chat -1", "inline in-g", "chat 1", "chat 0", "chat -1", "inline ", "chat 0", "inline in-b"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Places = %q, want %q", got, want)
	}
}
