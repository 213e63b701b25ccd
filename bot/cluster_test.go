package bot_test

import (
	"context"
	"testing"
	"time"

	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/storage"
	"github.com/reversibot/reversi/storage/storagetest"
)

// Cluster layout of these tests: master 0 serves the games' slot ({g}) alone, master 2 a few
// slots of nothing the tests use, and master 1 every other slot: every key of a move that is
// not the game's (profiles and board styles, update dedupe, budgets, pacing, turn notices, AI
// leases) lives on master 1.
const (
	gameMaster     = 0
	optionalMaster = 1
)

// clusterOwner places the slots as the layout above says.
func clusterOwner(slot int) int {
	switch {
	case slot == storagetest.Slot("{g}"):
		return gameMaster
	case slot < 100:
		return 2
	}
	return optionalMaster
}

// newClusterHarness starts a Redis Cluster laid out as above (replicas of each master, and
// cluster-require-full-coverage no) and a bot over it.
func newClusterHarness(t *testing.T, replicas int) (*harness, *storagetest.Cluster) {
	t.Helper()
	c := storagetest.StartCluster(t, storagetest.ClusterOptions{Replicas: replicas, Owner: clusterOwner})
	h := newHarnessOn(t, func(so storage.Options) *storage.Store {
		so.Prefix = "c:"
		s, err := storage.Open(context.Background(), c.URL(), so)
		if err != nil {
			t.Fatalf("open the cluster: %v", err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}, storage.Options{})
	return h, c
}

// aiMoves has u play n moves, each the first legal move of board, in u's game against the AI
// (a new one when the game is over), and returns the board and the longest time a move took
// from its tap until the board showed it and the AI's reply. Every move must be played at the
// first tap.
func (h *harness) aiMoves(u *telegramtest.Person, board telegramtest.ChatMessage, n int) (telegramtest.ChatMessage, time.Duration) {
	h.t.Helper()
	var longest time.Duration
	for range n {
		if finished(board) || len(legalMoves(board)) == 0 {
			board = h.aiBoard(u, u.ID(), "/ai 8 1 black")
		}
		ply := boardPly(board)
		start := time.Now()
		if ans := h.pressData(u, board, legalMoves(board)[0].CallbackData); !applied(ans) {
			h.t.Fatalf("move at ply %d refused: %q", ply, ans.Text)
		}
		board = h.waitState(board, "the move and the AI's reply", func(m telegramtest.ChatMessage) bool {
			return finished(m) || boardPly(m) >= ply+2
		})
		longest = max(longest, time.Since(start))
	}
	return board, longest
}

// TestClusterOptionalMasterLost: on a Redis Cluster without replicas (and
// cluster-require-full-coverage no), the master that holds every key of a move but the game's
// dies. Moves go on at the first tap, the AI answers and the boards are drawn: nothing of a
// move waits on a key it can do without (style, dedupe, budget, pacing, notices, the AI's
// lease), and the board style falls back to buttons.
func TestClusterOptionalMasterLost(t *testing.T) {
	for _, how := range []string{"killed", "paused"} {
		t.Run(how, func(t *testing.T) {
			h, c := newClusterHarness(t, 0)
			alice := h.user("Alice", "en")
			board := h.aiBoard(alice, alice.ID(), "/ai 8 1 black")
			board, before := h.aiMoves(alice, board, 3)
			dead := c.Nodes[optionalMaster]
			if how == "killed" {
				dead.Kill()
			} else if err := dead.Pause(); err != nil {
				t.Fatal(err)
			}
			_, after := h.aiMoves(alice, board, 6)
			t.Logf("master %s: slowest move before %v, after %v", how, before.Round(time.Millisecond), after.Round(time.Millisecond))
		})
	}
}

// TestClusterFailover: on a Redis Cluster with a replica per master, the master of every
// non-game key is killed, then the games' master. Moves go on at the first tap after the
// first kill; after the second they are refused (the game's slot has no master) until the
// replica takes over, and then go on in the same game.
func TestClusterFailover(t *testing.T) {
	h, c := newClusterHarness(t, 1)
	alice := h.user("Alice", "en")
	board := h.aiBoard(alice, alice.ID(), "/ai 8 1 black")
	board, _ = h.aiMoves(alice, board, 2)
	c.Nodes[optionalMaster].Kill()
	killed := time.Now()
	board, slowest := h.aiMoves(alice, board, 3)
	t.Logf("optional master killed: slowest move %v", slowest.Round(time.Millisecond))
	// A failure is declared by a majority of the masters: the next kill waits for the
	// replica to have taken this one's place.
	c.WaitPromoted(t, optionalMaster, 20*time.Second)
	t.Logf("optional master's replica took over after %v", time.Since(killed).Round(time.Millisecond))

	c.Nodes[gameMaster].Kill()
	killed = time.Now()
	c.WaitPromoted(t, gameMaster, 20*time.Second)
	t.Logf("games' master's replica took over after %v", time.Since(killed).Round(time.Millisecond))
	refused := 0
	ctx := h.guard()
	for {
		ply := boardPly(board)
		if ans := h.pressData(alice, board, legalMoves(board)[0].CallbackData); applied(ans) {
			board = h.waitState(board, "the move and the AI's reply", func(m telegramtest.ChatMessage) bool {
				return finished(m) || boardPly(m) >= ply+2
			})
			break
		}
		refused++
		select {
		case <-ctx.Done():
			t.Fatalf("no move played %v after the games' master was killed (%d refused)", time.Since(killed), refused)
		case <-time.After(50 * time.Millisecond): // the pace of a player tapping again
		}
	}
	t.Logf("games' master killed: first move played after %v (%d taps refused)", time.Since(killed).Round(time.Millisecond), refused)
	if _, slowest = h.aiMoves(alice, board, 3); slowest > 0 {
		t.Logf("after the fail-over: slowest move %v", slowest.Round(time.Millisecond))
	}
}
