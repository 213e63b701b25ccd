package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reversibot/reversi/bot/present"
	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/game/gametest"
	"github.com/reversibot/reversi/storage"
)

// proc is a reversibot process started by a test.
type proc struct {
	name   string
	cmd    *exec.Cmd
	logs   *gametest.LogBuffer
	exited chan error
}

// startProc starts bin with the test's environment plus env; it is killed when the test ends
// if it still runs, and its log is printed if the test failed.
func startProc(t *testing.T, name, bin string, env ...string) *proc {
	t.Helper()
	p := &proc{name: name, cmd: exec.Command(bin), logs: &gametest.LogBuffer{}, exited: make(chan error, 1)}
	p.cmd.Env = append(os.Environ(), env...)
	p.cmd.Stdout, p.cmd.Stderr = p.logs, p.logs
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.exited <- p.cmd.Wait() }()
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			_ = p.cmd.Process.Kill()
			<-p.exited
		}
		if t.Failed() {
			t.Logf("%s log:\n%s", p.name, p.logs.String())
		}
	})
	return p
}

// stop sends sig and waits for the process to exit; it returns what Wait returned.
func (p *proc) stop(t *testing.T, sig syscall.Signal) error {
	t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatalf("signal %s: %v", p.name, err)
	}
	select {
	case err := <-p.exited:
		return err
	case <-time.After(30 * time.Second):
		t.Fatalf("%s did not exit after %v", p.name, sig)
		return nil
	}
}

// legalMarks returns the squares an 8×8 board message marks as legal moves.
func legalMarks(m telegramtest.ChatMessage) []engine.Square {
	var out []engine.Square
	rows := m.Buttons()
	for r := 0; r < 8 && r < len(rows); r++ {
		for c, b := range rows[r] {
			if b.Text == present.LegalMark {
				out = append(out, engine.SquareAt(c, r))
			}
		}
	}
	return out
}

// pollUntil checks cond every few milliseconds until it holds or ctx ends.
func pollUntil(ctx context.Context, t *testing.T, what string, cond func() bool) {
	t.Helper()
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatalf("%s: never happened", what)
		case <-tick.C:
		}
	}
}

// TestWorkerKilledMidSearch: a bot with AI_MODE=remote and an AI worker, each a real process on
// the Redis at REDIS_URL. The worker is killed (SIGKILL) in the middle of a level-6 search; a
// second worker takes the job over once AI_CLAIM_AFTER has passed, the AI's move arrives, and
// the player plays on.
func TestWorkerKilledMidSearch(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	redisURL := os.Getenv("REDIS_URL")
	if redisURL == "" {
		t.Skip("REDIS_URL is not set: the bot and its workers are separate processes, which an embedded Redis cannot join")
	}
	bin := buildBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()

	prefix := fmt.Sprintf("test:fault:%d:", time.Now().UnixNano())
	store, err := storage.Open(ctx, redisURL, storage.Options{Prefix: prefix})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	defer func() {
		// The job stream has no TTL; everything else of the test expires by itself.
		_ = store.Client().Del(context.Background(), store.AIJobStream()).Err()
	}()

	srv := telegramtest.Start(t)
	common := []string{"REDIS_URL=" + redisURL, "REDIS_PREFIX=" + prefix, "LOG_LEVEL=debug",
		"AI_CLAIM_AFTER=3s", "AI_BOOK=off", "WEBHOOK_URL=", "METRICS_ADDR=off"}
	bot := startProc(t, "bot", bin, append(common, "TELEGRAM_BOT_TOKEN="+srv.Token(),
		"TELEGRAM_API_URL="+srv.URL(), "AI_MODE=remote")...)
	healthAddr := freeAddr(t)
	worker1 := startProc(t, "worker 1", bin, append(common, "ROLE=worker", "AI_WORKERS=1", "METRICS_ADDR="+healthAddr)...)

	if err := srv.WaitFor(ctx, func(v telegramtest.View) bool { return v.Calls("getUpdates") > 0 }); err != nil {
		t.Fatalf("bot never polled: %v", err)
	}
	pollUntil(ctx, t, "worker 1 answers /healthz", func() bool {
		return strings.Contains(worker1.logs.String(), "AI worker taking jobs")
	})
	if code, body := get(t, "http://"+healthAddr+"/healthz"); code != 200 {
		t.Errorf("worker /healthz = %d %q, want 200", code, body)
	}

	alice := srv.NewUser("Alice", "en")
	game := func() *game.Game {
		g, err := store.GameByChat(ctx, alice.ID())
		if err != nil {
			t.Fatalf("the game of Alice's chat: %v", err)
		}
		return g
	}
	// boardFor waits until the board message shows Alice to move after n moves, and returns it.
	boardFor := func(id, n int) telegramtest.ChatMessage {
		t.Helper()
		var board telegramtest.ChatMessage
		pollUntil(ctx, t, fmt.Sprintf("the game reaches %d moves", n), func() bool { return len(game().Moves) >= n })
		g := game()
		if len(g.Moves) != n {
			t.Fatalf("game has %d moves, want %d", len(g.Moves), n)
		}
		moves := make([]engine.Square, len(g.Moves))
		for i, b := range g.Moves {
			moves[i] = engine.Square(b)
		}
		eg, err := engine.Replay(8, moves)
		if err != nil {
			t.Fatal(err)
		}
		want := eg.Position().LegalMoves()
		slices.Sort(want)
		err = srv.WaitFor(ctx, func(v telegramtest.View) bool {
			m, ok := v.Message(alice.ID(), id)
			got := legalMarks(m)
			slices.Sort(got)
			board = m
			return ok && len(got) > 0 && slices.Equal(got, want)
		})
		if err != nil {
			t.Fatalf("the board never showed Alice's moves after %d moves: %v", n, err)
		}
		return board
	}

	if _, err := alice.Send(alice.ID(), "/ai 8 6 black"); err != nil {
		t.Fatal(err)
	}
	board, err := srv.WaitMessage(ctx, alice.ID(), func(m telegramtest.ChatMessage) bool { return m.ButtonCount() >= 64 })
	if err != nil {
		t.Fatalf("no 8×8 board came: %v", err)
	}
	board = boardFor(board.ID, 0)
	play := func(board telegramtest.ChatMessage) {
		t.Helper()
		sq := legalMarks(board)[0]
		tapAt(ctx, t, srv, alice, board, sq.Row(), sq.Col())
	}

	// Alice moves; worker 1 takes the AI's job and searches for about a second: kill it then.
	play(board)
	pollUntil(ctx, t, "worker 1 takes the AI's job", func() bool {
		n, err := store.PendingAIJobs(ctx)
		return err == nil && n > 0
	})
	if err := worker1.stop(t, syscall.SIGKILL); err == nil {
		t.Fatal("worker 1 exited cleanly, want killed")
	}
	if n, err := store.PendingAIJobs(ctx); err != nil || n != 1 {
		t.Fatalf("after the kill %d jobs are pending (%v), want 1: worker 1 answered before it died", n, err)
	}
	if n := len(game().Moves); n != 1 {
		t.Fatalf("after the kill the game has %d moves, want 1 (the AI's move is not in yet)", n)
	}

	// A second worker takes the job over; the AI's move arrives and Alice plays on.
	metricsAddr := freeAddr(t)
	worker2 := startProc(t, "worker 2", bin, append(common, "ROLE=worker", "AI_WORKERS=2", "METRICS_ADDR="+metricsAddr)...)
	board = boardFor(board.ID, 2)
	play(board)
	boardFor(board.ID, 4)
	// The worker acknowledges a job after posting its answer, so the board may show the move
	// a moment before the job leaves the pending list and the worker's metrics count it.
	pollUntil(ctx, t, "no job pending at the end", func() bool {
		n, err := store.PendingAIJobs(ctx)
		return err == nil && n == 0
	})
	if !strings.Contains(worker2.logs.String(), "took over a job another worker left") {
		t.Error("worker 2's log does not say it took over the dead worker's job")
	}
	wants := []string{`reversi_worker_jobs_total{kind="move",outcome="ok"} 2`, "reversi_worker_busy 0",
		`reversi_ai_think_seconds_count{level="6"} 2`}
	pollUntil(ctx, t, "worker 2's /metrics shows "+strings.Join(wants, ", "), func() bool {
		_, metrics := get(t, "http://"+metricsAddr+"/metrics")
		for _, want := range wants {
			if !strings.Contains(metrics, want) {
				return false
			}
		}
		return true
	})

	for _, p := range []*proc{bot, worker2} {
		if err := p.stop(t, syscall.SIGTERM); err != nil {
			t.Errorf("after SIGTERM %s exited with %v, want 0", p.name, err)
		}
		if !strings.Contains(p.logs.String(), "stopped cleanly") {
			t.Errorf("%s log lacks the clean-stop line", p.name)
		}
		if strings.Contains(p.logs.String(), srv.Token()) {
			t.Errorf("%s log contains the bot token", p.name)
		}
	}
}
