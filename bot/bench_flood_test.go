package bot_test

import (
	"context"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/engine/ai"
	"github.com/reversibot/reversi/game/gametest"
	"github.com/reversibot/reversi/render"
)

// floodBurst is the number of messages the flooder sends each time the AI owes a move in the
// flooded game (BOT_FLOOD overrides).
var floodBurst = envInt("BOT_FLOOD", 20)

// latestBoard returns the board in chat that shows the game furthest on (the newest of
// those): /board and the catching up of stale taps move the game's board among the chat's
// messages, and the others keep what they showed.
func latestBoard(v telegramtest.View, chat int64) (telegramtest.ChatMessage, bool) {
	var best telegramtest.ChatMessage
	found := false
	for _, m := range v.BotMessages(chat) {
		if gameID(m) == "" {
			continue
		}
		if !found || boardPly(m) >= boardPly(best) || finished(m) {
			best, found = m, true
		}
	}
	return best, found
}

// floodAI has u play the 16×16 level-6 AI in a group with friend and, each time the AI owes
// a move, send floodBurst messages while it thinks: u's typed moves ("not your turn"), u's
// taps on an out-of-date board, and friend's /board. u plays its first legal move on its
// turns. It counts the messages it sends in sent, and runs until ctx ends.
func floodAI(ctx context.Context, h *harness, u, friend *telegramtest.Person, sent *atomic.Int64, wg *sync.WaitGroup) {
	g := h.srv.NewGroup("Flood", u, friend)
	who := render.WhiteDisc + " " + u.Model().FirstName
	a1, _ := engine.ParseSquare("a1")
	wg.Add(1)
	go func() {
		defer wg.Done()
		if _, err := u.Send(g.ID(), "/ai 16 6 white"); err != nil {
			return
		}
		for ctx.Err() == nil {
			var cur telegramtest.ChatMessage
			err := h.srv.WaitFor(ctx, func(v telegramtest.View) bool {
				m, ok := latestBoard(v, g.ID())
				cur = m
				return ok
			})
			if err != nil || finished(cur) {
				return
			}
			if toMove(cur, who) {
				if !tapFirstMove(ctx, h, u, cur, func(v telegramtest.View) (telegramtest.ChatMessage, bool) {
					return latestBoard(v, g.ID())
				}) {
					return
				}
				continue
			}
			// The AI owes a move: flood while it thinks.
			ply := boardPly(cur)
			stale := callback.Data{Action: callback.ActionMove, Game: gameID(cur), Ply: ply + 100, Square: a1}.Encode()
			for i := range floodBurst {
				switch i % 3 {
				case 0:
					_, _ = u.Send(g.ID(), "/move a1")
				case 1:
					_, _ = friend.Send(g.ID(), "/board")
				case 2:
					_, _ = u.PressData(cur.ChatID, cur.ID, stale)
				}
				sent.Add(1)
			}
			_ = h.srv.WaitFor(ctx, func(v telegramtest.View) bool {
				m, ok := latestBoard(v, g.ID())
				return ok && (boardPly(m) != ply || finished(m))
			})
		}
	}()
}

// BenchmarkAIUnderFlood measures the reply time of the level-1 AI to a player on 8×8 (from the
// player's tap to the board showing the AI's answer, through the fake Bot API) while another
// user floods a 16×16 game against the level-6 AI in a group (floodBurst messages each time
// that AI owes a move: typed moves, stale taps, /board), with the real engine/ai on two AI
// workers. It reports the 50th, 90th and 99th percentiles, the level's budget, and the share
// of replies over that budget plus one search of the flooded game (what must hold).
func BenchmarkAIUnderFlood(b *testing.B) {
	h, ctx, wg := realAIBench(b)
	flooder, friend, player := h.user("Flood", "en"), h.user("Friend", "en"), h.user("Player", "en")
	var sent atomic.Int64
	floodAI(ctx, h, flooder, friend, &sent, wg)
	gametest.Until(b, "the first flood", func() bool { return sent.Load() >= int64(floodBurst) })

	who := render.BlackDisc + " Player"
	newGame := func() telegramtest.ChatMessage { return h.sendForBoard(player, player.ID(), "/ai 8 1 black") }
	board := newGame()
	var replies []time.Duration
	sent0, wall0 := sent.Load(), time.Now()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cur := h.current(board)
		if finished(cur) {
			b.StopTimer()
			board = newGame()
			cur = h.current(board)
			b.StartTimer()
		}
		moves := legalMoves(cur)
		if len(moves) == 0 {
			b.Fatalf("no move:%s", dump([]telegramtest.ChatMessage{cur}))
		}
		ply := boardPly(cur)
		start := time.Now()
		if a := h.pressData(player, cur, moves[0].CallbackData); a.ShowAlert {
			b.Fatalf("move answered %q", a.Text)
		}
		// A long guard: on a starved AI the reply can take a minute.
		wctx, wcancel := context.WithTimeout(ctx, 5*time.Minute)
		err := h.srv.WaitFor(wctx, func(v telegramtest.View) bool {
			m, ok := v.Message(board.ChatID, board.ID)
			return ok && (finished(m) || boardPly(m) > ply && toMove(m, who))
		})
		wcancel()
		if err != nil {
			b.Fatalf("no reply from the AI: %v", err)
		}
		replies = append(replies, time.Since(start))
	}
	b.StopTimer()
	b.ReportMetric(float64(sent.Load()-sent0)/time.Since(wall0).Seconds(), "flood-msgs/s")
	slices.Sort(replies)
	pct := func(p float64) time.Duration { return replies[min(len(replies)-1, int(float64(len(replies))*p))] }
	// What must hold: within the level's budget plus one search of the flooded game's level.
	bound := ai.LevelBeginner.Budget(8) + ai.LevelMaster.Budget(16)
	over := len(replies) - sort.Search(len(replies), func(i int) bool { return replies[i] > bound })
	b.ReportMetric(100*float64(over)/float64(len(replies)), "over-bound-%")
	b.ReportMetric(float64(pct(0.5).Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(pct(0.9).Microseconds())/1000, "p90-ms")
	b.ReportMetric(float64(pct(0.99).Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(replies[len(replies)-1].Microseconds())/1000, "max-ms")
	b.ReportMetric(float64(ai.LevelBeginner.Budget(8).Milliseconds()), "budget-ms")
}
