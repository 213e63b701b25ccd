package bot_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/reversibot/reversi/bot/telegramtest"
)

// TestPollConfirmsOnlyTakenUpdates: with every handler busy, long polling takes no more
// updates, and an update it has fetched but not yet handed to a handler is not confirmed. A
// process stopped then leaves it to the next process, which handles it.
func TestPollConfirmsOnlyTakenUpdates(t *testing.T) {
	mover := &blockingMover{started: make(chan struct{}), release: make(chan struct{})}
	h := newHarness(t, func(o *options) { o.Mover, o.MaxHandlers = mover, 1 })
	alice := h.user("Alice", "en")
	bob := h.user("Bob", "en")
	h.send(alice, alice.ID(), "/ai 6x6 1 white") // the AI moves first, in /ai's handler: the one slot
	select {
	case <-mover.started:
	case <-h.guard().Done():
		t.Fatal("the AI never started")
	}
	polls := func(v telegramtest.View) (n int, last telegramtest.Call) {
		for _, c := range v.CallLog() {
			if c.Method == "getUpdates" {
				n, last = n+1, c
			}
		}
		return n, last
	}
	var before int
	_ = h.srv.WaitFor(h.guard(), func(v telegramtest.View) bool { before, _ = polls(v); return true })
	h.send(bob, bob.ID(), "/lang ru")
	// Wait for the answer of the getUpdates that fetches Bob's update (the long poll under way
	// answers as soon as it is queued; calls are logged when answered).
	var asked int64
	if err := h.srv.WaitFor(h.guard(), func(v telegramtest.View) bool {
		n, last := polls(v)
		asked, _ = strconv.ParseInt(last.Params["offset"], 10, 64)
		return n > before
	}); err != nil {
		t.Fatal("the bot never polled for Bob's update")
	}
	// Stop hard: the blocked handler is cancelled; Bob's update never had a handler.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_ = h.b.Shutdown(ctx)
	h.stop()
	for _, c := range h.srv.CallLog() {
		if off, _ := strconv.ParseInt(c.Params["offset"], 10, 64); c.Method == "getUpdates" && off > asked {
			t.Fatalf("getUpdates with offset %d confirmed Bob's update (fetched from %d) before it was handled", off, asked)
		}
	}
	h.opts.Mover = firstMover{}
	h.start()
	h.waitText(bob.ID(), "по-русски")
}
