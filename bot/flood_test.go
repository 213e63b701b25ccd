package bot_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reversibot/reversi/bot"
	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/render"
)

// The flood tests run on the harness's virtual clock, which the per-process budget reads:
// with the clock still, a user's budget is exactly its burst; each Add refills Rate per Per.

// tooFast is the English "too fast" message, slowDown the English "slow down" toast.
const (
	tooFast  = "Too fast"
	slowDown = "Slow down"
)

// countingMover is the first-square mover that counts its hints.
type countingMover struct {
	firstMover
	hints atomic.Int64
}

func (m *countingMover) Hint(ctx context.Context, pos engine.Position) (engine.Square, error) {
	m.hints.Add(1)
	return m.firstMover.Hint(ctx, pos)
}

// withBudget sets the default per-user budget.
func withBudget(o *options) { o.Budget = bot.DefaultBudget }

// drain waits until the bot has taken every queued update, then stops it and waits for its
// handlers: after drain every update has been handled or refused, and nothing runs any more.
func (h *harness) drain() {
	h.t.Helper()
	if err := h.srv.WaitIdle(h.guard()); err != nil {
		h.t.Fatalf("updates not taken: %v (pending %d)", err, h.srv.PendingUpdates())
	}
	h.stop()
}

// answers counts the queries of qids that were answered, and those answered "slow down".
func (h *harness) answers(qids []string) (answered, toasts int) {
	for _, q := range qids {
		if a, ok := h.srv.CallbackAnswer(q); ok && a.Answered {
			answered++
			if strings.Contains(a.Text, slowDown) {
				toasts++
			}
		}
	}
	return answered, toasts
}

// TestTapFlood: one user sends 40,000 taps (garbage data and stale moves of their own game)
// as fast as the fake server takes them, while another user plays a game against the AI.
// The other user's taps are all answered and their game goes on to its end; the flooder gets
// at most the budget's worth of handled updates, one "slow down" toast per virtual second
// (DefaultTapNoticeEvery), and no answer to the rest.
func TestTapFlood(t *testing.T) {
	h := newHarness(t, withBudget)
	h.patience = 2 * time.Minute // Alice's first tap waits behind the flood already queued
	alice := h.user("Alice", "en")
	mallory := h.user("Mallory", "en")
	h.send(mallory, mallory.ID(), "/ai 6x6 1 black")
	mb := h.waitMsg(mallory.ID(), "Mallory's board", func(m telegramtest.ChatMessage) bool { return gameID(m) != "" })
	stale := legalMoves(mb)[0].CallbackData // a real move: the first tap plays it, the rest are stale

	const flood = 40000
	qids := make([]string, 0, flood)
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := range flood {
			data := stale
			if i%2 == 1 {
				data = fmt.Sprintf("garbage-%d", i)
			}
			q, err := mallory.PressData(mb.ChatID, mb.ID, data)
			if err != nil {
				t.Errorf("PressData: %v", err)
				return
			}
			qids = append(qids, q)
		}
	})

	// Alice plays a whole 6×6 game meanwhile, a virtual second between her taps.
	h.send(alice, alice.ID(), "/ai 6x6 1 black")
	board := h.waitMsg(alice.ID(), "Alice's board", func(m telegramtest.ChatMessage) bool { return gameID(m) != "" })
	var seconds int
	who := render.BlackDisc + " Alice"
	for taps := 0; ; taps++ {
		board = h.waitState(board, "Alice to move or the end", func(c telegramtest.ChatMessage) bool {
			return finished(c) || toMove(c, who)
		})
		if finished(board) {
			break
		}
		if taps > 100 {
			t.Fatal("Alice's game does not end")
		}
		h.clock.Add(time.Second)
		seconds++
		ply := boardPly(board)
		a := h.pressData(alice, board, legalMoves(board)[0].CallbackData)
		if a.ShowAlert || strings.Contains(a.Text, slowDown) {
			t.Fatalf("Alice's move answered %q (alert %v)", a.Text, a.ShowAlert)
		}
		board = h.waitState(board, "Alice's board after her move", func(c telegramtest.ChatMessage) bool {
			return boardPly(c) != ply || finished(c)
		})
	}
	wg.Wait()
	h.drain()

	answered, toasts := h.answers(qids)
	b := bot.DefaultBudget
	budget := b.Burst + b.Rate*seconds // Mallory's /help and /ai took two of it
	notices := 1 + seconds/int(bot.DefaultTapNoticeEvery/time.Second)
	t.Logf("%d taps in %d virtual seconds: %d answered (%d of them slow down); intake %+v",
		len(qids), seconds, answered, toasts, h.b.Intake())
	if answered-toasts > budget || toasts > notices || toasts < 1 {
		t.Errorf("flooder: %d taps answered and %d toasts; want at most the budget %d plus %d toasts (at least one)",
			answered-toasts, toasts, budget, notices)
	}
	// Alice's updates (/help, /ai, her taps) and Mallory's in-budget ones: nothing else ran.
	if st := h.b.Intake(); st.Handled > int64(budget+2+seconds+2) {
		t.Errorf("handlers run: %d; want at most %d", st.Handled, budget+2+seconds+2)
	}
}

// TestHintFlood: 40 taps on Hint cost at most the budget's worth of searches.
func TestHintFlood(t *testing.T) {
	mover := &countingMover{}
	h := newHarness(t, withBudget, func(o *options) { o.Mover = mover })
	u := h.user("Hinter", "en")
	board := h.aiBoard(u, u.ID(), "/ai 6x6 1 black")
	hint, err := board.Button("💡 Hint")
	if err != nil {
		t.Fatalf("no hint button: %v%s", err, dump([]telegramtest.ChatMessage{board}))
	}
	var qids []string
	for range 40 {
		q, err := u.PressData(board.ChatID, board.ID, hint.CallbackData)
		if err != nil {
			t.Fatal(err)
		}
		qids = append(qids, q)
	}
	h.drain()
	answered, toasts := h.answers(qids)
	t.Logf("40 hint taps: %d searches, %d answered, %d slow down", mover.hints.Load(), answered, toasts)
	if n := mover.hints.Load(); n > int64(bot.DefaultBudget.Burst) {
		t.Errorf("40 hint taps started %d searches; want at most the budget's %d", n, bot.DefaultBudget.Burst)
	}
	if toasts != 1 {
		t.Errorf("%d slow-down toasts; want 1 (one per tap notice window)", toasts)
	}
}

// TestUpdateStorm: 3,000 updates (a tap from each of 3,000 users) queued at once. At most
// MaxHandlers handlers run at once, the goroutines stay bounded, and every update is answered.
func TestUpdateStorm(t *testing.T) {
	const users, handlers = 3000, 16
	h := newHarness(t, withBudget, func(o *options) { o.MaxHandlers = handlers })
	h.patience = 2 * time.Minute // 3,000 taps, each answered, on a loaded machine
	base := runtime.NumGoroutine()
	us := make([]*telegramtest.Person, users)
	for i := range us {
		us[i] = h.srv.NewUser(fmt.Sprintf("U%d", i), "en")
	}
	qids := make([]string, users)
	for i, u := range us {
		q, err := u.PressData(u.ID(), 1, "storm")
		if err != nil {
			t.Fatal(err)
		}
		qids[i] = q
	}
	peak, next := 0, 0 // qids[:next] are answered
	err := h.srv.WaitFor(h.guard(), func(v telegramtest.View) bool {
		peak = max(peak, runtime.NumGoroutine())
		for next < len(qids) {
			if a, ok := v.CallbackAnswer(qids[next]); !ok || !a.Answered {
				return false
			}
			next++
		}
		return true
	})
	if err != nil {
		t.Fatalf("%d of %d taps answered: %v", next, users, err)
	}
	st := h.b.Intake()
	t.Logf("goroutines: %d before, peak %d; intake %+v", base, peak, st)
	if st.PeakRunning > handlers {
		t.Errorf("%d handlers ran at once; want at most %d", st.PeakRunning, handlers)
	}
	// Each handler may hold a Bot API connection (its reading and writing goroutine, and the
	// fake server's side): a few goroutines per handler, not one per queued update.
	if limit := base + 8*handlers + 64; peak > limit {
		t.Errorf("goroutines peaked at %d (base %d); want at most %d", peak, base, limit)
	}
}

// blockingMover blocks every AI move until release is closed, telling started first.
type blockingMover struct {
	firstMover
	started chan struct{}
	release chan struct{}
	once    sync.Once
}

func (m *blockingMover) Move(ctx context.Context, pos engine.Position, level int) (engine.Square, error) {
	m.once.Do(func() { close(m.started) })
	select {
	case <-m.release:
	case <-ctx.Done():
	}
	return m.firstMover.Move(ctx, pos, level)
}

// TestWebhookBusy: with every handler busy, a webhook request is answered 503 with
// Retry-After (Telegram delivers it again later) and not handled; once a handler is free the
// same update is taken.
func TestWebhookBusy(t *testing.T) {
	mover := &blockingMover{started: make(chan struct{}), release: make(chan struct{})}
	h := newHarness(t, func(o *options) {
		o.Mover, o.MaxHandlers, o.WebhookWait = mover, 1, 10*time.Millisecond
	})
	alice := h.user("Alice", "en")
	bob := h.user("Bob", "en")                   // has written to the bot, so it may answer him
	h.send(alice, alice.ID(), "/ai 6x6 1 white") // the AI moves first, in /ai's handler
	select {
	case <-mover.started:
	case <-h.guard().Done():
		t.Fatal("the AI never started")
	}
	body := fmt.Sprintf(`{"update_id":900001,"message":{"message_id":1,"date":1,"chat":{"id":%d,"type":"private"},"from":{"id":%d,"is_bot":false,"first_name":"Bob"},"text":"/lang en","entities":[{"type":"bot_command","offset":0,"length":5}]}}`, bob.ID(), bob.ID())
	post := func() *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "/hook", strings.NewReader(body))
		req.Header.Set("X-Telegram-Bot-Api-Secret-Token", "s3cret")
		rec := httptest.NewRecorder()
		h.b.WebhookHandler("s3cret").ServeHTTP(rec, req)
		return rec
	}
	if rec := post(); rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" {
		t.Fatalf("webhook with every handler busy: %d, Retry-After %q; want 503 with Retry-After", rec.Code, rec.Header().Get("Retry-After"))
	}
	if st := h.b.Intake(); st.Busy != 1 {
		t.Errorf("intake busy count %d, want 1", st.Busy)
	}
	close(mover.release)
	h.waitMsg(alice.ID(), "Alice's board", func(m telegramtest.ChatMessage) bool { return gameID(m) != "" })
	// A slot frees once the /ai handler ends; a webhook retry then gets through. Telegram
	// retries a 503; here the test does, until the update is taken.
	for i := 0; ; i++ {
		rec := post()
		if rec.Code == http.StatusOK {
			break
		}
		if rec.Code != http.StatusServiceUnavailable || i > 1000 {
			t.Fatalf("webhook retry: %d", rec.Code)
		}
	}
	h.waitText(bob.ID(), "I will speak English")
}

// TestMessageFlood: typed messages over the budget get one "too fast" notice per window in a
// private chat, and none in a group (whose own message budget the bot must not spend on it).
func TestMessageFlood(t *testing.T) {
	for _, where := range []string{"private", "group"} {
		t.Run(where, func(t *testing.T) {
			h := newHarness(t, withBudget)
			u := h.user("Typist", "en") // one update of the budget
			chat, text := u.ID(), "/rules"
			if where == "group" {
				chat, text = h.srv.NewGroup("Club", u).ID(), "/rules@"+h.srv.Bot().Username
			}
			before := len(h.srv.BotMessages(chat))
			for range 60 {
				h.send(u, chat, text)
			}
			h.drain()
			answers, notices := 0, 0
			for _, m := range h.srv.BotMessages(chat)[before:] {
				answers++
				if strings.Contains(m.Content(), tooFast) {
					notices++
				}
			}
			t.Logf("60 messages in a %s chat: %d answers, %d of them too fast", where, answers, notices)
			if budget := bot.DefaultBudget.Burst - 1; answers-notices > budget {
				t.Errorf("%d answers; want at most the budget's %d", answers-notices, budget)
			}
			if want := map[string]int{"private": 1, "group": 0}[where]; notices != want {
				t.Errorf("%d too-fast notices, want %d", notices, want)
			}
		})
	}
}
