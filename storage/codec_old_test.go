package storage_test

import (
	"bytes"
	"encoding/hex"
	"testing"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/storage"
)

// Records written before game's Outcome and EndReason became engine's (by EncodeGame at
// 242e61d) decode to the same results, and encode to the same bytes again.
func TestDecodeRecordsOfOldOutcomes(t *testing.T) {
	for _, c := range []struct {
		hex  string
		want engine.Result
		size int
	}{
		{"010000000700000000082112ff001603416e6e1602656e2c0342656e2c027275000002656e0080c49fd50cc80103252423",
			engine.Result{Outcome: engine.WhiteWins, Reason: engine.EndResign}, 8},
		{"01000000020000000006223000001603416e6e000000000000c70100000080c49fd50c0000",
			engine.Result{Reason: engine.EndAbandoned}, 6},
		{"02000000030000000008200300021603416e6e1600000000001600000080c49fd50c0000e4c49fd50c01",
			engine.Result{Outcome: engine.Draw}, 8},
	} {
		data, err := hex.DecodeString(c.hex)
		if err != nil {
			t.Fatal(err)
		}
		g := &game.Game{ID: "Old1"}
		if err := storage.DecodeGame(g, data); err != nil {
			t.Fatalf("DecodeGame(%s): %v", c.hex, err)
		}
		if g.Result() != c.want || g.Status != game.StatusFinished || g.Size != c.size {
			t.Errorf("old record %s decodes to %v (status %v, size %d), want %v", c.hex, g.Result(), g.Status, g.Size, c.want)
		}
		again, err := storage.EncodeGame(g)
		if err != nil || !bytes.Equal(again, data) {
			t.Errorf("old record %s encodes again as %x, %v", c.hex, again, err)
		}
	}
}
