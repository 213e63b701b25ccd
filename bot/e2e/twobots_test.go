package e2e_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reversibot/reversi/bot"
	"github.com/reversibot/reversi/bot/botapi"
	"github.com/reversibot/reversi/bot/e2e"
	"github.com/reversibot/reversi/bot/present"
	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/storage"
)

const secret = "e2e-secret"

// cluster is two bots on one Redis behind a Balancer, fed by one fake Bot API server.
type cluster struct {
	t      *testing.T
	srv    *telegramtest.Server
	stores []*storage.Store
	bots   []*bot.Running
	bal    *e2e.Balancer
	logs   *logBuffer
	both   *atomic.Int64 // updates the route sent to both bots
	prefix string        // the stores' key prefix
	stop   func()        // stops the balancer and the bots and waits for their work; idempotent
}

// newCluster starts the fake server, two bots (each with its own store connections, AI pool,
// edit coalescing and random source, as two processes have) and the balancer. Every fourth
// update goes to both bots, in an order that alternates, as a webhook retry that the load
// balancer sends to the other process would; the others alternate between the bots.
func newCluster(t *testing.T) *cluster {
	t.Helper()
	return newClusterAtWith(t, redisURL(t), healthyRedis)
}

// healthyRedis gives the bots' optional guard 5 s (Options.OptionalTimeout): the tests on a
// Redis that stays up prove what the processes share through it (dedupe, budgets, pacing), not
// the fallback a Redis call stalled by a loaded machine's race detector would take.
func healthyRedis(_ int, o *bot.Options) { o.OptionalTimeout = 5 * time.Second }

// newClusterAt is newCluster over the Redis at url, with the guard's production bounds (the
// tests that stop or fail that Redis).
func newClusterAt(t *testing.T, url string) *cluster {
	t.Helper()
	return newClusterAtWith(t, url, nil)
}

// newClusterAtWith is newClusterAt with with called on each bot's options.
func newClusterAtWith(t *testing.T, url string, with func(i int, o *bot.Options)) *cluster {
	t.Helper()
	both := new(atomic.Int64)
	c := newClusterWith(t, url, func(n int64) []int {
		switch {
		case n%8 == 3:
			both.Add(1)
			return []int{0, 1}
		case n%8 == 7:
			both.Add(1)
			return []int{1, 0}
		}
		return []int{int(n % 2)}
	}, with)
	c.both = both
	return c
}

// newClusterWith starts the fake server and two bots over the Redis at url behind a balancer
// whose Route is route; with is called on each bot's options before the bot is made.
func newClusterWith(t *testing.T, url string, route func(n int64) []int, with func(i int, o *bot.Options)) *cluster {
	t.Helper()
	return newClusterOn(t, startLimited(t, speedup, false), paceSpeedup, url, route, with)
}

// newClusterOn is newClusterWith on the fake server srv, the bots pacing themselves at
// Telegram's limits sped up paceK times.
func newClusterOn(t *testing.T, srv *telegramtest.Server, paceK int, url string, route func(n int64) []int, with func(i int, o *bot.Options)) *cluster {
	t.Helper()
	return newClusterPrefixed(t, srv, paceK, url, newPrefix(), route, with)
}

// newClusterPrefixed is newClusterOn with the stores' key prefix given: bots started again on
// the keys of earlier ones.
func newClusterPrefixed(t *testing.T, srv *telegramtest.Server, paceK int, url, prefix string, route func(n int64) []int, with func(i int, o *bot.Options)) *cluster {
	t.Helper()
	c := &cluster{t: t, srv: srv, logs: &logBuffer{}, both: new(atomic.Int64), prefix: prefix}
	c.stores = openStoresAt(t, url, prefix, 2)
	ctx := context.Background()
	var targets []http.Handler
	for i, st := range c.stores {
		log := c.logs.logger(fmt.Sprintf("bot%d", i))
		pool := game.NewAIPool(1, 0)
		svc := game.New(game.Config{Store: st, Mover: firstMover{}, Pool: pool, IdleAfter: time.Hour,
			Rand: rand.New(rand.NewPCG(uint64(i), 7)), Logger: log})
		t.Cleanup(func() { svc.Close(); pool.Close() }) // after c.stop, registered later
		o := bot.Options{Token: c.srv.Token(), APIURL: c.srv.URL(), Service: svc,
			Players: game.NewPlayers(st), Dedupe: st, RateLimiter: st, Logger: log,
			Pace: botapi.DefaultPaceLimits.Faster(paceK), PaceBudgets: st.PaceBudgets(), Drawings: st}
		if with != nil {
			with(i, &o)
		}
		b, err := bot.Start(ctx, o)
		if err != nil {
			t.Fatalf("bot.Start: %v", err)
		}
		c.bots = append(c.bots, b)
		targets = append(targets, b.WebhookHandler(secret))
	}
	if err := c.bots[0].Setup(ctx); err != nil {
		t.Fatalf("Setup: %v", err)
	}
	c.bal = &e2e.Balancer{APIURL: c.srv.URL(), Token: c.srv.Token(), Targets: targets, Secret: secret,
		Route: route}
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- c.bal.Run(runCtx) }()
	var once sync.Once
	c.stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("balancer: %v", err)
			}
			sctx, c2 := context.WithTimeout(context.Background(), 30*time.Second)
			defer c2()
			for _, b := range c.bots {
				if err := b.Shutdown(sctx); err != nil {
					t.Errorf("Shutdown: %v", err)
				}
			}
		})
	}
	t.Cleanup(func() {
		c.stop()
		if t.Failed() {
			t.Logf("bot logs:\n%s", c.logs.String())
		}
	})
	return c
}

// with returns c for a subtest t: the same bots and server, failures reported to t.
func (c *cluster) with(t *testing.T) *cluster {
	cc := *c
	cc.t = t
	return &cc
}

// user creates a user who has written /help to the bot, so the bot may write to them.
func (c *cluster) user(name string) *telegramtest.Person {
	c.t.Helper()
	u := c.srv.NewUser(name, "en")
	if _, err := u.Send(u.ID(), "/help"); err != nil {
		c.t.Fatal(err)
	}
	c.waitMsg(u.ID(), "help", 0, func(m telegramtest.ChatMessage) bool { return strings.Contains(m.Content(), "/rules") })
	return u
}

// waitMsg waits for a bot message in chat newer than id after that matches pred.
func (c *cluster) waitMsg(chat int64, what string, after int, pred func(telegramtest.ChatMessage) bool) telegramtest.ChatMessage {
	c.t.Helper()
	m, err := c.srv.WaitMessage(guard(c.t), chat, func(m telegramtest.ChatMessage) bool { return m.ID > after && pred(m) })
	if err != nil {
		c.t.Fatalf("waiting for %s in chat %d: %v\nmessages:%s", what, chat, err, dump(c.srv.BotMessages(chat)...))
	}
	return m
}

// lastID is the id of the newest message of chat (0 when none).
func (c *cluster) lastID(chat int64) int {
	if m, ok := c.srv.LastMessage(chat); ok {
		return m.ID
	}
	return 0
}

// waitPly waits until board message m shows ply.
func (c *cluster) waitPly(m telegramtest.ChatMessage, ply int) telegramtest.ChatMessage {
	c.t.Helper()
	var got telegramtest.ChatMessage
	err := c.srv.WaitFor(guard(c.t), func(v telegramtest.View) bool {
		cur, ok := v.Message(m.ChatID, m.ID)
		got = cur
		return ok && boardPly(cur) == ply
	})
	if err != nil {
		c.t.Fatalf("board %d/%d never showed ply %d: %v\nnow:%s", m.ChatID, m.ID, ply, err, dump(got))
	}
	return got
}

// tap presses the move sq on board m as u and returns the callback answer. The button must
// show the legal-move mark: the board the player sees agrees with the reference.
func (c *cluster) tap(u *telegramtest.Person, m telegramtest.ChatMessage, sq engine.Square) telegramtest.CallbackAnswer {
	c.t.Helper()
	qid := c.press(u, m, sq)
	a, err := c.srv.WaitCallbackAnswer(guard(c.t), qid)
	if err != nil {
		c.t.Fatalf("tap %v: %v", sq, err)
	}
	return a
}

// press presses the move sq on board m as u without waiting for the answer.
func (c *cluster) press(u *telegramtest.Person, m telegramtest.ChatMessage, sq engine.Square) string {
	c.t.Helper()
	b, ok := moveButton(m, sq)
	if !ok || b.Text != present.LegalMark {
		c.t.Fatalf("board has no legal-move button for %v (reference says legal):%s", sq, dump(m))
	}
	qid, err := u.Press(m, b.CallbackData)
	for tries := 0; err != nil && tries < 3; tries++ {
		// An edit of the other bot drawn from an older state landed after m was read: the
		// button is gone until the recheck draws the board again (boards.CheckDelay).
		m = c.waitPly(m, boardPly(m))
		qid, err = u.Press(m, b.CallbackData)
	}
	if err != nil {
		c.t.Fatalf("Press %v: %v", sq, err)
	}
	return qid
}

// replica is the reference replay of a game: the position and the moves (passes left out,
// as the store keeps them).
type replica struct {
	g     *engine.Game
	moves []engine.Square
}

func newReplica(t *testing.T) *replica {
	g, err := engine.NewGame(8)
	if err != nil {
		t.Fatal(err)
	}
	return &replica{g: g}
}

// play plays sq, inserting the pass the side to move owes first.
func (r *replica) play(t *testing.T, sq engine.Square) {
	t.Helper()
	if err := r.try(sq); err != nil {
		t.Fatal(err)
	}
}

// try is play returning the error of a move the reference finds illegal.
func (r *replica) try(sq engine.Square) error {
	if r.g.Position().MustPass() {
		if _, err := r.g.Play(engine.Pass); err != nil {
			return err
		}
	}
	if _, err := r.g.Play(sq); err != nil {
		return fmt.Errorf("reference replay: %w", err)
	}
	r.moves = append(r.moves, sq)
	return nil
}

// toMove is the colour to move, after any pass.
func (r *replica) toMove() engine.Color {
	p := r.g.Position()
	if p.MustPass() {
		return p.Side().Opponent()
	}
	return p.Side()
}

// legal is the legal moves of the side to move, after any pass.
func (r *replica) legal() []engine.Square {
	p := r.g.Position()
	if p.MustPass() {
		p, _, _ = p.Play(engine.Pass)
	}
	return p.LegalMoves()
}

// check compares the game as the store and the final boards show it with the reference.
func (c *cluster) check(id string, ref *replica, boards ...telegramtest.ChatMessage) {
	c.t.Helper()
	for i, st := range c.stores { // each process reads the same game
		g, err := st.Game(context.Background(), id)
		if err != nil {
			c.t.Fatalf("store %d: game %s: %v", i, id, err)
		}
		want := make([]byte, len(ref.moves))
		for j, sq := range ref.moves {
			want[j] = byte(sq)
		}
		if !slices.Equal(g.Moves, want) {
			c.t.Errorf("store %d: game %s moves\n got %x\nwant %x", i, id, g.Moves, want)
		}
		if g.Status != game.StatusFinished {
			c.t.Errorf("store %d: game %s status %v, want finished", i, id, g.Status)
		}
	}
	wantBoard := positionText(ref.g.Position())
	for _, b := range boards {
		// An edit of the other bot drawn from an older state may land last; its recheck
		// draws the board again a moment later (boards.CheckDelay).
		var cur telegramtest.ChatMessage
		err := c.srv.WaitFor(guard(c.t), func(v telegramtest.View) bool {
			cur, _ = v.Message(b.ChatID, b.ID)
			return shownBoard(cur) == wantBoard
		})
		if err != nil {
			c.t.Errorf("final board in chat %d\n got %s\nwant %s", b.ChatID, shownBoard(cur), wantBoard)
		}
		if rec := ref.g.Record(); shownRecord(cur.Content()) != strings.ReplaceAll(rec, "pass", "") {
			c.t.Errorf("final board in chat %d lacks the record %s:%s", cur.ChatID, rec, dump(cur))
		}
	}
}

// shownRecord returns the squares of the game record a final board's text shows, in order and
// without passes: from its numbered moves ("Moves: 1. d3 c5 2. f6 pass 3. …") or, for a long
// game, its compact record ("Game record: d3c5f6"); "" when it shows none.
func shownRecord(text string) string {
	for _, line := range strings.Split(text, "\n") {
		for _, p := range []string{"Moves: ", "Ходы: ", "Game record: ", "Запись партии: "} {
			rest, ok := strings.CutPrefix(line, p)
			if !ok {
				continue
			}
			var b strings.Builder
			for _, f := range strings.Fields(rest) {
				if f != "" && f[0] >= 'a' && f[0] <= 'p' && f != "pass" {
					b.WriteString(f)
				}
			}
			return b.String()
		}
	}
	return ""
}

// peopleGame is a game between two people by invitation as its players see it.
type peopleGame struct {
	id     string
	boards map[engine.Color]telegramtest.ChatMessage
	users  map[engine.Color]*telegramtest.Person
	ref    *replica
	rng    *rand.Rand
}

// startPeople opens an 8×8 game of a (black) and b by invitation and returns it at ply 0.
func (c *cluster) startPeople(seed uint64, a, b *telegramtest.Person) *peopleGame {
	t := c.t
	t.Helper()
	aLast := c.lastID(a.ID())
	if _, err := a.Send(a.ID(), "/new 8 black"); err != nil {
		t.Fatal(err)
	}
	invite := c.waitMsg(a.ID(), "invitation", aLast, func(m telegramtest.ChatMessage) bool {
		return strings.Contains(m.Content(), "invites you") && m.Markup != nil
	})
	link, err := url.Parse(invite.Buttons()[0][0].URL)
	if err != nil || link.Query().Get("start") == "" {
		t.Fatalf("first button of the invitation is not a join link:%s", dump(invite))
	}
	aLast, bLast := c.lastID(a.ID()), c.lastID(b.ID())
	if _, err := b.Send(b.ID(), "/start "+link.Query().Get("start")); err != nil {
		t.Fatal(err)
	}
	isBoard := func(m telegramtest.ChatMessage) bool { return boardPly(m) == 0 && len(m.Buttons()) >= 8 }
	g := &peopleGame{
		boards: map[engine.Color]telegramtest.ChatMessage{
			engine.Black: c.waitMsg(a.ID(), "A's board", aLast, isBoard),
			engine.White: c.waitMsg(b.ID(), "B's board", bLast, isBoard),
		},
		users: map[engine.Color]*telegramtest.Person{engine.Black: a, engine.White: b},
		ref:   newReplica(t),
		rng:   rand.New(rand.NewPCG(seed, 1)),
	}
	g.id = gameID(g.boards[engine.Black])
	if g.id == "" || g.id != gameID(g.boards[engine.White]) {
		t.Fatalf("boards of different games %q %q", g.id, gameID(g.boards[engine.White]))
	}
	return g
}

// pick chooses the next move of g: the side to move, a legal square, and the current board
// of that side.
func (c *cluster) pick(g *peopleGame) (engine.Color, engine.Square, telegramtest.ChatMessage) {
	side := g.ref.toMove()
	legal := g.ref.legal()
	sq := legal[g.rng.IntN(len(legal))]
	return side, sq, c.waitPly(g.boards[side], len(g.ref.moves))
}

// played records sq in the reference and waits until both boards show it.
func (c *cluster) played(g *peopleGame, sq engine.Square) {
	c.t.Helper()
	g.ref.play(c.t, sq)
	for _, m := range g.boards {
		c.waitPly(m, len(g.ref.moves))
	}
}

// step plays one move of g normally.
func (c *cluster) step(g *peopleGame) {
	c.t.Helper()
	side, sq, board := c.pick(g)
	if ans := c.tap(g.users[side], board, sq); ans.ShowAlert {
		c.t.Fatalf("move %v refused: %q", sq, ans.Text)
	}
	c.played(g, sq)
}

// finish plays the rest of g normally, move by move, and checks the finished game on both
// players' boards.
func (c *cluster) finish(g *peopleGame) {
	c.t.Helper()
	for !g.ref.g.Over() {
		c.step(g)
	}
	c.check(g.id, g.ref, g.boards[engine.Black], g.boards[engine.White])
}

// playPeople plays a whole 8×8 game between two people by invitation, each tapping a move the
// game's random source picks on their own board; every fifth tap is pressed twice at once.
func (c *cluster) playPeople(seed uint64, a, b *telegramtest.Person) {
	t := c.t
	t.Helper()
	g := c.startPeople(seed, a, b)
	for taps := 0; !g.ref.g.Over(); taps++ {
		if taps%5 != 4 {
			c.step(g)
			continue
		}
		// A double tap: two updates with the same button, most likely served by the two bots
		// at once. Exactly one is applied.
		side, sq, board := c.pick(g)
		q1, q2 := c.press(g.users[side], board, sq), c.press(g.users[side], board, sq)
		a1, err1 := c.srv.WaitCallbackAnswer(guard(t), q1)
		a2, err2 := c.srv.WaitCallbackAnswer(guard(t), q2)
		if err := errors.Join(err1, err2); err != nil {
			t.Fatalf("double tap: %v", err)
		}
		if a1.ShowAlert && a2.ShowAlert {
			t.Fatalf("double tap of %v: both taps refused (%q, %q)", sq, a1.Text, a2.Text)
		}
		c.played(g, sq)
	}
	c.check(g.id, g.ref, g.boards[engine.Black], g.boards[engine.White])
}

// playAI plays a whole 8×8 game of u (black) against the deterministic AI (the lowest legal
// square), u tapping a move the game's random source picks.
func (c *cluster) playAI(seed uint64, u *telegramtest.Person) {
	t := c.t
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 2))
	last := c.lastID(u.ID())
	if _, err := u.Send(u.ID(), "/ai 8 1 black"); err != nil {
		t.Fatal(err)
	}
	board := c.waitMsg(u.ID(), "AI board", last, func(m telegramtest.ChatMessage) bool { return boardPly(m) == 0 && len(m.Buttons()) >= 8 })
	id := gameID(board)
	ref := newReplica(t)
	for !ref.g.Over() {
		legal := ref.legal()
		sq := legal[rng.IntN(len(legal))]
		cur := c.waitPly(board, len(ref.moves))
		if ans := c.tap(u, cur, sq); ans.ShowAlert {
			t.Fatalf("move %v refused: %q", sq, ans.Text)
		}
		ref.play(t, sq)
		for !ref.g.Over() && ref.toMove() == engine.White {
			ref.play(t, ref.legal()[0])
		}
		c.waitPly(board, len(ref.moves))
	}
	c.check(id, ref, board)
}

// TestTwoBotsOneRedis plays games between people and games against the AI to the end through
// two bots that share one Redis and nothing else, each bot getting every other update, and
// every fourth update going to both (the same update id, handled at once by both).
//
// The bots are two bot.Bot values in this test process rather than two reversibot binaries:
// each has its own Redis connections, AI pool, edit queue and random source, and they share
// no Go state but the fake Bot API server, which is what separates two processes as far as a
// game is concerned, while the test stays fast and race-checked. They take updates the way
// processes behind a load balancer do, through their webhook handlers, from an e2e.Balancer
// that long-polls the fake server: two processes cannot both long-poll one bot (the second
// getUpdates ends the first with 409), and the fake server's webhook delivery would need an
// https endpoint that reversibot's configuration insists on.
//
// Every game must end exactly as its reference replay: the moves in Redis (as each bot's store
// reads them) are the moves tapped, once each, in order; each final board shows the reference
// position and record; every duplicated update was dropped by exactly one bot; every tap was
// answered exactly once and no Bot API call failed.
func TestTwoBotsOneRedis(t *testing.T) {
	c := newCluster(t)
	const pairs, solo = 3, 3
	type player struct{ a, b *telegramtest.Person }
	var ps []player
	for i := range pairs {
		ps = append(ps, player{c.user(fmt.Sprintf("A%d", i)), c.user(fmt.Sprintf("B%d", i))})
	}
	var ai []*telegramtest.Person
	for i := range solo {
		ai = append(ai, c.user(fmt.Sprintf("S%d", i)))
	}
	// The games run at once, so that the bots serve several games at every moment.
	t.Run("games", func(t *testing.T) {
		for i, p := range ps {
			t.Run(fmt.Sprintf("people%d", i), func(t *testing.T) {
				t.Parallel()
				c.with(t).playPeople(uint64(i), p.a, p.b)
			})
		}
		for i, u := range ai {
			t.Run(fmt.Sprintf("ai%d", i), func(t *testing.T) {
				t.Parallel()
				c.with(t).playAI(uint64(i), u)
			})
		}
	})
	if t.Failed() {
		return
	}

	// Every update sent to both bots was handled by one and dropped by the other.
	if err := c.srv.WaitIdle(guard(t)); err != nil {
		t.Fatal(err)
	}
	c.stop() // all updates delivered; wait for the handlers
	logs := c.logs.String()
	if got := strings.Count(logs, "outcome=duplicate"); int64(got) != c.both.Load() {
		t.Errorf("%d updates dropped as duplicates, %d sent to both bots", got, c.both)
	}
	if n := strings.Count(logs, "level=ERROR"); n > 0 {
		t.Errorf("%d error lines in the bots' logs", n)
	}
	for _, call := range c.srv.CallLog() {
		// A 429 is logged, not failed (startLimited): at this speed a loaded machine's jitter
		// can spend a budget's margin, and the bot waits and sends again; pace_test.go proves
		// the pacing free of 429s at a lower speed.
		if call.Code != http.StatusOK && call.Code != http.StatusTooManyRequests &&
			!strings.Contains(call.Description, "message is not modified") {
			t.Errorf("Bot API call %s failed: %d %s", call.Method, call.Code, call.Description)
		}
	}
	st := c.bal.Stats()
	t.Logf("balancer: %d updates taken, %d deliveries, %d sent to both bots", st.Taken, st.Delivered, c.both.Load())
	for i := range c.bots {
		t.Logf("bot%d got %d updates (duplicates included)", i, strings.Count(logs, fmt.Sprintf("msg=update proc=bot%d", i)))
	}
}
