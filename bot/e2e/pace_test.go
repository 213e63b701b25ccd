package e2e_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/bot/present"
	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
)

// The tests of the pacing: two bots on one Redis against the fake enforcing Telegram's flood
// limits over every window (a group's twenty calls in any minute), both sped up by
// paceTestSpeed (the bots at the same speed as the fake: the real ratio), players tapping the
// instant a board shows their turn. Each test fails on any 429 (startLimited, strict), checks
// every game against its reference replay, and logs how far the boards lagged behind their
// games. No margin of time is needed: a call counts in the bots' budgets from before it leaves
// until its answer came, so however late it reaches the fake (a loaded machine running -race),
// it falls in every window the fake counts it in.

// paceTestSpeed is how much faster than Telegram's the flood limits run in these tests: a
// group's twenty edits a minute become one every 300 ms.
const paceTestSpeed = 10

// newPacedCluster is two bots round robin behind a balancer, on the strict fake, both at
// Telegram's limits sped up k times.
func newPacedCluster(t *testing.T, k int) *cluster {
	t.Helper()
	// The shared budgets are what these tests prove (healthyRedis): a Redis call the loaded
	// machine stalls past the production bound would hand the pacing to each bot's own budgets,
	// which know nothing of the other bot's sends (TestClusterOptionalMasterLost tests that
	// fallback).
	c := newClusterOn(t, startLimited(t, k, true), k, redisURL(t), nil, healthyRedis)
	t.Cleanup(func() { // before startLimited's check fails the test: what the bots said of it
		if c.srv.TooManyRequests().Total == 0 {
			return
		}
		for line := range strings.SplitSeq(c.logs.String(), "\n") {
			if strings.Contains(line, "level=WARN") || strings.Contains(line, "level=ERROR") {
				t.Log(line)
			}
		}
	})
	return c
}

// pacedGame is a game played by the pacing tests, as its players see it.
type pacedGame struct {
	name    string
	board   telegramtest.ChatMessage // the one board both players tap on (a group's, an inline post)
	players [2]*telegramtest.Person  // black, white; nil for the AI (FirstMover)
	ref     *replica
	rng     *rand.Rand
	maxPly  int // stop after this many moves and resign (0: play to the end)
	lags    []time.Duration
}

// shown is the current state of the game's board.
func (c *cluster) shown(pg *pacedGame) (telegramtest.ChatMessage, bool) {
	if pg.board.InlineID != "" {
		return c.srv.InlineMessage(pg.board.InlineID)
	}
	return c.srv.Message(pg.board.ChatID, pg.board.ID)
}

// waitShown waits until the board of pg shows ply with its buttons, or ctx ends.
func (c *cluster) waitShown(ctx context.Context, pg *pacedGame, ply int) (telegramtest.ChatMessage, error) {
	var got telegramtest.ChatMessage
	err := c.srv.WaitFor(ctx, func(v telegramtest.View) bool {
		var ok bool
		if pg.board.InlineID != "" {
			got, ok = v.InlineMessage(pg.board.InlineID)
		} else {
			got, ok = v.Message(pg.board.ChatID, pg.board.ID)
		}
		return ok && boardPly(got) == ply
	})
	if err != nil {
		return got, fmt.Errorf("%s: the board never showed ply %d (it shows %d): %w", pg.name, ply, boardPly(got), err)
	}
	return got, nil
}

// playPaced plays pg to its end (or maxPly, then the side to move resigns): the player to move
// taps a random legal move the instant the board shows the position, the AI (white in an AI
// game) answers with its lowest legal square. It records each board's lag, the time from a
// tap to the board showing the move (in an AI game: and the AI's reply). Errors are returned,
// not reported, so that games can run in goroutines.
func (c *cluster) playPaced(ctx context.Context, pg *pacedGame) error {
	for !pg.ref.g.Over() && (pg.maxPly == 0 || len(pg.ref.moves) < pg.maxPly) {
		side := pg.ref.toMove()
		u := pg.players[side]
		board, err := c.waitShown(ctx, pg, len(pg.ref.moves))
		if err != nil {
			return err
		}
		legal := pg.ref.legal()
		sq := legal[pg.rng.IntN(len(legal))]
		b, ok := moveButton(board, sq)
		if !ok || b.Text != present.LegalMark {
			return fmt.Errorf("%s: the board has no legal-move button for %v:%s", pg.name, sq, dump(board))
		}
		start := time.Now()
		var qid string
		if pg.board.InlineID != "" {
			qid, err = u.PressInlineData(pg.board.InlineID, b.CallbackData)
		} else {
			qid, err = u.Press(board, b.CallbackData)
		}
		if err != nil {
			return fmt.Errorf("%s: press %v: %w", pg.name, sq, err)
		}
		ans, err := c.srv.WaitCallbackAnswer(ctx, qid)
		if err != nil || ans.ShowAlert {
			return fmt.Errorf("%s: move %v answered %q (alert %v), %v", pg.name, sq, ans.Text, ans.ShowAlert, err)
		}
		if err := pg.ref.try(sq); err != nil {
			return fmt.Errorf("%s: %w", pg.name, err)
		}
		for pg.players[pg.ref.toMove()] == nil && !pg.ref.g.Over() { // the AI's reply
			if err := pg.ref.try(pg.ref.legal()[0]); err != nil {
				return fmt.Errorf("%s: %w", pg.name, err)
			}
		}
		if _, err := c.waitShown(ctx, pg, len(pg.ref.moves)); err != nil {
			return err
		}
		pg.lags = append(pg.lags, time.Since(start))
	}
	if pg.ref.g.Over() {
		return nil
	}
	u := pg.players[pg.ref.toMove()]
	cur, _ := c.shown(pg)
	var qid string
	var err error
	// Resign, answering its question (Yes, asked of the player to move, on the position shown:
	// the reference's, after the pass it owes) at once.
	pos := pg.ref.g.Position()
	if pos.MustPass() {
		pos, _, _ = pos.Play(engine.Pass)
	}
	data := callback.Data{Action: callback.ActionResign, Game: gameID(cur), Page: int(pg.ref.toMove()) + 1,
		Arg: callback.ResignYes, Pos: pos.Tag()}.Encode()
	if pg.board.InlineID != "" {
		qid, err = u.PressInlineData(pg.board.InlineID, data)
	} else {
		qid, err = u.PressData(cur.ChatID, cur.ID, data)
	}
	if err != nil {
		return fmt.Errorf("%s: resign: %w", pg.name, err)
	}
	if _, err := c.srv.WaitCallbackAnswer(ctx, qid); err != nil {
		return fmt.Errorf("%s: resign: %w", pg.name, err)
	}
	return nil
}

// checkPaced checks that the store holds exactly pg's reference moves (none lost or doubled)
// and that the game is over.
func (c *cluster) checkPaced(pg *pacedGame, id string) {
	c.t.Helper()
	g, err := c.stores[0].Game(context.Background(), id)
	if err != nil {
		c.t.Fatalf("%s: game %s: %v", pg.name, id, err)
	}
	want := make([]byte, len(pg.ref.moves))
	for i, sq := range pg.ref.moves {
		want[i] = byte(sq)
	}
	if !slices.Equal(g.Moves, want) {
		c.t.Errorf("%s: stored moves\n got %x\nwant %x", pg.name, g.Moves, want)
	}
	if err := c.srv.WaitFor(guard(c.t), func(telegramtest.View) bool {
		g, err = c.stores[0].Game(context.Background(), id)
		return err == nil && g.Status == game.StatusFinished
	}); err != nil {
		c.t.Errorf("%s: game %s is %v, want finished", pg.name, id, g.Status)
	}
}

// logLags logs the lag percentiles of the games and the pace of moves.
func logLags(t *testing.T, what string, k int, elapsed time.Duration, games ...*pacedGame) {
	var all []time.Duration
	for _, g := range games {
		all = append(all, g.lags...)
	}
	if len(all) == 0 {
		return
	}
	slices.Sort(all)
	pct := func(p float64) time.Duration { return all[min(len(all)-1, int(p*float64(len(all))))] }
	t.Logf("%s: %d moves in %v (%.2f moves/s, at %d× Telegram's limits); board lag p50 %v p99 %v max %v",
		what, len(all), elapsed.Round(time.Millisecond), float64(len(all))/elapsed.Seconds(), k,
		pct(0.50).Round(time.Millisecond), pct(0.99).Round(time.Millisecond), all[len(all)-1].Round(time.Millisecond))
}

// blackOf returns the users of the game on board m as black and white.
func (c *cluster) blackOf(m telegramtest.ChatMessage, a, b *telegramtest.Person) [2]*telegramtest.Person {
	c.t.Helper()
	g, err := c.stores[0].Game(context.Background(), gameID(m))
	if err != nil {
		c.t.Fatal(err)
	}
	if g.Players[0].UserID == a.ID() {
		return [2]*telegramtest.Person{a, b}
	}
	return [2]*telegramtest.Person{b, a}
}

// openGroupGame has alice open a game in the group chat with /new and bob join it, and returns
// its first board and the paced game of it, with moves drawn from seed.
func openGroupGame(t *testing.T, c *cluster, chat *telegramtest.Group, alice, bob *telegramtest.Person, seed uint64) (telegramtest.ChatMessage, *pacedGame) {
	t.Helper()
	last := c.lastID(chat.ID())
	if _, err := alice.Send(chat.ID(), "/new@"+telegramtest.DefaultBotUsername); err != nil {
		t.Fatal(err)
	}
	lobby := c.waitMsg(chat.ID(), "the lobby", last, func(m telegramtest.ChatMessage) bool {
		return strings.Contains(m.Content(), "wants to play") && m.Markup != nil
	})
	last = c.lastID(chat.ID())
	if _, err := bob.Press(lobby, "✅ Join"); err != nil {
		t.Fatal(err)
	}
	board := c.waitMsg(chat.ID(), "the board", last, func(m telegramtest.ChatMessage) bool { return boardPly(m) == 0 })
	pg := &pacedGame{name: "group", board: board, players: c.blackOf(board, alice, bob), ref: newReplica(t),
		rng: rand.New(rand.NewPCG(seed, seed))}
	return board, pg
}

// A whole 8×8 group game between two players who tap the instant the board shows their turn:
// the game goes at the group's budget, without a 429.
func TestPacedGroupGame(t *testing.T) {
	c := newPacedCluster(t, paceTestSpeed)
	alice, bob := c.user("Alice"), c.user("Bob")
	chat := c.srv.NewGroup("Club", alice, bob)
	board, pg := openGroupGame(t, c, chat, alice, bob, 1)
	start := time.Now()
	if err := c.playPaced(guardFor(t, 2*time.Minute), pg); err != nil {
		t.Fatal(err)
	}
	logLags(t, "group game", paceTestSpeed, time.Since(start), pg)
	c.checkPaced(pg, gameID(board))
	c.check(gameID(board), pg.ref, board)
}

// The same group game while a third member keeps asking for /help in the group: boards and
// notices share the group's budget and still no minute holds more than twenty of its calls.
// The boards go first; every notice comes, the last ones once the game is over.
func TestPacedGroupGameWithNotices(t *testing.T) {
	c := newPacedCluster(t, paceTestSpeed)
	alice, bob, carol := c.user("Alice"), c.user("Bob"), c.user("Carol")
	chat := c.srv.NewGroup("Club", alice, bob, carol)
	board, pg := openGroupGame(t, c, chat, alice, bob, 4)
	ctx := guardFor(t, 2*time.Minute)
	played := make(chan error, 1)
	go func() { played <- c.playPaced(ctx, pg) }()
	const asks = 12
	last := c.lastID(chat.ID())
	for range asks {
		if _, err := carol.Send(chat.ID(), "/help@"+telegramtest.DefaultBotUsername); err != nil {
			t.Fatal(err)
		}
	}
	if err := <-played; err != nil {
		t.Fatal(err)
	}
	isHelp := func(m telegramtest.ChatMessage) bool { return m.ID > last && strings.Contains(m.Content(), "/rules") }
	if err := c.srv.WaitFor(ctx, func(v telegramtest.View) bool {
		n := 0
		for _, m := range v.Messages(chat.ID()) {
			if isHelp(m) {
				n++
			}
		}
		return n == asks
	}); err != nil {
		t.Fatalf("the help notices never all came: %v", err)
	}
	c.checkPaced(pg, gameID(board))
	c.check(gameID(board), pg.ref, board)
}

// A whole 8×8 game against the AI in a private chat, tapped as fast as the board allows.
func TestPacedPrivateAIGame(t *testing.T) {
	c := newPacedCluster(t, paceTestSpeed)
	alice := c.user("Alice")
	last := c.lastID(alice.ID())
	if _, err := alice.Send(alice.ID(), "/ai 8 1 black"); err != nil {
		t.Fatal(err)
	}
	board := c.waitMsg(alice.ID(), "the board", last, func(m telegramtest.ChatMessage) bool { return gameID(m) != "" })
	pg := &pacedGame{name: "AI", board: board, players: [2]*telegramtest.Person{alice, nil}, ref: newReplica(t),
		rng: rand.New(rand.NewPCG(2, 2))}
	start := time.Now()
	if err := c.playPaced(guardFor(t, 2*time.Minute), pg); err != nil {
		t.Fatal(err)
	}
	logLags(t, "private AI game", paceTestSpeed, time.Since(start), pg)
	c.checkPaced(pg, gameID(board))
	c.check(gameID(board), pg.ref, board)
}

// inlineGames (on a cluster at k× the limits) opens n inline games, each posted into chat (0: each pair's own group), joined
// and played at once by their own pair of players, maxPly moves each (then resigned).
func (c *cluster) inlineGames(t *testing.T, k, n, maxPly int, chat func(i int, a, b *telegramtest.Person) int64) {
	games := make([]*pacedGame, n)
	for i := range n {
		a, b := c.user(fmt.Sprintf("A%d", i)), c.user(fmt.Sprintf("B%d", i))
		qid, err := a.InlineQuery("")
		if err != nil {
			t.Fatal(err)
		}
		ans, err := c.srv.WaitInlineAnswer(guard(t), qid)
		if err != nil {
			t.Fatal(err)
		}
		var result string
		for _, r := range ans.Results {
			if strings.HasPrefix(r.ID, "g8.") {
				result = r.ID
			}
		}
		post, err := a.ChooseInlineResult(result, chat(i, a, b))
		if err != nil {
			t.Fatal(err)
		}
		games[i] = &pacedGame{name: fmt.Sprintf("inline %d", i), board: post, players: [2]*telegramtest.Person{a, b},
			ref: newReplica(t), rng: rand.New(rand.NewPCG(uint64(i), 3)), maxPly: maxPly}
	}
	// Every game is joined at once, then played at once.
	for _, pg := range games {
		if _, err := pg.players[1].PressInline(pg.board.InlineID, "✅ Join"); err != nil {
			t.Fatal(err)
		}
	}
	ctx := guardFor(t, 3*time.Minute)
	for _, pg := range games {
		board, err := c.waitShown(ctx, pg, 0)
		if err != nil || gameID(board) == "" {
			t.Fatalf("%s never became a game: %v", pg.name, err)
		}
		pg.players = c.blackOf(board, pg.players[0], pg.players[1])
	}
	start := time.Now()
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i, pg := range games {
		wg.Go(func() { errs[i] = c.playPaced(ctx, pg) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	logLags(t, fmt.Sprintf("%d inline games", n), k, time.Since(start), games...)
	for _, pg := range games {
		cur, _ := c.shown(pg)
		c.checkPaced(pg, gameID(cur))
	}
}

// Ten games at once in one group (inline posts: a group hosts one game of its own), each
// played for 20 moves by its own pair of players tapping as fast as their boards allow.
func TestPacedTenGamesInOneGroup(t *testing.T) {
	c := newPacedCluster(t, paceTestSpeed)
	var group *telegramtest.Group
	c.inlineGames(t, paceTestSpeed, 10, 20, func(i int, a, b *telegramtest.Person) int64 {
		if group == nil {
			group = c.srv.NewGroup("Club")
		}
		group.Add(a, b)
		return group.ID()
	})
}

// A burst of sixty inline games at once, each in its own pair's chat, played for 8 moves
// each: the bot's global budget is the one that binds.
func TestPacedSixtyInlineGames(t *testing.T) {
	c := newPacedCluster(t, paceTestSpeed)
	c.inlineGames(t, paceTestSpeed, 60, 8, func(i int, a, b *telegramtest.Person) int64 {
		return c.srv.NewGroup(fmt.Sprintf("Pair %d", i), a, b).ID()
	})
}

// guardFor bounds a long wait that should succeed.
func guardFor(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}
