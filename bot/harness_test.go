package bot_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot"
	"github.com/reversibot/reversi/bot/botapi"
	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/bot/present"
	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/engine/ai"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/game/gametest"
	"github.com/reversibot/reversi/storage"
	"github.com/reversibot/reversi/storage/storagetest"
)

func TestMain(m *testing.M) {
	gametest.VerifyTestMain(m, gametest.IdleHTTP...)
}

// firstMover plays the lowest legal square; its hint is the highest.
type firstMover = gametest.FirstMover

// syncBuffer is a log sink that tests can read.
type syncBuffer struct {
	mu     sync.Mutex
	b      bytes.Buffer
	panics int
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if bytes.Contains(p, []byte("panic in")) {
		s.panics++
	}
	if s.b.Len() > 1<<20 {
		s.b.Reset() // keep the tail of long runs (fuzzing)
	}
	return s.b.Write(p)
}

// Panics counts the handler panics logged.
func (s *syncBuffer) Panics() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.panics
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// harness is a bot long-polling a fake Bot API server over a test store.
type harness struct {
	t     testing.TB
	srv   *telegramtest.Server
	store *storage.Store
	clock *gametest.Clock
	logs  *syncBuffer
	opts  options
	pool  *game.AIPool // the running bot's
	b     *bot.Running
	stop  func() // stops the running bot and waits for it
	// patience bounds each wait of the test that should succeed (guard); 0 means 20 s.
	// A flood test that makes the bot work through tens of thousands of updates first sets it
	// longer: a loaded machine with the race detector takes that long, and it is a failing
	// guard, never a synchronisation.
	patience time.Duration
}

// speedup is how much faster than Telegram's the flood limits of the harness's fake server
// refill: the fake enforces the limits in every test, at a speed that lets a test play a whole
// game in seconds. The bot paces itself at paceSpeedup, a fifth slower, since at that speed the
// scheduling jitter of a loaded test machine is as long as a budget's whole margin (the e2e
// tests of the pacing itself run both at one slower speed, and fail on any 429).
const (
	speedup     = 100
	paceSpeedup = 80
)

// newHarness starts the fake server (enforcing the flood limits, sped up), the store and a
// polling bot pacing itself by the same limits. mod may change the options.
func newHarness(t testing.TB, mod ...func(*options)) *harness {
	t.Helper()
	return newHarnessOver(t, storage.Options{}, mod...)
}

// newHarnessOver is newHarness with a store made with so (its clock is the harness's).
func newHarnessOver(t testing.TB, so storage.Options, mod ...func(*options)) *harness {
	t.Helper()
	return newHarnessOn(t, func(so storage.Options) *storage.Store { return storagetest.New(t, so) }, so, mod...)
}

// newHarnessOn is newHarnessOver with the store that open makes from so (its clock the
// harness's).
func newHarnessOn(t testing.TB, open func(storage.Options) *storage.Store, so storage.Options, mod ...func(*options)) *harness {
	t.Helper()
	srv := telegramtest.Start(t, telegramtest.WithFloodLimits(telegramtest.DefaultFloodLimits.Faster(speedup)))
	h := &harness{t: t, srv: srv, clock: gametest.NewClock(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)),
		logs: &syncBuffer{}}
	so.Now = h.clock.Now
	h.store = open(so)
	h.opts = options{Options: bot.Options{Token: h.srv.Token(), APIURL: h.srv.URL(),
		Logger: slog.New(slog.NewTextHandler(h.logs, nil)), Now: h.clock.Now,
		Pace: botapi.DefaultPaceLimits.Faster(paceSpeedup)}, Store: h.store,
		AIWorkers: 2, IdleClaim: time.Hour, Rand: rand.New(rand.NewPCG(1, 2)), Mover: firstMover{}, AllowSmall: true}
	for _, m := range mod {
		m(&h.opts)
	}
	h.start()
	t.Cleanup(func() {
		h.stop()
		if st := h.srv.TooManyRequests(); st.Total > 0 {
			// At this speed a loaded machine's jitter can spend a budget's margin: the pacing is
			// proved free of 429s at a lower speed (bot/e2e pace_test.go).
			t.Logf("the fake answered %d calls with 429: %v", st.Total, st.Chats)
		}
		if t.Failed() {
			t.Logf("bot log:\n%s", h.logs.String())
		}
	})
	return h
}

// options are a test bot's bot.Options and the game.Config of the Service under it.
type options struct {
	bot.Options
	Store      *storage.Store // the harness's; mods may add hooks to its client
	Mover      game.Mover     // nil: the real AI (ai.Player)
	AIWorkers  int
	IdleClaim  time.Duration
	Rand       *rand.Rand
	AllowSmall bool
	// WrapPace wraps the pace budgets the bot counts with (the store's); nil: as they are.
	WrapPace func(botapi.Budgets) botapi.Budgets
}

// build returns o's bot.Options with a new Service and Players over o.Store (its dedupe,
// shared budget and drawn record too), the Service's AI pool, and the function that closes the Service and pool.
func (o options) build() (bot.Options, *game.AIPool, func()) {
	store := o.Store
	mover := o.Mover
	if mover == nil {
		mover = &ai.Player{}
	}
	pool := game.NewAIPool(o.AIWorkers, 0)
	svc := game.New(game.Config{Store: store, Mover: mover, Pool: pool, Now: o.Now, Rand: o.Rand,
		IdleAfter: o.IdleClaim, AllowSmall: o.AllowSmall, Logger: o.Logger})
	t := o.Options
	t.Service, t.Players, t.Dedupe, t.RateLimiter = svc, game.NewPlayers(store), store, store
	if t.Drawings == nil { // the drawn record of the board messages, as the bot runs
		t.Drawings = store
	}
	if t.Offers == nil {
		t.Offers = store
	}
	if t.RemindPoll == 0 {
		t.RemindPoll = time.Hour // offers expire when a test says so (Offers.Now)
	}
	t.PaceBudgets = store.PaceBudgets()
	if o.WrapPace != nil {
		t.PaceBudgets = o.WrapPace(t.PaceBudgets)
	}
	return t, pool, func() { svc.Close(); pool.Close() }
}

// botOptions is h.opts built over h.store (see build); the Service closes when the test ends.
func (h *harness) botOptions() bot.Options {
	o, _, closeSvc := h.opts.build()
	h.t.Cleanup(closeSvc)
	return o
}

// start runs a new Bot, with a new Service, over the harness's server and store.
func (h *harness) start() {
	h.t.Helper()
	ctx := context.Background()
	opts, pool, closeSvc := h.opts.build()
	h.pool = pool
	b, err := bot.Start(ctx, opts)
	if err != nil {
		closeSvc()
		h.t.Fatalf("bot.Start: %v", err)
	}
	if err := b.Setup(ctx); err != nil {
		h.t.Fatalf("Setup: %v", err)
	}
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- b.RunPolling(runCtx) }()
	h.b = b
	var once sync.Once
	h.stop = func() {
		once.Do(func() {
			cancel()
			sctx, c2 := context.WithTimeout(context.Background(), 30*time.Second)
			defer c2()
			if err := b.Shutdown(sctx); err != nil {
				h.t.Errorf("Shutdown: %v", err)
			}
			if err := <-done; err != nil {
				h.t.Errorf("RunPolling: %v", err)
			}
			closeSvc()
		})
	}
}

// guard bounds a wait that should succeed; it is a failing guard, not a synchronisation tool.
func (h *harness) guard() context.Context {
	wait := h.patience
	if wait == 0 {
		wait = 20 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	h.t.Cleanup(cancel)
	return ctx
}

// user creates a user who has written /help to the bot (so the bot may write to them), with
// the answer already there.
func (h *harness) user(name, lang string) *telegramtest.Person {
	h.t.Helper()
	u := h.srv.NewUser(name, lang)
	h.send(u, u.ID(), "/help")
	h.waitText(u.ID(), "/rules")
	return u
}

// send posts text from u into chat.
func (h *harness) send(u *telegramtest.Person, chat int64, text string) telegramtest.ChatMessage {
	h.t.Helper()
	m, err := u.Send(chat, text)
	if err != nil {
		h.t.Fatalf("Send(%q): %v", text, err)
	}
	return m
}

// waitMsg waits for a bot message in chat matching pred.
func (h *harness) waitMsg(chat int64, what string, pred func(telegramtest.ChatMessage) bool) telegramtest.ChatMessage {
	h.t.Helper()
	m, err := h.srv.WaitMessage(h.guard(), chat, pred)
	if err != nil {
		h.t.Fatalf("waiting for %s in chat %d: %v\nmessages: %s", what, chat, err, dump(h.srv.BotMessages(chat)))
	}
	return m
}

// startMenu has u send /start in their private chat and waits for the main menu.
func (h *harness) startMenu(u *telegramtest.Person) telegramtest.ChatMessage {
	h.t.Helper()
	h.send(u, u.ID(), "/start")
	return h.waitText(u.ID(), "What shall we play?")
}

// aiBoard has u send cmd (an /ai command) in chat and waits for the board of the game it
// starts: a bot message of chat that carries a game id.
func (h *harness) aiBoard(u *telegramtest.Person, chat int64, cmd string) telegramtest.ChatMessage {
	h.t.Helper()
	h.send(u, chat, cmd)
	return h.waitMsg(chat, "the board", func(m telegramtest.ChatMessage) bool { return gameID(m) != "" })
}

// waitText waits for a bot message in chat whose content contains sub.
func (h *harness) waitText(chat int64, sub string) telegramtest.ChatMessage {
	h.t.Helper()
	return h.waitMsg(chat, fmt.Sprintf("%q", sub), func(m telegramtest.ChatMessage) bool { return strings.Contains(m.Content(), sub) })
}

// waitLobby waits for an invitation in chat whose text contains sub, with its buttons.
func (h *harness) waitLobby(chat int64, sub string) telegramtest.ChatMessage {
	h.t.Helper()
	return h.waitMsg(chat, fmt.Sprintf("lobby %q", sub), func(m telegramtest.ChatMessage) bool {
		return strings.Contains(m.Content(), sub) && m.Markup != nil
	})
}

// waitAnswer waits for the answer to a callback query.
func (h *harness) waitAnswer(qid string) telegramtest.CallbackAnswer {
	h.t.Helper()
	if qid == "" {
		h.t.Fatalf("no callback query id")
	}
	a, err := h.srv.WaitCallbackAnswer(h.guard(), qid)
	if err != nil {
		h.t.Fatalf("callback answer: %v", err)
	}
	return a
}

// anyMove returns the first button of m that carries a move, marked or not (a board marks the
// legal moves only for the player who may make them).
func anyMove(t testing.TB, m telegramtest.ChatMessage) models.InlineKeyboardButton {
	t.Helper()
	for _, row := range m.Buttons() {
		for _, b := range row {
			if c, err := callback.Parse(b.CallbackData); err == nil && c.Action == callback.ActionMove {
				return b
			}
		}
	}
	t.Fatalf("no move button:%s", dump([]telegramtest.ChatMessage{m}))
	return models.InlineKeyboardButton{}
}

// applied reports whether a is the answer to a move that was played: empty (the board shows
// it), or saying the move was played while the board is held back by the flood limits.
func applied(a telegramtest.CallbackAnswer) bool {
	return !a.ShowAlert && (a.Text == "" || strings.Contains(a.Text, " played") || strings.Contains(a.Text, " сделан"))
}

// press taps label in m and returns the answer.
func (h *harness) press(u *telegramtest.Person, m telegramtest.ChatMessage, label string) telegramtest.CallbackAnswer {
	h.t.Helper()
	var qid string
	var err error
	if m.InlineID != "" {
		qid, err = u.PressInline(m.InlineID, label)
	} else {
		qid, err = u.Press(m, label)
	}
	if err != nil {
		h.t.Fatalf("Press(%q): %v\nmessage: %s", label, err, dump([]telegramtest.ChatMessage{m}))
	}
	return h.waitAnswer(qid)
}

// pressData taps a button by its callback data (which Press also matches).
func (h *harness) pressData(u *telegramtest.Person, m telegramtest.ChatMessage, data string) telegramtest.CallbackAnswer {
	h.t.Helper()
	return h.press(u, m, data)
}

// current returns the current state of m (a chat or an inline message).
func (h *harness) current(m telegramtest.ChatMessage) telegramtest.ChatMessage {
	h.t.Helper()
	var cur telegramtest.ChatMessage
	var ok bool
	if m.InlineID != "" {
		cur, ok = h.srv.InlineMessage(m.InlineID)
	} else {
		cur, ok = h.srv.Message(m.ChatID, m.ID)
	}
	if !ok {
		h.t.Fatalf("message %d/%d %q gone", m.ChatID, m.ID, m.InlineID)
	}
	return cur
}

// waitState waits until message m (chat or inline) satisfies pred.
func (h *harness) waitState(m telegramtest.ChatMessage, what string, pred func(telegramtest.ChatMessage) bool) telegramtest.ChatMessage {
	h.t.Helper()
	var got telegramtest.ChatMessage
	err := h.srv.WaitFor(h.guard(), func(v telegramtest.View) bool {
		var cur telegramtest.ChatMessage
		var ok bool
		if m.InlineID != "" {
			cur, ok = v.InlineMessage(m.InlineID)
		} else {
			cur, ok = v.Message(m.ChatID, m.ID)
		}
		if ok && pred(cur) {
			got = cur
			return true
		}
		return false
	})
	if err != nil {
		h.t.Fatalf("waiting for %s: %v\nmessage now: %s", what, err, dump([]telegramtest.ChatMessage{h.current(m)}))
	}
	return got
}

// boardPly is the ply carried by the board buttons of m, -1 when it has none.
func boardPly(m telegramtest.ChatMessage) int {
	for _, row := range m.Buttons() {
		for _, b := range row {
			c, err := callback.Parse(b.CallbackData)
			if err == nil && (c.Action == callback.ActionMove || c.Action == callback.ActionNoop) && c.Game != "" {
				return c.Ply
			}
		}
	}
	for _, row := range m.Buttons() {
		for _, b := range row {
			c, err := callback.Parse(b.CallbackData)
			if err == nil && c.Game != "" {
				return c.Ply
			}
		}
	}
	return -1
}

// gameID is the game named by m's buttons.
func gameID(m telegramtest.ChatMessage) string {
	for _, row := range m.Buttons() {
		for _, b := range row {
			if c, err := callback.Parse(b.CallbackData); err == nil && c.Game != "" {
				return c.Game
			}
		}
	}
	return ""
}

// legalMoves returns the move buttons of a board that are legal: the present.LegalMark squares
// of a keyboard board, or the buttons of a move picker ("7 · k12", or the square's name alone
// past render.MaxMoveLabels), in order.
func legalMoves(m telegramtest.ChatMessage) []models.InlineKeyboardButton {
	var out []models.InlineKeyboardButton
	for _, row := range m.Buttons() {
		for _, b := range row {
			c, err := callback.Parse(b.CallbackData)
			if err != nil || c.Action != callback.ActionMove {
				continue
			}
			_, name, labelled := strings.Cut(b.Text, " · ")
			if b.Text == present.LegalMark || b.Text == c.Square.String() || labelled && name == c.Square.String() {
				out = append(out, b)
			}
		}
	}
	return out
}

// finished reports whether m shows a finished game.
func finished(m telegramtest.ChatMessage) bool {
	return strings.Contains(m.Content(), "Game over") || strings.Contains(m.Content(), "Игра окончена") ||
		strings.Contains(m.Content(), "resigns") || strings.Contains(m.Content(), "ran out of time") ||
		strings.Contains(m.Content(), "Aborted before") || strings.Contains(m.Content(), "Партия прервана")
}

// toMove reports whether the status of m says it is the turn of sym+name.
func toMove(m telegramtest.ChatMessage, who string) bool {
	return strings.Contains(m.Content(), "To move: "+who) || strings.Contains(m.Content(), "Ходит: "+who)
}

// dump describes messages for failure output.
func dump(ms []telegramtest.ChatMessage) string {
	var sb strings.Builder
	for _, m := range ms {
		fmt.Fprintf(&sb, "\n[%d/%d inline=%q edits=%d photo=%v] %s\n", m.ChatID, m.ID, m.InlineID, m.Edits, m.HasPhoto(), m.Content())
		for _, row := range m.Buttons() {
			for _, b := range row {
				fmt.Fprintf(&sb, " [%s|%s%s]", b.Text, b.CallbackData, b.URL)
			}
			sb.WriteString("\n")
		}
	}
	return sb.String()
}
