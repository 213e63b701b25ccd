package main

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"
)

func TestRedactingHandlerHidesSecrets(t *testing.T) {
	var buf bytes.Buffer
	token := "123456:AAbbCCddEEffGGhhIIjjKKllMMnn"
	log := slog.New(newRedactingHandler(slog.NewJSONHandler(&buf, nil), token, "hooksecret", ""))
	log = log.With("bot", "url https://api.telegram.org/bot"+token+"/getMe")
	log.Info("calling https://api.telegram.org/bot"+token+"/sendMessage",
		"err", errors.New("Post \"https://api.telegram.org/bot"+token+"/x\": dial tcp: refused"),
		slog.Group("req", "secret", "hooksecret", "n", 3),
		"any", struct{ S string }{token})
	out := buf.String()
	if strings.Contains(out, token) || strings.Contains(out, "hooksecret") {
		t.Fatalf("log line leaks a secret: %s", out)
	}
	if strings.Count(out, "[REDACTED]") < 5 {
		t.Errorf("log line %s: want every secret replaced by [REDACTED]", out)
	}
	if !strings.Contains(out, `"n":3`) {
		t.Errorf("log line %s lost a plain attribute", out)
	}
}
