package main

import (
	"context"
	"log/slog"
	"strings"
)

// redactingHandler wraps a slog.Handler and replaces every occurrence of a secret (the bot token,
// the webhook secret) in messages and string attributes, so no log line can leak them — not even
// an error from the HTTP client that quotes a request URL.
type redactingHandler struct {
	next    slog.Handler
	secrets []string
}

// newRedactingHandler returns next with the non-empty secrets masked.
func newRedactingHandler(next slog.Handler, secrets ...string) slog.Handler {
	var keep []string
	for _, s := range secrets {
		if s != "" {
			keep = append(keep, s)
		}
	}
	return &redactingHandler{next: next, secrets: keep}
}

func (h *redactingHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.next.Enabled(ctx, l)
}

func (h *redactingHandler) Handle(ctx context.Context, r slog.Record) error {
	clean := slog.NewRecord(r.Time, r.Level, h.redact(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		clean.AddAttrs(h.redactAttr(a))
		return true
	})
	return h.next.Handle(ctx, clean)
}

func (h *redactingHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	clean := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		clean[i] = h.redactAttr(a)
	}
	return &redactingHandler{next: h.next.WithAttrs(clean), secrets: h.secrets}
}

func (h *redactingHandler) WithGroup(name string) slog.Handler {
	return &redactingHandler{next: h.next.WithGroup(name), secrets: h.secrets}
}

func (h *redactingHandler) redact(s string) string {
	for _, secret := range h.secrets {
		s = strings.ReplaceAll(s, secret, "[REDACTED]")
	}
	return s
}

func (h *redactingHandler) redactAttr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, h.redact(v.String()))
	case slog.KindGroup:
		attrs := v.Group()
		clean := make([]any, len(attrs))
		for i, g := range attrs {
			clean[i] = h.redactAttr(g)
		}
		return slog.Group(a.Key, clean...)
	case slog.KindAny:
		if err, ok := v.Any().(error); ok {
			return slog.String(a.Key, h.redact(err.Error()))
		}
		return slog.String(a.Key, h.redact(v.String()))
	}
	return slog.Attr{Key: a.Key, Value: v}
}
