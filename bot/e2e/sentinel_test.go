package e2e_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/storage/storagetest"
)

// TestSentinelFailoverMidGame plays games between people through two bots on a Redis Sentinel
// group of the test's own (master, replica, three sentinels) and fails the master over in the
// middle of them, losing the last move of every game: the replica is cut off (as by a network
// partition) while each game plays one more move, which the master acknowledges and the
// players see on their boards; then the master dies and the sentinels promote the replica,
// which never got those moves. The bots are started again after the failover, so nothing of
// theirs remembers the lost moves: only the boards in the chats show them.
//
// Each player's next tap, on a board that is now ahead of the stored game, must be answered
// (never silence) with an alert that the last move was lost, and that board redrawn as the
// game is stored; then every game is played on to its end, exactly as its reference replay
// without the lost move.
func TestSentinelFailoverMidGame(t *testing.T) {
	grp := storagetest.StartSentinelGroup(t)
	url := grp.URL(0)
	c := newClusterAt(t, url)
	const n = 2
	var games []*peopleGame
	for i := range n {
		games = append(games, c.startPeople(uint64(60+i), c.user(fmt.Sprintf("P%d", i)), c.user(fmt.Sprintf("Q%d", i))))
	}
	for _, g := range games {
		for range 4 {
			c.step(g)
		}
	}

	ctx := guard(t)
	old, err := grp.Master(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := grp.Isolate(ctx); err != nil {
		t.Fatal(err)
	}
	kept := make([][]engine.Square, n) // each game's moves as the replica has them
	for i, g := range games {
		kept[i] = append([]engine.Square(nil), g.ref.moves...)
		c.step(g) // acknowledged by the master alone: lost in the failover
	}
	// The bots end their work (edits and their rechecks, all drawn from the old master) and are
	// started again after the failover: only the chats remember the lost moves.
	c.stop()
	grp.Nodes[0].Kill()
	began := time.Now()
	grp.Nodes[1].Resume()
	now, err := grp.WaitNewMaster(ctx, old)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the sentinels promoted %s %v after the master died", now, time.Since(began).Round(time.Millisecond))
	c2 := newClusterPrefixed(t, c.srv, paceSpeedup, url, c.prefix, func(n int64) []int { return []int{int(n % 2)} }, nil)
	for i, st := range c2.stores {
		waitPing(t, st, fmt.Sprintf("bot %d's store after the failover", i))
	}
	t.Logf("bots serve again %v after the master died", time.Since(began).Round(time.Millisecond))

	for i, g := range games {
		stored, err := c2.stores[0].Game(context.Background(), g.id)
		if err != nil {
			t.Fatalf("game %s after the failover: %v", g.id, err)
		}
		if len(stored.Moves) != len(kept[i]) {
			t.Fatalf("game %s has %d moves after the failover, want the %d the replica had: the failover lost nothing to test",
				g.id, len(stored.Moves), len(kept[i]))
		}
		// The player to move on the boards (ahead of the store) taps a legal move there, and
		// the player whose move was lost taps their board too (any empty square: it shows the
		// opponent to move).
		ahead := len(g.ref.moves)
		side, sq, board := c2.pick(g)
		c2.wantLost(g.users[side], board, c2.press(g.users[side], board, sq), ahead-1)
		g.ref = replay(t, kept[i])
		mover := g.ref.toMove()
		cur, _ := c2.srv.Message(g.boards[mover].ChatID, g.boards[mover].ID)
		if boardPly(cur) != ahead {
			t.Fatalf("the board of the player whose move was lost changed by itself to ply %d:%s", boardPly(cur), dump(cur))
		}
		qid, err := g.users[mover].Press(cur, firstMoveButton(t, cur))
		if err != nil {
			t.Fatal(err)
		}
		c2.wantLost(g.users[mover], cur, qid, ahead-1)
	}
	for _, g := range games {
		c2.finish(g)
	}
}

// wantLost waits for the answer to the tap qid that u made on board m, which is ahead of the
// stored game, and checks that it is an alert saying that the last move was lost and that m is
// redrawn at ply, as the game is stored.
func (c *cluster) wantLost(u *telegramtest.Person, m telegramtest.ChatMessage, qid string, ply int) {
	c.t.Helper()
	ans, err := c.srv.WaitCallbackAnswer(guard(c.t), qid)
	if err != nil {
		c.t.Fatalf("tap on a board ahead of the store never answered: %v", err)
	}
	if !ans.ShowAlert || !strings.Contains(ans.Text, "last move on this board was lost") {
		c.t.Errorf("user %d: tap on a board ahead of the store answered %+v, want an alert that the last move was lost", u.ID(), ans)
	}
	c.waitPly(m, ply)
}

// replay is the reference replay of moves.
func replay(t *testing.T, moves []engine.Square) *replica {
	t.Helper()
	r := newReplica(t)
	for _, sq := range moves {
		r.play(t, sq)
	}
	return r
}
