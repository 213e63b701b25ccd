package bot_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot"
	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/bot/present"
	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/render"
	"github.com/reversibot/reversi/storage/storagetest"
)

// aiLoad keeps the bot's AI pool busy: each user plays a 16×16 game against the strongest AI
// (the real engine/ai searches, up to about two seconds a move), tapping their first legal
// move as soon as it is their turn, until ctx ends.
func aiLoad(ctx context.Context, h *harness, users []*telegramtest.Person, wg *sync.WaitGroup) {
	for _, u := range users {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := u.Send(u.ID(), "/ai 16 6 white"); err != nil {
				return
			}
			board, err := h.srv.WaitMessage(ctx, u.ID(), func(m telegramtest.ChatMessage) bool { return gameID(m) != "" })
			if err != nil {
				return
			}
			who := render.WhiteDisc + " " + u.Model().FirstName
			for ctx.Err() == nil {
				var cur telegramtest.ChatMessage
				err := h.srv.WaitFor(ctx, func(v telegramtest.View) bool {
					m, ok := v.Message(board.ChatID, board.ID)
					cur = m
					return ok && (toMove(m, who) || finished(m))
				})
				if err != nil || finished(cur) {
					return
				}
				if !tapFirstMove(ctx, h, u, cur, func(v telegramtest.View) (telegramtest.ChatMessage, bool) {
					return v.Message(board.ChatID, board.ID)
				}) {
					return
				}
			}
		}()
	}
}

// tapFirstMove has u tap the first legal move of the board cur and waits, until ctx ends, for
// the board that find picks out of the view to show another ply. It reports false when cur
// has no move or the tap could not be sent.
func tapFirstMove(ctx context.Context, h *harness, u *telegramtest.Person, cur telegramtest.ChatMessage,
	find func(telegramtest.View) (telegramtest.ChatMessage, bool)) bool {
	moves := legalMoves(cur)
	if len(moves) == 0 {
		return false
	}
	ply := boardPly(cur)
	if _, err := u.Press(cur, moves[0].CallbackData); err != nil {
		return false
	}
	_ = h.srv.WaitFor(ctx, func(v telegramtest.View) bool {
		m, ok := find(v)
		return ok && boardPly(m) != ply
	})
	return true
}

// realAIBench starts a harness whose bot runs the real engine/ai on two AI workers, and
// returns it with a context for the load a benchmark runs beside the measured game and the
// WaitGroup that load's goroutines join. When the benchmark ends the context is cancelled and
// the load waited for, before the bot stops. GOMAXPROCS is raised by the AI workers, as
// cmd/reversibot does for the real AI, and put back last. (The searches run at normal thread
// priority here: cmd/reversibot lowers it.)
func realAIBench(b *testing.B) (*harness, context.Context, *sync.WaitGroup) {
	b.Helper()
	procs := runtime.GOMAXPROCS(0)
	b.Cleanup(func() { runtime.GOMAXPROCS(procs) })
	if want := runtime.NumCPU() + 2; procs < want {
		runtime.GOMAXPROCS(want)
	}
	h := newHarness(b, func(o *options) { o.Mover = nil; o.AIWorkers = 2 })
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	b.Cleanup(func() { cancel(); wg.Wait() })
	return h, ctx, &wg
}

// BenchmarkMoveAck measures how soon a human move in a game between people is acknowledged
// (from the tap to the bot's answerCallbackQuery, through the fake Bot API's long polling and
// the store: real Redis when REDIS_URL is set) while both cores are busy with AI searches of
// four 16×16 games at level 6. It reports the 50th and 99th percentiles.
// loadGames is the number of AI games played beside the measured one (BOT_LOAD overrides).
var loadGames = envInt("BOT_LOAD", 4)

func BenchmarkMoveAck(b *testing.B) {
	h, ctx, wg := realAIBench(b)
	var load []*telegramtest.Person
	for i := range loadGames {
		load = append(load, h.user(fmt.Sprintf("Load%d", i), "en"))
	}
	aiLoad(ctx, h, load, wg)

	alice, bob := h.user("Alice", "en"), h.user("Bob", "en")
	newGame := func() []seat {
		h.send(alice, alice.ID(), "/new 8 black")
		invite := h.waitLobby(alice.ID(), "invites you to play")
		aLast, bLast := h.lastID(alice.ID()), h.lastID(bob.ID())
		h.openLink(bob, invite, "▶ Play")
		return []seat{{alice, h.boardIn(alice.ID(), aLast), "Alice"}, {bob, h.boardIn(bob.ID(), bLast), "Bob"}}
	}
	seats := newGame()
	// The load is on: every AI game has had its first search.
	for _, u := range load {
		h.waitMsg(u.ID(), "the AI's first move", func(m telegramtest.ChatMessage) bool { return boardPly(m) >= 1 })
	}
	var acks []time.Duration
	cpu0, wall0 := cpuTime(), time.Now()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cur := h.current(seats[0].board)
		if finished(cur) {
			b.StopTimer()
			seats = newGame()
			b.StartTimer()
			cur = h.current(seats[0].board)
		}
		mover := 0
		if toMove(cur, render.WhiteDisc+" Bob") {
			mover = 1
		}
		board := h.current(seats[mover].board)
		moves := legalMoves(board)
		if len(moves) == 0 {
			b.Fatalf("no move:%s", dump([]telegramtest.ChatMessage{board}))
		}
		ply := boardPly(board)
		start := time.Now()
		qid, err := seats[mover].u.Press(board, moves[0].CallbackData)
		if err != nil {
			b.Fatal(err)
		}
		if a := h.waitAnswer(qid); a.ShowAlert {
			b.Fatalf("move answered %q", a.Text)
		}
		acks = append(acks, time.Since(start))
		b.StopTimer()
		for _, s := range seats {
			h.waitState(s.board, "both boards", func(m telegramtest.ChatMessage) bool { return boardPly(m) > ply || finished(m) })
		}
		b.StartTimer()
	}
	b.StopTimer()
	// CPU seconds used per second of wall time, by the whole test process (bot, fake Bot API
	// server, scripted users; and the embedded Redis when REDIS_URL is unset): about 2 when
	// both cores are busy.
	b.ReportMetric((cpuTime()-cpu0).Seconds()/time.Since(wall0).Seconds(), "cpus")
	slices.Sort(acks)
	pct := func(p float64) time.Duration { return acks[min(len(acks)-1, int(float64(len(acks))*p))] }
	b.ReportMetric(float64(pct(0.5).Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(pct(0.99).Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(acks[len(acks)-1].Microseconds())/1000, "max-ms")
}

// envInt reads an integer from the environment, def when unset or bad.
func envInt(name string, def int) int {
	var n int
	if _, err := fmt.Sscan(os.Getenv(name), &n); err != nil {
		return def
	}
	return n
}

// cpuTime is the CPU time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// moveStub is a stand-in Bot API server for BenchmarkPeopleMove that answers as Telegram
// does: a successful edit returns the whole edited message (with its 64-button keyboard), a
// sent message (a turn notice) its message, answerCallbackQuery true. Each answer and edit is reported on calls.
type moveStub struct {
	token  string
	edited []byte // the reply to an edit
	calls  chan string
	sent   atomic.Int64 // messages sent, for their ids
}

func (s *moveStub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	method := strings.TrimPrefix(r.URL.Path, "/bot"+s.token+"/")
	w.Header().Set("Content-Type", "application/json")
	switch method {
	case "getMe":
		_, _ = io.WriteString(w, `{"ok":true,"result":{"id":1,"is_bot":true,"first_name":"Reversi","username":"reversi_bot"}}`)
		return
	case "editMessageText":
		_, _ = w.Write(s.edited)
	case "sendMessage": // a turn notice
		_, _ = fmt.Fprintf(w, `{"ok":true,"result":{"message_id":%d,"date":1700000000,"chat":{"id":1,"type":"private"},"text":"notice"}}`,
			s.sent.Add(1)+100)
	default:
		_, _ = io.WriteString(w, `{"ok":true,"result":true}`)
	}
	s.calls <- method
}

// BenchmarkPeopleMove measures one move in a game between people through the bot alone:
// the webhook takes the tap's update (carrying the tapped board message, as Telegram sends
// it), the move goes through the store (real Redis when REDIS_URL is set) and the bot
// answers the tap and edits both players' boards on a stub Bot API server that answers at
// once. Each op waits for the answer and both edits; the turn notices and replays the bot
// sends after a step are answered but not waited for.
func BenchmarkPeopleMove(b *testing.B) {
	store := storagetest.New(b)
	eg0, _ := engine.NewGame(8)
	kb, err := present.Keyboard(render.ViewOf(eg0), present.KeyboardOptions{Game: "G123456789"})
	if err != nil {
		b.Fatal(err)
	}
	edited, _ := json.Marshal(map[string]any{"ok": true, "result": models.Message{ID: 10,
		Chat: models.Chat{ID: 1001, Type: models.ChatTypePrivate}, Date: 1700000000,
		From: &models.User{ID: 1, IsBot: true, FirstName: "Reversi"},
		Text: "⚫ Alice — ⚪ Bob\nBlack to move", ReplyMarkup: &kb}})
	stub := &moveStub{token: "123:bench", edited: edited, calls: make(chan string, 16)}
	api := httptest.NewServer(stub)
	defer api.Close()
	opts, _, closeSvc := options{Options: bot.Options{Token: stub.token, APIURL: api.URL, NoPace: true},
		Store: store, Mover: firstMover{}, IdleClaim: time.Hour}.build()
	defer closeSvc()
	bt, err := bot.New(context.Background(), opts)
	if err != nil {
		b.Fatal(err)
	}
	defer func() {
		if err := bt.Shutdown(context.Background()); err != nil {
			b.Error(err)
		}
	}()
	hook := bt.WebhookHandler("s")
	alice := game.Player{UserID: 1001, Name: "Alice", ChatID: 1001, Lang: "en"}
	bob := game.Player{UserID: 1002, Name: "Bob", ChatID: 1002, Lang: "en"}
	var g *game.Game
	var eg *engine.Game
	newGame := func() {
		g = &game.Game{Size: 8, Flow: game.FlowInvite, Status: game.StatusPlaying,
			Players: [2]game.Player{alice, bob}, Lang: "en", LastMoveAt: time.Now(),
			Boards: []game.MessageRef{{ChatID: 1001, MessageID: 10}, {ChatID: 1002, MessageID: 11}}}
		if err := store.CreateGame(context.Background(), g); err != nil {
			b.Fatal(err)
		}
		eg, _ = engine.NewGame(8)
	}
	newGame()
	// The tapped message as Telegram sends it, keyboard and all; the rest of the update is
	// filled in for each tap.
	tapped := func(p game.Player, msg int) []byte {
		m, _ := json.Marshal(models.Message{ID: msg, Date: 1700000000,
			Chat: models.Chat{ID: p.ChatID, Type: models.ChatTypePrivate},
			From: &models.User{ID: 1, IsBot: true, FirstName: "Reversi"},
			Text: "⚫ Alice — ⚪ Bob\nBlack to move", ReplyMarkup: &kb})
		return m
	}
	messages := [2][]byte{tapped(alice, 10), tapped(bob, 11)}
	update := func(id int, side int, data string) []byte {
		p := g.Players[side]
		return fmt.Appendf(nil, `{"update_id":%d,"callback_query":{"id":"q%d","from":{"id":%d,"is_bot":false,"first_name":%q,"language_code":"en"},"message":%s,"chat_instance":"ci","data":%q}}`,
			id, id, p.UserID, p.Name, messages[side], data)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		if eg.Position().GameOver() {
			b.StopTimer()
			newGame()
			b.StartTimer()
		}
		for eg.Position().MustPass() {
			_, _ = eg.Play(engine.Pass)
		}
		side := int(eg.Position().Side())
		sq := eg.Position().LegalMoves()[0]
		data := callback.Data{Action: callback.ActionMove, Game: g.ID, Ply: len(g.Moves), Square: sq, Pos: eg.Position().Tag()}.Encode()
		body := update(i+1, side, data)
		req := httptest.NewRequest(http.MethodPost, "/hook", bytes.NewReader(body))
		req.Header.Set("X-Telegram-Bot-Api-Secret-Token", "s")
		rec := httptest.NewRecorder()
		hook.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("webhook: %d", rec.Code)
		}
		if _, err := eg.Play(sq); err != nil {
			b.Fatal(err)
		}
		g.Moves = append(g.Moves, byte(sq))
		edits, answers := 0, 0
		for edits < 2 || answers < 1 {
			select {
			case m := <-stub.calls:
				switch m {
				case "editMessageText":
					edits++
				case "answerCallbackQuery":
					answers++
				case "sendMessage", "deleteMessage", "sendAnimation":
					// A turn notice (none after a pass) and the one it replaces, or a finished
					// game's replay: sent after the step, outside the op's measure.
				default:
					b.Fatalf("unexpected call %s", m)
				}
			case <-time.After(10 * time.Second):
				b.Fatalf("move %d: %d edits, %d answers", i, edits, answers)
			}
		}
	}
	// CPU time of the whole process (bot, stub server, benchmark; the embedded Redis when
	// REDIS_URL is unset) per move.
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(b.N), "cpu-µs/op")
}
