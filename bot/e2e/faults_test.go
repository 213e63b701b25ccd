package e2e_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/storage"
)

// TestTelegramFaults plays a game between people through the two bots while the Bot API
// fails in bursts: a 429 on answerCallbackQuery and on both board edits (the bots wait
// retry_after and try again), and a 502 on both board edits of a move (not retried: the boards
// stay behind). After the 502 each player's next tap on their out-of-date board is refused
// with an alert and brings that board up to date (unless a bot's check of the boards drew it
// again first), so a tap again is enough; the game then goes
// on to the end exactly as its reference replay, every move applied once.
func TestTelegramFaults(t *testing.T) {
	c := newCluster(t)
	g := c.startPeople(11, c.user("Ann"), c.user("Ben"))
	for range 4 {
		c.step(g)
	}

	// 429 on the answer: answered after retry_after, the move applied once.
	c.srv.FailNext("answerCallbackQuery", 1, http.StatusTooManyRequests, 1)
	c.step(g)
	// 429 on both edits: the boards are drawn after retry_after.
	c.srv.FailNext("editMessageText", 2, http.StatusTooManyRequests, 1)
	c.step(g)

	// 502 on every attempt of both edits of a move (an edit is tried three times): the move is
	// applied and answered, the boards stay behind.
	edits := c.srv.Calls("editMessageText")
	c.srv.FailNext("editMessageText", 6, http.StatusBadGateway, 0)
	side, sq, board := c.pick(g)
	if ans := c.tap(g.users[side], board, sq); ans.ShowAlert {
		t.Fatalf("move %v refused: %q", sq, ans.Text)
	}
	if err := c.srv.WaitFor(guard(t), func(v telegramtest.View) bool { return v.Calls("editMessageText") >= edits+6 }); err != nil {
		t.Fatalf("the bots never tried to draw the move: %v", err)
	}
	stale := len(g.ref.moves)
	g.ref.play(t, sq)
	// Each player taps their out-of-date board (the first square the old board offers): told,
	// and the board catches up. A board may have caught up by itself first: the bots check a
	// step's boards a moment after drawing them, and the other bot's check of the step before
	// finds the game moved on and draws it again.
	for _, col := range []engine.Color{side, side.Opponent()} {
		cur, _ := c.srv.Message(g.boards[col].ChatID, g.boards[col].ID)
		if boardPly(cur) != stale {
			t.Logf("board of %v caught up by itself (ply %d)", col, boardPly(cur))
			c.waitPly(g.boards[col], len(g.ref.moves))
			continue
		}
		qid, err := g.users[col].Press(cur, firstMoveButton(t, cur))
		if err != nil {
			if now, _ := c.srv.Message(cur.ChatID, cur.ID); boardPly(now) != stale {
				t.Logf("board of %v caught up by itself as it was tapped", col)
				c.waitPly(g.boards[col], len(g.ref.moves))
				continue
			}
			t.Fatal(err)
		}
		c.wantStaleAlert(qid)
		c.waitPly(g.boards[col], len(g.ref.moves))
	}
	c.finish(g)
}

// wantStaleAlert waits for the answer to the tap qid, made on an out-of-date board, and
// checks that it says so: that the board is about to be redrawn (it is: the tap brings it up
// to date), or else in an alert.
func (c *cluster) wantStaleAlert(qid string) {
	c.t.Helper()
	ans, err := c.srv.WaitCallbackAnswer(guard(c.t), qid)
	if err != nil {
		c.t.Fatalf("tap on an out-of-date board never answered: %v", err)
	}
	if !strings.Contains(ans.Text, "about to be redrawn") && (!ans.ShowAlert || ans.Text == "") {
		c.t.Errorf("tap on an out-of-date board answered %+v, want that it is about to be redrawn, or an alert", ans)
	}
	c.t.Logf("tap on an out-of-date board: answered %q", ans.Text)
}

// firstMoveButton returns the callback data of the first move button of m (any empty square,
// marked or not: the point is a tap on an out-of-date board).
func firstMoveButton(t *testing.T, m telegramtest.ChatMessage) string {
	t.Helper()
	for _, row := range m.Buttons() {
		for _, b := range row {
			if c, ok := callbackOf(b); ok && c.Game != "" && c.Action == callback.ActionMove {
				return b.CallbackData
			}
		}
	}
	t.Fatalf("no legal-move button:%s", dump(m))
	return ""
}

// redisServer is a redis-server process of the test's own, persisting every write (appendfsync
// always) in a directory of the test, so that a kill loses nothing acknowledged.
type redisServer struct {
	t    *testing.T
	bin  string
	port int
	dir  string
	cmd  *exec.Cmd
}

// startRedis starts redis-server on a free loopback port; it skips the test when there is no
// redis-server binary.
func startRedis(t *testing.T) *redisServer {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip("no redis-server binary")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	r := &redisServer{t: t, bin: bin, port: port, dir: t.TempDir()}
	r.start()
	t.Cleanup(r.kill)
	return r
}

func (r *redisServer) url() string { return "redis://127.0.0.1:" + strconv.Itoa(r.port) }

// start runs the server and waits until it answers PING.
func (r *redisServer) start() {
	r.t.Helper()
	r.cmd = exec.Command(r.bin, "--port", strconv.Itoa(r.port), "--bind", "127.0.0.1", "--save", "",
		"--appendonly", "yes", "--appendfsync", "always", "--dir", r.dir, "--protected-mode", "no")
	if err := r.cmd.Start(); err != nil {
		r.t.Fatalf("start redis-server: %v", err)
	}
	client, err := storage.NewClient(r.url())
	if err != nil {
		r.t.Fatal(err)
	}
	defer client.Close()
	waitPing(r.t, storage.New(client, storage.Options{}), fmt.Sprintf("redis-server on port %d", r.port))
}

// waitPing waits until st answers PING (another process's readiness, or a client's
// reconnection), failing the test, which names it what, when it never does.
func waitPing(t *testing.T, st *storage.Store, what string) {
	t.Helper()
	ctx := guard(t)
	tick := time.NewTicker(10 * time.Millisecond) // polling: the server is not ours to signal
	defer tick.Stop()
	for st.Ping(ctx) != nil {
		select {
		case <-ctx.Done():
			t.Fatalf("%s never answered", what)
		case <-tick.C:
		}
	}
}

// kill stops the server with SIGKILL and waits for it; idempotent.
func (r *redisServer) kill() {
	if r.cmd == nil || r.cmd.Process == nil {
		return
	}
	_ = r.cmd.Process.Kill()
	_ = r.cmd.Wait()
	r.cmd = nil
}

// TestRedisRestart plays a game between people through the two bots, kills Redis (SIGKILL)
// in the middle, taps while it is down, and starts it again on the same port and data. The
// tap during the outage is answered with an alert and changes nothing; the same tap after the
// restart is applied; the game then goes on to the end exactly as its reference replay.
func TestRedisRestart(t *testing.T) {
	r := startRedis(t)
	c := newClusterAt(t, r.url())
	g := c.startPeople(21, c.user("Cleo"), c.user("Dan"))
	for range 6 {
		c.step(g)
	}
	r.kill()
	side, sq, board := c.pick(g)
	began := time.Now()
	ans := c.tap(g.users[side], board, sq)
	if !ans.ShowAlert || ans.Text == "" {
		t.Errorf("tap while Redis is down answered %+v, want an alert", ans)
	}
	t.Logf("tap while Redis is down: alert %q after %v", ans.Text, time.Since(began).Round(time.Millisecond))
	if cur, _ := c.srv.Message(board.ChatID, board.ID); boardPly(cur) != len(g.ref.moves) {
		t.Fatalf("board moved to ply %d while Redis was down", boardPly(cur))
	}
	r.start()
	// A client that met many refused dials during the outage (go-redis's pool then dials again
	// only once a second in the background) takes up to a second more to see the server back:
	// the tap comes once both bots' stores answer, as a player's would a moment later.
	for i, st := range c.stores {
		waitPing(t, st, fmt.Sprintf("bot %d's store after the restart", i))
	}
	board, _ = c.srv.Message(board.ChatID, board.ID)
	if ans := c.tap(g.users[side], board, sq); ans.ShowAlert {
		t.Fatalf("the same tap after the restart refused: %q", ans.Text)
	}
	c.played(g, sq)
	c.finish(g)
	// The store saw every game state it acknowledged through the kill.
	if _, err := c.stores[0].Game(context.Background(), g.id); err != nil {
		t.Errorf("game after the restart: %v", err)
	}
}
