package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/bot/present"
	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/game/gametest"
)

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// buildBinary builds the reversibot binary into a temporary directory.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "reversibot")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestBinaryPlaysAndStopsCleanly builds the real binary, runs it against the fake Bot API (and the
// Redis at REDIS_URL, or its embedded one), plays a move against the AI, scrapes /healthz and
// /metrics, then stops it with SIGTERM and expects a clean exit.
func TestBinaryPlaysAndStopsCleanly(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildBinary(t)

	srv := telegramtest.Start(t)
	metricsAddr := freeAddr(t)
	var logs gametest.LogBuffer
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(),
		"TELEGRAM_BOT_TOKEN="+srv.Token(),
		"TELEGRAM_API_URL="+srv.URL(),
		"REDIS_URL="+os.Getenv("REDIS_URL"),
		fmt.Sprintf("REDIS_PREFIX=test:%d:", time.Now().UnixNano()),
		"METRICS_ADDR="+metricsAddr,
		"WEBHOOK_URL=",
		"LOG_LEVEL=debug",
	)
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			<-exited
		}
		if t.Failed() {
			t.Logf("bot log:\n%s", logs.String())
		}
	}()

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := srv.WaitFor(ctx, func(v telegramtest.View) bool { return v.Calls("getUpdates") > 0 }); err != nil {
		t.Fatalf("bot never polled: %v", err)
	}
	if len(srv.Commands("")) == 0 || len(srv.Commands("ru")) == 0 {
		t.Errorf("commands registered: en %d, ru %d; want both languages", len(srv.Commands("")), len(srv.Commands("ru")))
	}

	alice := srv.NewUser("Alice", "en")
	if _, err := alice.Send(alice.ID(), "/ai 8 1 black"); err != nil {
		t.Fatal(err)
	}
	board, err := srv.WaitMessage(ctx, alice.ID(), func(m telegramtest.ChatMessage) bool { return m.ButtonCount() >= 64 })
	if err != nil {
		t.Fatalf("no 8×8 board came: %v", err)
	}
	moveRow, moveCol := -1, -1
	for r, row := range board.Buttons()[:8] {
		for c, b := range row {
			if b.Text == present.LegalMark {
				moveRow, moveCol = r, c
			}
		}
	}
	if moveRow < 0 {
		t.Fatalf("board shows no legal move mark: %v", board.Buttons())
	}
	before := board.Content()
	tapAt(ctx, t, srv, alice, board, moveRow, moveCol)
	// The board shows the AI's reply (ply 2) before the game is resigned, so the AI's move
	// is in the metrics below.
	if err := srv.WaitFor(ctx, func(v telegramtest.View) bool {
		m, ok := v.Message(alice.ID(), board.ID)
		return ok && m.Content() != before && boardPly(m) == 2
	}); err != nil {
		t.Fatalf("board never showed the AI's reply to the move: %v", err)
	}

	// Finish the game: resignation ends it with a result and the record.
	if _, err := alice.Send(alice.ID(), "/resign"); err != nil {
		t.Fatal(err)
	}
	if err := srv.WaitFor(ctx, func(v telegramtest.View) bool {
		m, ok := v.Message(alice.ID(), board.ID)
		return ok && strings.Contains(m.Content(), "Moves: 1. ")
	}); err != nil {
		t.Fatalf("the game never ended after /resign: %v", err)
	}

	if code, body := get(t, "http://"+metricsAddr+"/healthz"); code != 200 {
		t.Errorf("/healthz = %d %q, want 200", code, body)
	}
	_, metrics := get(t, "http://"+metricsAddr+"/metrics")
	for _, want := range []string{
		`reversi_updates_total{outcome="ok",type="message"}`, `reversi_updates_total{outcome="ok",type="callback_query"}`,
		`reversi_moves_total{by="human"} 1`, `reversi_moves_total{by="ai"}`,
		`reversi_games_started_total{flow="ai"} 1`, `reversi_games_finished_total{flow="ai",reason="resign"} 1`,
		"reversi_ai_think_seconds_count", "reversi_redis_duration_seconds_count",
	} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("after SIGTERM the bot exited with %v, want 0", err)
		}
	case <-ctx.Done():
		t.Fatal("bot did not stop after SIGTERM")
	}
	out := logs.String()
	if strings.Contains(out, srv.Token()) {
		t.Error("the log contains the bot token")
	}
	if n := strings.Count(out, `"msg":"update"`); n < 3 {
		t.Errorf("log has %d update lines, want one per handled update (at least 3)", n)
	}
	if !strings.Contains(out, `"outcome":"ok"`) {
		t.Errorf("update log lines lack their outcome")
	}
	if !strings.Contains(out, "stopped cleanly") {
		t.Errorf("log lacks the clean-stop line")
	}
}

// boardPly is the ply the game buttons of board message m carry, -1 when it has none.
func boardPly(m telegramtest.ChatMessage) int {
	for _, row := range m.Buttons() {
		for _, b := range row {
			if c, err := callback.Parse(b.CallbackData); err == nil && c.Game != "" {
				return c.Ply
			}
		}
	}
	return -1
}

// tapAt has u tap the square (row, col) of board and waits until srv sees the bot answer the
// tap, failing t when the tap cannot be made or is never answered before ctx ends.
func tapAt(ctx context.Context, t *testing.T, srv *telegramtest.Server, u *telegramtest.Person, board telegramtest.ChatMessage, row, col int) {
	t.Helper()
	qid, err := u.PressAt(board, row, col)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.WaitCallbackAnswer(ctx, qid); err != nil {
		t.Fatalf("tap never answered: %v", err)
	}
}
