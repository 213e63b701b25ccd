package bot

import (
	"context"
	"strings"
	"testing"

	"github.com/go-telegram/bot/models"
)

func TestRecoverApologizes(t *testing.T) {
	var lines logLines
	var sorry []int64
	apologize := func(_ context.Context, u *models.Update) { sorry = append(sorry, u.ID) }
	h := recoverPanics(lines.logger(), apologize)(func(context.Context, *models.Update) { panic("boom") })
	o := outcomeAfter(h, tapUpdate(5, 1)) // returns: the panic does not escape
	if o.name != outcomeError || o.err == nil || !strings.Contains(o.err.Error(), "boom") {
		t.Fatalf("outcome %s (%v), want error with the panic", o.name, o.err)
	}
	if len(sorry) != 1 || sorry[0] != 5 {
		t.Fatalf("apologies %v, want one for update 5", sorry)
	}
	ls := lines.lines(t, "panic in handler")
	if len(ls) != 1 || ls[0]["panic"] != "boom" || !strings.Contains(ls[0]["stack"].(string), "recover_internal_test.go") {
		t.Fatalf("panic log lines %v, want one with the panic and its stack", ls)
	}
}

// A handler that returns normally is untouched, and an apology that panics too is swallowed.
func TestRecoverQuiet(t *testing.T) {
	apologize := func(context.Context, *models.Update) { panic("again") }
	var c counter
	if o := outcomeAfter(recoverPanics(discard, apologize)(c.handle), tapUpdate(1, 1)); o.name != outcomeOK || c.calls() != 1 {
		t.Fatalf("normal handler: %s, %d calls", o.name, c.calls())
	}
	h := recoverPanics(discard, apologize)(func(context.Context, *models.Update) { panic("boom") })
	if o := outcomeAfter(h, tapUpdate(2, 1)); o.name != outcomeError {
		t.Fatalf("outcome %s, want error", o.name)
	}
}
