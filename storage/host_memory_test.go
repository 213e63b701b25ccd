package storage_test

import (
	"strings"
	"testing"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/storage/storagetest"
)

// TestFinishedGameMemory measures, with MEMORY USAGE on a real Redis, what one finished 8×8
// game leaves behind: every key with a TTL (the game record, bindings, result marks) is the
// game's, the keys without one (profiles, the global leaderboard) and the ledgers of the
// per-user caps (one of each kind per user, whose members cost a few bytes a game) are its
// players'. Each game is played to the end in a store of its own, as the bot plays it (its
// board messages recorded), and must leave less than 1 KB.
func TestFinishedGameMemory(t *testing.T) {
	if !storagetest.Real() {
		t.Skip("MEMORY USAGE needs a real Redis: set REDIS_URL")
	}
	for _, tc := range []struct {
		name string
		play func(t *testing.T, e *hostEnv) *game.Snapshot
	}{
		{"group game between people", func(t *testing.T, e *hostEnv) *game.Snapshot {
			r := startGroupGame(e)
			if _, err := e.svc.AddBoard(e.ctx, r.Game.ID, game.MessageRef{ChatID: hostGroup, MessageID: 1234}); err != nil {
				t.Fatal(err)
			}
			return play(e, e.ok(e.svc.Game(e.ctx, r.Game.ID)))
		}},
		{"invite between people", func(t *testing.T, e *hostEnv) *game.Snapshot {
			lobby := e.ok(e.svc.OpenLobby(e.ctx, game.Lobby{Flow: game.FlowInvite, Creator: alice, Size: 8}))
			r := e.ok(e.svc.Join(e.ctx, lobby.Game.ID, bob))
			for i, c := range []int64{alice.ChatID, bob.ChatID} {
				if _, err := e.svc.AddBoard(e.ctx, r.Game.ID, game.MessageRef{ChatID: c, MessageID: 100 + i}); err != nil {
					t.Fatal(err)
				}
			}
			return play(e, e.ok(e.svc.Game(e.ctx, r.Game.ID)))
		}},
		{"against the AI", func(t *testing.T, e *hostEnv) *game.Snapshot {
			r := e.ok(e.svc.NewAIGame(e.ctx, alice, alice.ChatID, 8, 1, game.ChooseBlack))
			if _, err := e.svc.AddBoard(e.ctx, r.Game.ID, game.MessageRef{ChatID: alice.ChatID, MessageID: 55}); err != nil {
				t.Fatal(err)
			}
			return play(e, e.ok(e.svc.Game(e.ctx, r.Game.ID)))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newHostEnv(t)
			r := tc.play(t, e)
			keys, err := e.store.MemoryUsage(e.ctx)
			if err != nil {
				t.Fatal(err)
			}
			var kept, people int64
			for _, k := range keys {
				if k.TTL > 0 && !strings.Contains(k.Key, "{g}u:") && !strings.Contains(k.Key, "{p}rs:") {
					kept += k.Bytes
				} else {
					people += k.Bytes
				}
				t.Logf("%s: %d bytes, TTL %v", k.Key, k.Bytes, k.TTL.Round(1e9))
			}
			t.Logf("finished game of %d moves: %d bytes with TTLs (the game's), %d bytes without (its players')",
				len(r.Game.Moves), kept, people)
			if kept >= 1024 {
				t.Errorf("a finished game leaves %d bytes, want < 1024", kept)
			}
		})
	}
}
