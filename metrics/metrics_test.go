package metrics

import (
	"errors"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestHandlerExposesRecordedValues(t *testing.T) {
	m := New()
	m.Update("message", "ok", 3*time.Millisecond)
	m.Move("human")
	m.Move("ai")
	m.Move("ai")
	m.GameStarted("ai")
	m.GameFinished("group", "resign")
	m.AIThink("6", 800*time.Millisecond)
	m.TelegramError("editMessageText", "too_many_requests")
	m.PaceWait("turn", 2*time.Second)
	m.RedisCall("evalsha", time.Millisecond, errors.New("down"))

	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	for _, want := range []string{
		`reversi_updates_total{outcome="ok",type="message"} 1`,
		`reversi_moves_total{by="ai"} 2`,
		`reversi_games_started_total{flow="ai"} 1`,
		`reversi_games_finished_total{flow="group",reason="resign"} 1`,
		`reversi_ai_think_seconds_count{level="6"} 1`,
		`reversi_telegram_errors_total{kind="too_many_requests",method="editMessageText"} 1`,
		`reversi_redis_duration_seconds_count{command="evalsha",outcome="error"} 1`,
		`reversi_pace_wait_seconds_bucket{kind="turn",le="2"} 1`,
		`go_goroutines`,
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("metrics output lacks %q", want)
		}
	}
}

func TestNilMetricsRecordNothing(t *testing.T) {
	var m *Metrics
	m.Update("message", "ok", time.Second)
	m.Move("human")
	m.GameStarted("ai")
	m.GameFinished("ai", "normal")
	m.AIThink("1", time.Millisecond)
	m.PaceWait("info", time.Millisecond)
	m.TelegramError("sendMessage", "network")
	m.RedisCall("get", time.Millisecond, nil)
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != 404 {
		t.Errorf("nil Metrics handler status = %d, want 404", rec.Code)
	}
}
