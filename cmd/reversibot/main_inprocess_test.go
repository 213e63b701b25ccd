package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/game/gametest"
	"github.com/reversibot/reversi/storage/storagetest"
)

// startMain runs the program in-process with env over a base configuration and returns it
// running; the test's cleanup closes it if the test did not.
func startMain(t *testing.T, env map[string]string, logs *gametest.LogBuffer) *Main {
	t.Helper()
	cfg, err := LoadConfig(func(k string) string { return env[k] })
	if err != nil {
		t.Fatalf("LoadConfig: %v", err)
	}
	m := NewMain(cfg, newLogger(cfg, logs))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := m.Run(ctx); err != nil {
		_ = m.Close()
		t.Fatalf("Run: %v\n%s", err, logs.String())
	}
	t.Cleanup(func() { _ = m.Close() })
	return m
}

// TestMainRestartKeepsTheGame starts the whole program in-process, plays a move against the
// AI, stops it (Close), starts it again on the same Redis and finds the game where it was:
// a restart loses nothing.
func TestMainRestartKeepsTheGame(t *testing.T) {
	redisURL := os.Getenv("REDIS_URL")
	if redisURL == "" {
		redisURL = "redis://" + storagetest.StartScratchServer(t) // the embedded Redis would not outlive Close
	}
	srv := telegramtest.Start(t)
	env := map[string]string{
		"TELEGRAM_BOT_TOKEN": srv.Token(),
		"TELEGRAM_API_URL":   srv.URL(),
		"REDIS_URL":          redisURL,
		"REDIS_PREFIX":       fmt.Sprintf("test:%d:", time.Now().UnixNano()),
		"METRICS_ADDR":       "off",
		"LOG_LEVEL":          "debug",
	}
	var logs gametest.LogBuffer
	defer func() {
		if t.Failed() {
			t.Logf("bot log:\n%s", logs.String())
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	first := startMain(t, env, &logs)
	if first.Bot == nil || first.Worker != nil {
		t.Fatalf("ROLE=bot started Bot %v, Worker %v; want a bot and no worker", first.Bot != nil, first.Worker != nil)
	}
	alice := srv.NewUser("Alice", "en")
	if _, err := alice.Send(alice.ID(), "/ai 8 1 black"); err != nil {
		t.Fatal(err)
	}
	board, err := srv.WaitMessage(ctx, alice.ID(), func(m telegramtest.ChatMessage) bool { return m.ButtonCount() >= 64 })
	if err != nil {
		t.Fatalf("no 8×8 board came: %v", err)
	}
	marks := legalMarks(board)
	if len(marks) == 0 {
		t.Fatalf("board shows no legal move: %v", board.Buttons())
	}
	tapAt(ctx, t, srv, alice, board, marks[0].Row(), marks[0].Col())
	if err := srv.WaitFor(ctx, func(v telegramtest.View) bool {
		m, ok := v.Message(alice.ID(), board.ID)
		return ok && boardPly(m) == 2
	}); err != nil {
		t.Fatalf("board never showed the AI's reply: %v", err)
	}
	if err := first.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	startMain(t, env, &logs)
	seen := len(srv.Messages(alice.ID()))
	if _, err := alice.Send(alice.ID(), "/board"); err != nil {
		t.Fatal(err)
	}
	again, err := srv.WaitMessage(ctx, alice.ID(), func(m telegramtest.ChatMessage) bool {
		return m.ID > board.ID && m.ButtonCount() >= 64
	})
	if err != nil {
		t.Fatalf("after the restart /board posted no board (%d messages before): %v", seen, err)
	}
	if got := boardPly(again); got != 2 {
		t.Errorf("after the restart the board is at ply %d, want 2 (the move and the AI's reply)", got)
	}
	if strings.Contains(logs.String(), srv.Token()) {
		t.Error("the log contains the bot token")
	}
}
