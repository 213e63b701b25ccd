package main

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/bot/present"
	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/render"
)

// stepTimeout bounds one wait of a simulated player; a bot that does not answer within it
// counts as an error ("stuck") and the game is abandoned. Under flood limits a wait may
// also take several budget intervals of a group (see Load).
const stepTimeout = 10 * time.Second

// driver plays the simulated chats. Its players cost little per move: they wait on the
// fake server's per-chat and per-query wake-ups (WaitChat, WaitCallbackAnswer), so a change
// in one chat wakes only that chat's player; they read boards with Peek, without copying
// the keyboard; and they find a move's button by its place on the board.
type driver struct {
	srv     *telegramtest.Server
	level   int
	pace    *pacer  // nil: as fast as the bot answers
	think   thinker // each player's pause before each tap
	budget  int64   // moves to play in all; 0 means no limit
	each    int64   // moves each kind of game in kinds is to play; 0 means no such limit
	kinds   []string
	stopAll context.CancelFunc

	step  time.Duration // bounds one wait of a player (stepTimeout, longer under slow flood limits)
	clock *boardClock   // times the board edits for the board lag (-limits); nil: no lag measured
	start time.Time     // of the run, for the report of the worst lag

	lag   map[string]*latencies // by kind of game: applied tap → board shows it, at the fake (lag.go)
	lagMu sync.Mutex
	worst map[string]LagNote // by kind of game: the largest lag

	ack, board  map[string]*latencies // by kind of game: "people", "ai", "group"
	moves       map[string]*atomic.Int64
	peopleMoves atomic.Int64
	aiMoves     atomic.Int64
	groupMoves  atomic.Int64
	games       atomic.Int64
	errMu       sync.Mutex
	errs        map[string]int
}

func newDriver(srv *telegramtest.Server) *driver {
	d := &driver{srv: srv, step: stepTimeout, start: time.Now(), ack: map[string]*latencies{}, board: map[string]*latencies{},
		lag: map[string]*latencies{}, worst: map[string]LagNote{}, errs: make(map[string]int)}
	d.moves = map[string]*atomic.Int64{"people": &d.peopleMoves, "ai": &d.aiMoves, "group": &d.groupMoves}
	for k := range d.moves {
		d.ack[k], d.board[k], d.lag[k] = &latencies{}, &latencies{}, &latencies{}
	}
	return d
}

// boardLag measures the board lag of a move tapped at t0 (lag.go): it waits until the clock
// has the earliest edit of each of boards that shows a state for which ok holds, and counts
// the latest of them under kind. Without a clock it does nothing.
func (d *driver) boardLag(parent context.Context, kind string, t0 time.Time, ply int, ok func(boardState) bool, boards ...telegramtest.ChatMessage) error {
	if d.clock == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(parent, d.step)
	defer cancel()
	var last time.Time
	var chat int64
	for _, m := range boards {
		at, err := d.clock.shownAt(ctx, m, ok)
		if err != nil {
			return waitErr(parent)
		}
		if at.After(last) {
			last, chat = at, m.ChatID
		}
	}
	lag := max(last.Sub(t0), 0)
	d.lag[kind].add(lag)
	d.lagMu.Lock()
	if w := d.worst[kind]; lag > w.Lag {
		d.worst[kind] = LagNote{Lag: lag, Chat: chat, Ply: ply, At: t0.Sub(d.start)}
	}
	d.lagMu.Unlock()
	return nil
}

// worstLags returns a copy of the largest lag of each kind of game.
func (d *driver) worstLags() map[string]LagNote {
	d.lagMu.Lock()
	defer d.lagMu.Unlock()
	return maps.Clone(d.worst)
}

// trackBoards has the clock, if any, record the edits of boards until the returned function
// is called.
func (d *driver) trackBoards(boards ...telegramtest.ChatMessage) (forget func()) {
	if d.clock == nil {
		return func() {}
	}
	for _, m := range boards {
		d.clock.track(m)
	}
	return func() {
		for _, m := range boards {
			d.clock.forget(m)
		}
	}
}

// gameKinds are the kinds of game the driver plays, in the order of the report.
var gameKinds = []string{"people", "ai", "group"}

// fail counts an error of kind.
func (d *driver) fail(kind string) {
	d.errMu.Lock()
	d.errs[kind]++
	d.errMu.Unlock()
}

// errors returns a copy of the error counts.
func (d *driver) errorCounts() map[string]int {
	d.errMu.Lock()
	defer d.errMu.Unlock()
	return maps.Clone(d.errs)
}

// counted adds a move to counter and stops the run when the budget is spent, or every kind of
// game played has made its moves (each).
func (d *driver) counted(counter *atomic.Int64) {
	counter.Add(1)
	if d.budget > 0 && d.peopleMoves.Load()+d.aiMoves.Load()+d.groupMoves.Load() >= d.budget {
		d.stopAll()
	}
	if d.each > 0 && !slices.ContainsFunc(d.kinds, func(k string) bool { return d.moves[k].Load() < d.each }) {
		d.stopAll()
	}
}

// errStuck is a wait that timed out.
var errStuck = errors.New("stuck")

// waitChat waits until ok holds, re-checking whenever a message of chat is sent, edited or
// deleted. ok must only read the View.
func (d *driver) waitChat(parent context.Context, chat int64, ok func(telegramtest.View) bool) error {
	ctx, cancel := context.WithTimeout(parent, d.step)
	defer cancel()
	if d.srv.WaitChat(ctx, chat, ok) != nil {
		return waitErr(parent)
	}
	return nil
}

// waitAnswer waits for the answer to callback query qid; its Time is when the fake server
// recorded it.
func (d *driver) waitAnswer(parent context.Context, qid string) (telegramtest.CallbackAnswer, error) {
	ctx, cancel := context.WithTimeout(parent, d.step)
	defer cancel()
	a, err := d.srv.WaitCallbackAnswer(ctx, qid)
	if err != nil {
		return a, waitErr(parent)
	}
	return a, nil
}

// waitErr is the error of a wait that ended: the run's when the run ended, else errStuck.
func waitErr(parent context.Context) error {
	if err := parent.Err(); err != nil {
		return err
	}
	return errStuck
}

// newBotMessage waits for a bot message in chat newer than after that satisfies pred.
func (d *driver) newBotMessage(ctx context.Context, chat int64, after int, pred func(telegramtest.ChatMessage) bool) (telegramtest.ChatMessage, error) {
	var found telegramtest.ChatMessage
	err := d.waitChat(ctx, chat, func(v telegramtest.View) bool {
		ms := v.MessagesSince(chat, after)
		for i := len(ms) - 1; i >= 0; i-- {
			if ms[i].FromBot && pred(ms[i]) {
				found = ms[i]
				return true
			}
		}
		return false
	})
	return found, err
}

// lastID is the id of chat's newest message, 0 when none.
func (d *driver) lastID(chat int64) int {
	if m, ok := d.srv.LastMessage(chat); ok {
		return m.ID
	}
	return 0
}

// loop runs play until ctx ends, counting each failed game by its error.
func (d *driver) loop(ctx context.Context, play func(context.Context) error) {
	for ctx.Err() == nil {
		if err := play(ctx); err != nil && ctx.Err() == nil {
			d.fail(err.Error())
		}
	}
}

// people plays games between a and b by invitation, one after another, until ctx ends.
func (d *driver) people(ctx context.Context, a, b *telegramtest.Person, rng *rand.Rand) {
	d.loop(ctx, func(ctx context.Context) error { return d.playPeople(ctx, a, b, rng) })
}

// isBoard tells a fresh 8×8 board.
func isBoard(m telegramtest.ChatMessage) bool { return boardPly(m) == 0 && len(m.Buttons()) >= 8 }

// playPeople plays one game between a (black) and b. Both players know the game (they are the
// only ones to move), so the load generator keeps the position itself and checks every board
// the bot draws against it.
func (d *driver) playPeople(ctx context.Context, a, b *telegramtest.Person, rng *rand.Rand) error {
	aLast, bLast := d.lastID(a.ID()), d.lastID(b.ID())
	if _, err := a.Send(a.ID(), "/new 8 black"); err != nil {
		return fmt.Errorf("send /new: %w", err)
	}
	invite, err := d.newBotMessage(ctx, a.ID(), aLast, func(m telegramtest.ChatMessage) bool {
		return m.Markup != nil && len(m.Buttons()) > 0 && m.Buttons()[0][0].URL != ""
	})
	if err != nil {
		return fmt.Errorf("invitation: %w", err)
	}
	link, err := url.Parse(invite.Buttons()[0][0].URL)
	if err != nil || link.Query().Get("start") == "" {
		return errors.New("invitation without a join link")
	}
	aLast = invite.ID
	if _, err := b.Send(b.ID(), "/start "+link.Query().Get("start")); err != nil {
		return fmt.Errorf("send /start: %w", err)
	}
	ab, err := d.newBotMessage(ctx, a.ID(), aLast, isBoard)
	if err != nil {
		return fmt.Errorf("first board: %w", err)
	}
	bb, err := d.newBotMessage(ctx, b.ID(), bLast, isBoard)
	if err != nil {
		return fmt.Errorf("first board: %w", err)
	}
	return d.playBoards(ctx, "people", [2]telegramtest.ChatMessage{ab, bb}, [2]*telegramtest.Person{a, b}, rng)
}

// playBoards plays a game between users[0] (black) and users[1] to its end, boards[i] being
// the board users[i] sees (the same message in a group), and counts its moves and latencies
// under kind ("people", "group").
func (d *driver) playBoards(ctx context.Context, kind string, boards [2]telegramtest.ChatMessage, users [2]*telegramtest.Person, rng *rand.Rand) error {
	defer d.trackBoards(boards[:]...)()
	g, _ := engine.NewGame(8)
	ply := 0
	for !g.Over() {
		if g.Position().MustPass() {
			_, _ = g.Play(engine.Pass)
		}
		side := g.Position().Side()
		legal := g.Position().LegalMoves()
		sq := legal[rng.IntN(len(legal))]
		cur, ok := d.srv.Peek(boards[side].ChatID, boards[side].ID)
		if !ok || !isMoveButton(cur, sq) {
			return errors.New("board disagrees with the game")
		}
		if err := d.think.wait(ctx); err != nil {
			return err
		}
		if err := d.pace.wait(ctx); err != nil {
			return err
		}
		t0 := time.Now()
		qid, err := users[side].PressAt(cur, sq.Row(), sq.Col())
		if err != nil {
			return fmt.Errorf("press: %w", err)
		}
		ans, err := d.waitAnswer(ctx, qid)
		if err != nil {
			return fmt.Errorf("answer: %w", err)
		}
		d.ack[kind].add(ans.Time.Sub(t0))
		if ans.ShowAlert {
			return fmt.Errorf("move refused: %s", firstLine(ans.Text))
		}
		_, _ = g.Play(sq)
		ply++
		for _, m := range boards {
			err := d.waitChat(ctx, m.ChatID, func(v telegramtest.View) bool {
				cur, ok := v.Peek(m.ChatID, m.ID)
				return ok && boardPly(cur) >= ply
			})
			if err != nil {
				return fmt.Errorf("board edit: %w", err)
			}
		}
		d.board[kind].add(time.Since(t0))
		shown := func(st boardState) bool { return st.ply >= ply }
		if err := d.boardLag(ctx, kind, t0, ply, shown, boards[:]...); err != nil {
			return fmt.Errorf("board lag: %w", err)
		}
		d.counted(d.moves[kind])
	}
	d.games.Add(1)
	return nil
}

// ai plays games of u against the AI until ctx ends.
func (d *driver) ai(ctx context.Context, u *telegramtest.Person, rng *rand.Rand) {
	d.loop(ctx, func(ctx context.Context) error { return d.playAI(ctx, u, rng) })
}

// playAI plays one game of u (black) against the AI of the driver's level: the load generator
// does not know the AI's moves, so it reads the board the bot draws.
func (d *driver) playAI(ctx context.Context, u *telegramtest.Person, rng *rand.Rand) error {
	last := d.lastID(u.ID())
	if _, err := u.Send(u.ID(), fmt.Sprintf("/ai 8 %d black", d.level)); err != nil {
		return fmt.Errorf("send /ai: %w", err)
	}
	board, err := d.newBotMessage(ctx, u.ID(), last, isBoard)
	if err != nil {
		return fmt.Errorf("first board: %w", err)
	}
	defer d.trackBoards(board)()
	for {
		cur, ok := d.srv.Peek(board.ChatID, board.ID)
		if !ok {
			return errors.New("board gone")
		}
		if over(cur) {
			break
		}
		moves := legalButtons(cur)
		if len(moves) == 0 {
			return errors.New("board without legal moves")
		}
		btn := moves[rng.IntN(len(moves))]
		ply := boardPly(cur)
		if err := d.think.wait(ctx); err != nil {
			return err
		}
		if err := d.pace.wait(ctx); err != nil {
			return err
		}
		t0 := time.Now()
		qid, err := u.Press(cur, btn.CallbackData)
		if err != nil {
			return fmt.Errorf("press: %w", err)
		}
		ans, err := d.waitAnswer(ctx, qid)
		if err != nil {
			return fmt.Errorf("answer: %w", err)
		}
		d.ack["ai"].add(ans.Time.Sub(t0))
		if ans.ShowAlert {
			return fmt.Errorf("move refused: %s", firstLine(ans.Text))
		}
		err = d.waitChat(ctx, board.ChatID, func(v telegramtest.View) bool {
			m, ok := v.Peek(board.ChatID, board.ID)
			return ok && boardPly(m) > ply && (blackToMove(m) || over(m))
		})
		if err != nil {
			return fmt.Errorf("AI reply: %w", err)
		}
		d.board["ai"].add(time.Since(t0))
		replied := func(st boardState) bool { return st.ply > ply && (st.black || st.over) }
		if err := d.boardLag(ctx, "ai", t0, ply, replied, board); err != nil {
			return fmt.Errorf("board lag: %w", err)
		}
		d.counted(&d.aiMoves)
	}
	d.games.Add(1)
	return nil
}

// firstLine shortens a text for an error key.
func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 60 {
		s = s[:60]
	}
	return s
}

// blackToMove tells a board whose status says black is to move (texts in English).
func blackToMove(m telegramtest.ChatMessage) bool {
	return strings.Contains(m.Content(), "To move: "+render.BlackDisc)
}

// over tells a board of a finished game: it names nobody to move.
func over(m telegramtest.ChatMessage) bool { return !strings.Contains(m.Content(), "To move:") }

// callbackOf parses the callback data of b; ok is false for a button without valid data.
func callbackOf(b models.InlineKeyboardButton) (callback.Data, bool) {
	c, err := callback.Parse(b.CallbackData)
	return c, err == nil
}

// boardPly is the ply carried by the game buttons of m, -1 when it has none. The first
// button of a board is a square, which carries it.
func boardPly(m telegramtest.ChatMessage) int {
	if b, ok := m.ButtonAt(0, 0); ok {
		if c, ok := callbackOf(b); ok && c.Game != "" {
			return c.Ply
		}
	}
	for _, row := range m.Buttons() {
		for _, b := range row {
			if c, ok := callbackOf(b); ok && c.Game != "" {
				return c.Ply
			}
		}
	}
	return -1
}

// isMoveButton tells whether the button of square sq, in its row and column of the board,
// shows a legal move and plays sq.
func isMoveButton(m telegramtest.ChatMessage, sq engine.Square) bool {
	b, ok := m.ButtonAt(sq.Row(), sq.Col())
	if !ok || b.Text != present.LegalMark {
		return false
	}
	c, ok := callbackOf(b)
	return ok && c.Action == callback.ActionMove && c.Square == sq
}

// legalButtons returns the move buttons marked legal.
func legalButtons(m telegramtest.ChatMessage) []models.InlineKeyboardButton {
	var out []models.InlineKeyboardButton
	for _, row := range m.Buttons() {
		for _, b := range row {
			if c, ok := callbackOf(b); ok && c.Action == callback.ActionMove && b.Text == present.LegalMark {
				out = append(out, b)
			}
		}
	}
	return out
}

// pacer spaces taps evenly at a rate shared by all players; a nil pacer never waits.
type pacer struct {
	mu       sync.Mutex
	next     time.Time
	interval time.Duration
}

func newPacer(rate float64) *pacer {
	if rate <= 0 {
		return nil
	}
	return &pacer{interval: time.Duration(float64(time.Second) / rate)}
}

// wait blocks until the caller's turn to tap (a pacing delay, not synchronisation).
func (p *pacer) wait(ctx context.Context) error {
	if p == nil {
		return ctx.Err()
	}
	p.mu.Lock()
	now := time.Now()
	at := p.next
	if at.Before(now) {
		at = now
	}
	p.next = at.Add(p.interval)
	p.mu.Unlock()
	if d := time.Until(at); d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return ctx.Err()
}
