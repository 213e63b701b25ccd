package storage

import (
	"testing"

	"github.com/reversibot/reversi/game"
)

// A turn notice's record reads back as it was written; a record of the message id alone (as
// written before notices kept their claims) or one that cannot be read is a notice that claims
// nothing, never one a later step takes back.
func TestTurnNoticeRecord(t *testing.T) {
	for _, n := range []game.TurnNotice{{}, {MessageID: 7}, {MessageID: 7, GameID: "aB3", Version: 12, Moves: 9}} {
		if got := decodeTurnNotice(encodeTurnNotice(n)); got != n {
			t.Errorf("decode(encode(%+v)) = %+v", n, got)
		}
	}
	for v, want := range map[string]game.TurnNotice{
		"42":           {MessageID: 42},
		"42:x:1:g":     {MessageID: 42},
		"42:1:1:":      {MessageID: 42},
		"":             {},
		"garbage:1:2:": {},
	} {
		if got := decodeTurnNotice(v); got != want {
			t.Errorf("decode(%q) = %+v, want %+v", v, got, want)
		}
	}
}
