package present_test

import (
	"testing"

	"github.com/reversibot/reversi/bot/present"
	"github.com/reversibot/reversi/game"
)

// BenchmarkBoardContent8 measures drawing an 8×8 board in a private chat in each style: the
// keyboard, and the picture with its move picker (what every edit of such a board costs).
func BenchmarkBoardContent8(b *testing.B) {
	g := &game.Game{ID: "bench", Size: 8, Flow: game.FlowInvite, Status: game.StatusPlaying,
		Players: [2]game.Player{{UserID: 1, Name: "Alice", ChatID: 1}, {UserID: 2, Name: "Bob", ChatID: 2}},
		Moves:   []byte{0x45, 0x53, 0x22, 0x23, 0x32}, Lang: "en"} // f5 d6 c3 d3 c4
	ref := game.MessageRef{ChatID: 1, MessageID: 5}
	for _, st := range []game.Style{game.StyleButtons, game.StyleImage} {
		b.Run(st.String(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c, err := present.Board(g, ref, 0, st)
				if err != nil || (c.Photo != nil) != (st == game.StyleImage) {
					b.Fatalf("Board(%v): photo %v, %v", st, c.Photo != nil, err)
				}
			}
		})
	}
}
