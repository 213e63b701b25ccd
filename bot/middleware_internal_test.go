package bot

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/game/gametest"
)

// The middlewares' unit tests: no Redis, no Telegram, one middleware (and the outcome
// tracking of logUpdates) at a time.

// tapUpdate is a button tap of user as update id.
func tapUpdate(id, user int64) *models.Update {
	return &models.Update{ID: id, CallbackQuery: &models.CallbackQuery{ID: "q", From: models.User{ID: user}}}
}

// discard is a logger that writes nothing.
var discard = slog.New(slog.NewTextHandler(io.Discard, nil))

// logLines is a logger writing JSON lines to a buffer, and a way to read them back.
type logLines struct {
	buf gametest.LogBuffer
}

func (l *logLines) logger() *slog.Logger {
	return slog.New(slog.NewJSONHandler(&l.buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// lines returns the lines with message msg, decoded.
func (l *logLines) lines(t *testing.T, msg string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, s := range strings.Split(strings.TrimSpace(l.buf.String()), "\n") {
		if s == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			t.Fatalf("log line %q: %v", s, err)
		}
		if m["msg"] == msg {
			out = append(out, m)
		}
	}
	return out
}

// outcomeAfter runs u through h with an outcome tracked and returns it.
func outcomeAfter(h UpdateHandler, u *models.Update) *outcome {
	ctx, o := trackOutcome(context.Background())
	h(ctx, u)
	return o
}

// counter is a handler that counts its calls.
type counter struct {
	mu sync.Mutex
	n  int
}

func (c *counter) handle(context.Context, *models.Update) {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

func (c *counter) calls() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

func TestChainOrder(t *testing.T) {
	var order []string
	mark := func(name string) UpdateMiddleware {
		return func(next UpdateHandler) UpdateHandler {
			return func(ctx context.Context, u *models.Update) {
				order = append(order, name)
				next(ctx, u)
			}
		}
	}
	chain(func(context.Context, *models.Update) { order = append(order, "h") }, mark("a"), mark("b"))(context.Background(), tapUpdate(1, 1))
	if got := strings.Join(order, ","); got != "a,b,h" {
		t.Fatalf("order %s, want a,b,h (the first middleware outermost)", got)
	}
}
