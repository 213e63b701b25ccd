package bot

import (
	"context"
	"errors"
	"testing"

	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/optional"
	"github.com/reversibot/reversi/metrics"
)

func TestLogLineHasOutcome(t *testing.T) {
	var lines logLines
	redact := func(err error) string { return "redacted: " + err.Error() }
	failing := func(ctx context.Context, _ *models.Update) { setOutcome(ctx, outcomeError, errors.New("T0KEN")) }
	logUpdates(lines.logger(), redact)(func(context.Context, *models.Update) {})(context.Background(), tapUpdate(1, 42))
	logUpdates(lines.logger(), redact)(failing)(context.Background(), tapUpdate(2, 42))
	// The outcome set inside a dedupe below the log line reaches it.
	h := chain(func(context.Context, *models.Update) {}, logUpdates(lines.logger(), redact), dedupe(&seenSet{seen: map[int64]bool{1: true}}, optional.New(discard)))
	h(context.Background(), tapUpdate(1, 42))
	ls := lines.lines(t, "update")
	if len(ls) != 3 {
		t.Fatalf("%d update lines, want 3", len(ls))
	}
	want := []struct{ outcome, level, err string }{{"ok", "INFO", ""}, {"error", "WARN", "redacted: T0KEN"}, {"duplicate", "INFO", ""}}
	for i, w := range want {
		l := ls[i]
		if l["outcome"] != w.outcome || l["level"] != w.level || l["kind"] != "callback_query" || l["user"] != 42.0 || l["took"] == nil {
			t.Errorf("line %d: %v; want outcome %s at %s, kind, user and took", i, l, w.outcome, w.level)
		}
		if got, _ := l["err"].(string); got != w.err {
			t.Errorf("line %d: err %q, want %q", i, got, w.err)
		}
	}
}

func TestMetricsCountOutcome(t *testing.T) {
	m := metrics.New()
	h := chain(func(context.Context, *models.Update) {}, countUpdates(m), dedupe(&seenSet{seen: map[int64]bool{}}, optional.New(discard)))
	h(context.Background(), tapUpdate(1, 1))
	h(context.Background(), tapUpdate(1, 1))
	h(context.Background(), tapUpdate(2, 1))
	mfs, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]float64{}
	var timed uint64
	for _, mf := range mfs {
		for _, s := range mf.GetMetric() {
			switch mf.GetName() {
			case "reversi_updates_total":
				labels := map[string]string{}
				for _, l := range s.GetLabel() {
					labels[l.GetName()] = l.GetValue()
				}
				counts[labels["type"]+"/"+labels["outcome"]] += s.GetCounter().GetValue()
			case "reversi_update_duration_seconds":
				timed += s.GetHistogram().GetSampleCount()
			}
		}
	}
	if len(counts) != 2 || counts["callback_query/ok"] != 2 || counts["callback_query/duplicate"] != 1 || timed != 3 {
		t.Fatalf("counted %v and %d timings; want 2 ok, 1 duplicate, 3 timings", counts, timed)
	}
	// Without metrics it records nothing and does not fail.
	chain(func(context.Context, *models.Update) {}, countUpdates(nil))(context.Background(), tapUpdate(3, 1))
}
