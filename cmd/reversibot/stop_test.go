package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reversibot/reversi/bot/telegramtest"
)

// TestStopUnderLoadKeepsItsGrace: the real binary, busy in many private chats whose board
// edits the flood limits hold back (a private chat's budget is two messages an hour here, so
// every edit after a game's first board and its buttons waits), stops on SIGTERM within STOP_GRACE, exits 0
// and logs what it was waiting for by name and count. Edits that only wait for budget are
// dropped, not waited for: the next tap on such a board redraws it (callbacks.go, catchUp).
func TestStopUnderLoadKeepsItsGrace(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	const grace = 4 * time.Second
	const chats = 24
	bin := buildBinary(t)
	srv := telegramtest.Start(t)
	p := startProc(t, "bot", bin,
		"TELEGRAM_BOT_TOKEN="+srv.Token(),
		"TELEGRAM_API_URL="+srv.URL(),
		"REDIS_URL="+os.Getenv("REDIS_URL"),
		fmt.Sprintf("REDIS_PREFIX=test:%d:", time.Now().UnixNano()),
		"METRICS_ADDR=off",
		"WEBHOOK_URL=",
		"LOG_LEVEL=info",
		"PACE_PRIVATE=1/h:2", // a board is posted, then given its buttons: two messages
		"STOP_GRACE="+grace.String(),
	)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()

	users := make([]*telegramtest.Person, chats)
	for i := range users {
		users[i] = srv.NewUser(fmt.Sprintf("P%d", i), "en")
		if _, err := users[i].Send(users[i].ID(), "/ai 8 1 black"); err != nil {
			t.Fatal(err)
		}
	}
	for _, u := range users {
		board, err := srv.WaitMessage(ctx, u.ID(), func(m telegramtest.ChatMessage) bool { return m.ButtonCount() >= 64 })
		if err != nil {
			t.Fatalf("no board came in %d's chat: %v; calls %v", u.ID(), err, srv.Messages(u.ID()))
		}
		sq := legalMarks(board)
		if len(sq) == 0 {
			t.Fatalf("board shows no legal move: %v", board.Buttons())
		}
		// The tap is answered (the board is held back, the answer says so) while the edit
		// that shows the move waits for the chat's budget: an hour.
		tapAt(ctx, t, srv, u, board, sq[0].Row(), sq[0].Col())
	}
	// More updates that wait for the chat's budget in their handlers.
	for _, u := range users {
		if _, err := u.Send(u.ID(), "/help"); err != nil {
			t.Fatal(err)
		}
	}
	if err := srv.WaitFor(ctx, func(v telegramtest.View) bool { return v.PendingUpdates() == 0 }); err != nil {
		t.Fatalf("the bot never took the updates: %v", err)
	}

	begin := time.Now()
	err := p.stop(t, syscall.SIGTERM)
	took := time.Since(begin)
	if err != nil {
		t.Errorf("after SIGTERM the bot exited with %v, want 0", err)
	}
	if took >= grace {
		t.Errorf("the stop took %v, want less than STOP_GRACE=%v", took, grace)
	}
	out := p.logs.String()
	line := regexp.MustCompile(`"msg":"stop: done waiting"[^\n]*"began_with":"([^"]*)"`).FindStringSubmatch(out)
	if line == nil {
		t.Fatalf("the log has no line of what the stop waited for")
	}
	if !regexp.MustCompile(`\d+ board edits? \(\d+ queued\)`).MatchString(line[1]) {
		t.Errorf("the stop began with %q, want the board edits held by the flood limits named with their count", line[1])
	}
	if !strings.Contains(out, "stopped cleanly") {
		t.Errorf("log lacks the clean-stop line")
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Error("the test ran out of time")
	}
}
