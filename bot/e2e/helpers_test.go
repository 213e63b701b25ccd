package e2e_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game/gametest"
	"github.com/reversibot/reversi/render"
	"github.com/reversibot/reversi/storage"
	"github.com/reversibot/reversi/storage/storagetest"
	"github.com/reversibot/reversi/webapp/webapptest"
)

func TestMain(m *testing.M) {
	storagetest.QuietLogs()
	webapptest.VerifyTestMain(m, gametest.IdleHTTP...) // closes the shared browser first
}

// How much faster than Telegram's the flood limits of the fake server refill in these tests, and
// the bots' pacing with them: the fake enforces the limits in every test. The bots pace a fifth
// slower than the fake allows, since at this speed the scheduling jitter of a loaded machine is
// as long as a budget's whole margin; the tests of the pacing itself (pace_test.go) run both at
// one, slower, speed and fail on any 429.
const (
	speedup     = 100
	paceSpeedup = 80
)

// startLimited starts the fake Bot API server enforcing Telegram's flood limits k times as
// fast. When the test ends it fails the test if strict and the fake answered any call with a
// 429, else logs them (at a high speed a loaded machine's jitter can spend a budget's margin).
func startLimited(t *testing.T, k int, strict bool) *telegramtest.Server {
	t.Helper()
	srv := telegramtest.Start(t, telegramtest.WithFloodLimits(telegramtest.DefaultFloodLimits.Faster(k)))
	t.Cleanup(func() {
		st := srv.TooManyRequests()
		switch {
		case st.Total > 0 && strict:
			t.Errorf("the fake answered %d calls with 429: %v", st.Total, st.Chats)
		case st.Total > 0:
			t.Logf("the fake answered %d calls with 429: %v", st.Total, st.Chats)
		}
	})
	return srv
}

// firstMover plays the lowest legal square; its hint is the highest.
type firstMover = gametest.FirstMover

// redisURL is where the shared Redis of a test lives: REDIS_URL, or an embedded server.
func redisURL(t *testing.T) string {
	t.Helper()
	if u := os.Getenv("REDIS_URL"); u != "" {
		return u
	}
	_, m := storagetest.NewLive(t)
	return "redis://" + m.Addr()
}

// newPrefix returns a key prefix no other test uses.
func newPrefix() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "e2e:" + hex.EncodeToString(b[:]) + ":"
}

// openStoresAt returns n stores, each with its own connections (as n processes would have),
// over one Redis database and the key prefix, whose keys are deleted when the test ends.
func openStoresAt(t *testing.T, url, prefix string, n int) []*storage.Store {
	t.Helper()
	var out []*storage.Store
	for range n {
		client, err := storage.NewClient(url)
		if err != nil {
			t.Fatalf("redis client: %v", err)
		}
		t.Cleanup(func() { client.Close() })
		s := storage.New(client, storage.Options{Prefix: prefix})
		if err := s.Ping(context.Background()); err != nil {
			t.Fatalf("redis %s: %v", url, err)
		}
		out = append(out, s)
	}
	t.Cleanup(func() {
		if _, err := out[0].DeleteAll(context.Background()); err != nil {
			t.Errorf("clean up %s*: %v", prefix, err)
		}
	})
	return out
}

// logBuffer is a log sink shared by the bots of a test.
type logBuffer struct{ gametest.LogBuffer }

// logger writes text lines tagged with the process name into l.
func (l *logBuffer) logger(name string) *slog.Logger {
	return slog.New(slog.NewTextHandler(l, nil)).With("proc", name)
}

// guard bounds a wait that should succeed; it is a failing guard, not a synchronisation tool.
func guard(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// callbackOf parses the callback data of b; ok is false for a button without valid data.
func callbackOf(b models.InlineKeyboardButton) (callback.Data, bool) {
	c, err := callback.Parse(b.CallbackData)
	return c, err == nil
}

// boardPly is the ply carried by the game buttons of m, -1 when it has none.
func boardPly(m telegramtest.ChatMessage) int {
	for _, row := range m.Buttons() {
		for _, b := range row {
			if c, ok := callbackOf(b); ok && c.Game != "" {
				return c.Ply
			}
		}
	}
	return -1
}

// gameID is the game named by m's buttons, "" when none.
func gameID(m telegramtest.ChatMessage) string {
	for _, row := range m.Buttons() {
		for _, b := range row {
			if c, ok := callbackOf(b); ok && c.Game != "" {
				return c.Game
			}
		}
	}
	return ""
}

// moveButton returns the button of m that plays sq.
func moveButton(m telegramtest.ChatMessage, sq engine.Square) (models.InlineKeyboardButton, bool) {
	for _, row := range m.Buttons() {
		for _, b := range row {
			if c, ok := callbackOf(b); ok && c.Action == callback.ActionMove && c.Square == sq {
				return b, true
			}
		}
	}
	return models.InlineKeyboardButton{}, false
}

// shownBoard reads the discs of an 8×8 keyboard board as position text (X black, O white,
// - empty), row 1 first.
func shownBoard(m telegramtest.ChatMessage) string {
	var sb strings.Builder
	rows := m.Buttons()
	for r := 0; r < 8 && r < len(rows); r++ {
		for _, b := range rows[r] {
			switch {
			case strings.Contains(b.Text, render.BlackDisc):
				sb.WriteByte('X')
			case strings.Contains(b.Text, render.WhiteDisc):
				sb.WriteByte('O')
			default:
				sb.WriteByte('-')
			}
		}
	}
	return sb.String()
}

// positionText is p as shownBoard writes it.
func positionText(p engine.Position) string { return p.BoardText() }

// dump describes messages for failure output.
func dump(ms ...telegramtest.ChatMessage) string {
	var sb strings.Builder
	for _, m := range ms {
		fmt.Fprintf(&sb, "\n[%d/%d edits=%d] %s\n", m.ChatID, m.ID, m.Edits, m.Content())
		for _, row := range m.Buttons() {
			for _, b := range row {
				fmt.Fprintf(&sb, " [%s|%s%s]", b.Text, b.CallbackData, b.URL)
			}
			sb.WriteString("\n")
		}
	}
	return sb.String()
}
