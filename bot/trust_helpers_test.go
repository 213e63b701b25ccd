package bot_test

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/bot/telegramtest"
)

// handledLog counts, from the bot's log line per handled update, the updates of each kind and
// user that the bot has finished handling, so a test can wait until a tap's handler (and all
// it does before returning) is over.
type handledLog struct {
	next slog.Handler
	st   *handledState
}

type handledState struct {
	mu      sync.Mutex
	counts  map[string]int
	changed chan struct{} // closed and replaced on every count
}

// withHandledLog makes the harness's bot log through a handledLog, returned in *out.
func withHandledLog(out **handledLog) func(*options) {
	return func(o *options) {
		l := &handledLog{next: o.Logger.Handler(), st: &handledState{counts: map[string]int{}, changed: make(chan struct{})}}
		o.Logger = slog.New(l)
		*out = l
	}
}

func (l *handledLog) Enabled(ctx context.Context, lv slog.Level) bool { return l.next.Enabled(ctx, lv) }

func (l *handledLog) Handle(ctx context.Context, r slog.Record) error {
	if r.Message == "update" {
		var kind, user string
		r.Attrs(func(a slog.Attr) bool {
			switch a.Key {
			case "kind":
				kind = a.Value.String()
			case "user":
				user = a.Value.String()
			}
			return true
		})
		l.st.mu.Lock()
		l.st.counts[kind+"/"+user]++
		close(l.st.changed)
		l.st.changed = make(chan struct{})
		l.st.mu.Unlock()
	}
	return l.next.Handle(ctx, r)
}

func (l *handledLog) WithAttrs(as []slog.Attr) slog.Handler {
	return &handledLog{next: l.next.WithAttrs(as), st: l.st}
}

func (l *handledLog) WithGroup(name string) slog.Handler {
	return &handledLog{next: l.next.WithGroup(name), st: l.st}
}

// taps returns how many callback queries of u the bot has finished handling.
func (l *handledLog) taps(u *telegramtest.Person) int { return l.count("callback_query", u) }

// count returns how many updates of kind from u the bot has finished handling.
func (l *handledLog) count(kind string, u *telegramtest.Person) int {
	l.st.mu.Lock()
	defer l.st.mu.Unlock()
	return l.st.counts[fmt.Sprintf("%s/%d", kind, u.ID())]
}

// waitTaps waits until the bot has finished handling n callback queries of u.
func (l *handledLog) waitTaps(h *harness, u *telegramtest.Person, n int) {
	h.t.Helper()
	l.wait(h, "callback_query", u, n)
}

// wait waits until the bot has finished handling n updates of kind from u.
func (l *handledLog) wait(h *harness, kind string, u *telegramtest.Person, n int) {
	h.t.Helper()
	ctx := h.guard()
	key := fmt.Sprintf("%s/%d", kind, u.ID())
	for {
		l.st.mu.Lock()
		got, ch := l.st.counts[key], l.st.changed
		l.st.mu.Unlock()
		if got >= n {
			return
		}
		select {
		case <-ch:
		case <-ctx.Done():
			h.t.Fatalf("the bot handled %d updates %s, want %d", got, key, n)
		}
	}
}

// sendHandled sends text from u into chat and waits until the bot has handled it.
func (h *harness) sendHandled(l *handledLog, u *telegramtest.Person, chat int64, text string) {
	h.t.Helper()
	n := l.count("message", u)
	h.send(u, chat, text)
	l.wait(h, "message", u, n+1)
}

// pressHandled taps label in m and waits until the bot has handled the tap.
func (h *harness) pressHandled(l *handledLog, u *telegramtest.Person, m telegramtest.ChatMessage, label string) telegramtest.CallbackAnswer {
	h.t.Helper()
	n := l.taps(u)
	a := h.press(u, m, label)
	l.waitTaps(h, u, n+1)
	return a
}

// forge sends data on message m (a chat or an inline message) as u's modified client could,
// waits until the bot has handled it and returns the answer.
func (h *harness) forge(l *handledLog, u *telegramtest.Person, m telegramtest.ChatMessage, data string) telegramtest.CallbackAnswer {
	h.t.Helper()
	before := l.taps(u)
	var qid string
	var err error
	if m.InlineID != "" {
		qid, err = u.PressInlineData(m.InlineID, data)
	} else {
		qid, err = u.PressData(m.ChatID, m.ID, data)
	}
	if err != nil {
		h.t.Fatalf("forged tap %q: %v", data, err)
	}
	a := h.waitAnswer(qid)
	l.waitTaps(h, u, before+1)
	return a
}

// ownAIGame starts an AI game of u in their private chat and plays one move (so the AI has
// answered), and returns its board, the game's id and the data of a move button of the first
// board, at ply 0: out of date.
func (h *harness) ownAIGame(u *telegramtest.Person) (board telegramtest.ChatMessage, id, stale string) {
	h.t.Helper()
	board = h.aiBoard(u, u.ID(), "/ai 8 1 black")
	id, stale = gameID(board), legalMoves(board)[0].CallbackData
	h.pressData(u, board, stale)
	board = h.waitState(board, "the AI's reply", func(m telegramtest.ChatMessage) bool { return boardPly(m) == 2 })
	return board, id, stale
}

// forgedActions are the taps a player could forge from the buttons of their own game id,
// drawn at ply (the game's current ply) with legal square sq: every game-scoped action.
func forgedActions(id string, ply int, stale, current string) []string {
	cb := func(a callback.Action, p int) string { return callback.Data{Action: a, Game: id, Ply: p}.Encode() }
	return []string{
		stale, current,
		cb(callback.ActionPage, ply), cb(callback.ActionRefresh, ply), cb(callback.ActionNoop, ply),
		cb(callback.ActionHint, ply), cb(callback.ActionClaim, ply), cb(callback.ActionRematch, ply),
		cb(callback.ActionJoin, 0), cb(callback.ActionCancel, 0), cb(callback.ActionUndo, ply),
		cb(callback.ActionResign, ply),
	}
}

// unchanged fails the test when the game id's stored version or boards differ from before.
func (h *harness) unchanged(what, id string, version int64, boards int) {
	h.t.Helper()
	g, err := h.store.Game(context.Background(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	if g.Version != version || len(g.Boards) != boards {
		h.t.Errorf("%s: game %s is at version %d with %d boards %v, want version %d with %d boards",
			what, id, g.Version, len(g.Boards), g.Boards, version, boards)
	}
}

// gameState returns the stored version and the number of boards of game id.
func (h *harness) gameState(id string) (int64, int) {
	h.t.Helper()
	g, err := h.store.Game(context.Background(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	return g.Version, len(g.Boards)
}

// postInline has u type an inline query and post the result of size into chat.
func (h *harness) postInline(u *telegramtest.Person, size int, chat int64) telegramtest.ChatMessage {
	h.t.Helper()
	qid, err := u.InlineQuery("")
	if err != nil {
		h.t.Fatal(err)
	}
	ans, err := h.srv.WaitInlineAnswer(h.guard(), qid)
	if err != nil {
		h.t.Fatal(err)
	}
	post, err := u.ChooseInlineResult(inlineResult(h.t, ans, size), chat)
	if err != nil {
		h.t.Fatal(err)
	}
	return post
}

// inlineResult is the ID of the result of ans that offers a game of size.
func inlineResult(t testing.TB, ans telegramtest.InlineAnswer, size int) string {
	t.Helper()
	prefix := fmt.Sprintf("g%d.", size)
	for _, r := range ans.Results {
		if strings.HasPrefix(r.ID, prefix) {
			return r.ID
		}
	}
	t.Fatalf("no result for size %d in %+v", size, ans.Results)
	return ""
}

// postBoard waits until the inline post shows its game's board, before the first move.
func (h *harness) postBoard(post telegramtest.ChatMessage) telegramtest.ChatMessage {
	h.t.Helper()
	return h.waitState(post, "the board in the post", func(m telegramtest.ChatMessage) bool {
		return boardPly(m) == 0 && strings.Contains(m.Content(), "To move")
	})
}

// openLobby has u send /new in the group chat and returns the lobby the bot posts after it.
func (h *harness) openLobby(u *telegramtest.Person, chat int64) telegramtest.ChatMessage {
	h.t.Helper()
	last := h.lastID(chat)
	h.send(u, chat, "/new@"+telegramtest.DefaultBotUsername)
	return h.waitMsg(chat, "a lobby", func(m telegramtest.ChatMessage) bool {
		return m.ID > last && strings.Contains(m.Content(), "wants to play Reversi") && m.Markup != nil
	})
}

// boardAfter runs step (a command, a tap) and returns the first board the bot posts in chat
// after it.
func (h *harness) boardAfter(chat int64, step func()) telegramtest.ChatMessage {
	h.t.Helper()
	last := h.lastID(chat)
	step()
	return h.boardIn(chat, last)
}

// sendForBoard sends text from u into chat and returns the first board the bot posts there
// after it.
func (h *harness) sendForBoard(u *telegramtest.Person, chat int64, text string) telegramtest.ChatMessage {
	h.t.Helper()
	return h.boardAfter(chat, func() { h.send(u, chat, text) })
}

// lobbyGame has a open a lobby in the group chat and b join it, and waits until the bot has
// handled the Join (the game began and its board is recorded). It returns the lobby as it was
// before the Join and the board of the game.
func (h *harness) lobbyGame(l *handledLog, a, b *telegramtest.Person, chat int64) (lobby, board telegramtest.ChatMessage) {
	h.t.Helper()
	lobby = h.openLobby(a, chat)
	board = h.boardAfter(chat, func() { h.pressHandled(l, b, lobby, "✅ Join") })
	return lobby, board
}

// resignButton returns the callback data of the button of m that asks for step (callback.ResignAsk,
// ResignYes, ResignNo) of a resignation, and whether m has one.
func resignButton(m telegramtest.ChatMessage, step int) (string, bool) {
	for _, row := range m.Buttons() {
		for _, b := range row {
			if c, err := callback.Parse(b.CallbackData); err == nil && c.Action == callback.ActionResign && c.Arg == step {
				return b.CallbackData, true
			}
		}
	}
	return "", false
}

// resign resigns u's game on board: it presses Resign, waits for the question in place, and
// presses Yes, returning the answer to Yes.
func (h *harness) resign(u *telegramtest.Person, board telegramtest.ChatMessage) telegramtest.CallbackAnswer {
	h.t.Helper()
	ask, ok := resignButton(board, callback.ResignAsk)
	if !ok {
		h.t.Fatalf("no Resign button on the board:%s", dump([]telegramtest.ChatMessage{board}))
	}
	h.pressData(u, board, ask)
	asked := h.waitState(board, "the question whether to resign", func(m telegramtest.ChatMessage) bool {
		_, ok := resignButton(m, callback.ResignYes)
		return ok
	})
	yes, _ := resignButton(asked, callback.ResignYes)
	return h.pressData(u, asked, yes)
}
