package bot_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/reversibot/reversi/bot"
	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/render"
)

// aiLoad keeps the bot's AI pool busy: each user plays a 16×16 game against the strongest AI
// (the real engine/ai searches, up to about two seconds a move), tapping their first legal
// move as soon as it is their turn, until ctx ends.
func aiLoad(ctx context.Context, h *harness, users []*telegramtest.User, wg *sync.WaitGroup) {
	for _, u := range users {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := u.Send(u.ID(), "/ai 16 6 white"); err != nil {
				return
			}
			board, err := h.srv.WaitMessage(ctx, u.ID(), func(m telegramtest.Message) bool { return gameID(m) != "" })
			if err != nil {
				return
			}
			who := render.WhiteDisc + " " + u.Model().FirstName
			for ctx.Err() == nil {
				var cur telegramtest.Message
				err := h.srv.WaitFor(ctx, func(v telegramtest.View) bool {
					m, ok := v.Message(board.ChatID, board.ID)
					cur = m
					return ok && (toMove(m, who) || finished(m))
				})
				if err != nil || finished(cur) {
					return
				}
				moves := legalMoves(cur)
				if len(moves) == 0 {
					return
				}
				ply := boardPly(cur)
				if _, err := u.Press(cur, moves[0].CallbackData); err != nil {
					return
				}
				_ = h.srv.WaitFor(ctx, func(v telegramtest.View) bool {
					m, ok := v.Message(board.ChatID, board.ID)
					return ok && boardPly(m) != ply
				})
			}
		}()
	}
}

// BenchmarkMoveAck measures how soon a human move in a game between people is acknowledged
// (from the tap to the bot's answerCallbackQuery, through the fake Bot API's long polling and
// the store: real Redis when REDIS_URL is set) while both cores are busy with AI searches of
// four 16×16 games at level 6. It reports the 50th and 99th percentiles.
// loadGames is the number of AI games played beside the measured one (BOT_LOAD overrides).
var loadGames = envInt("BOT_LOAD", 4)

func BenchmarkMoveAck(b *testing.B) {
	procs := runtime.GOMAXPROCS(0)
	b.Cleanup(func() { runtime.GOMAXPROCS(procs) }) // bot.New raises it for the real AI
	h := newHarness(b, func(o *bot.Options) { o.Mover = nil; o.AIWorkers = 2 })
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }()
	var load []*telegramtest.User
	for i := range loadGames {
		load = append(load, h.user(fmt.Sprintf("Load%d", i), "en"))
	}
	aiLoad(ctx, h, load, &wg)

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
		h.waitMsg(u.ID(), "the AI's first move", func(m telegramtest.Message) bool { return boardPly(m) >= 1 })
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
			b.Fatalf("no move:%s", dump([]telegramtest.Message{board}))
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
			h.waitState(s.board, "both boards", func(m telegramtest.Message) bool { return boardPly(m) > ply || finished(m) })
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
