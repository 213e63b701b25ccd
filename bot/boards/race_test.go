package boards

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/game/gametest"
)

// Two processes racing edits of the same board messages: two Editors over one store, one
// drawn record and one Telegram, whose edits the test holds on their way and lets land in the
// order it chooses (the newest first whenever several are on their way: the order that
// puts an older drawing over a newer one). Telegram keeps what each message shows and counts
// the edits that change nothing (its "message is not modified").

// telegram is the one Bot API server both processes edit through.
type telegram struct {
	mu        sync.Mutex
	shows     map[string]string   // by key: what each message shows
	landed    map[string][]string // by key: each edit that landed, in order
	redundant int                 // edits that changed nothing
	older     []string            // each drawing that landed over a newer one
	held      []*onWay            // the edits on their way, held until released
	changed   chan struct{}       // closed and replaced when an edit arrives or lands
}

// onWay is an edit held on its way.
type onWay struct {
	proc    int
	key     string
	text    string
	release chan struct{}
}

func newTelegram() *telegram {
	return &telegram{shows: make(map[string]string), landed: make(map[string][]string),
		changed: make(chan struct{})}
}

// signal wakes the test waiting for a change; tg.mu is held.
func (tg *telegram) signal() {
	close(tg.changed)
	tg.changed = make(chan struct{})
}

// version is the game version a drawing of the test's Content shows.
func version(text string) int {
	v, _ := strconv.Atoi(strings.Fields(strings.TrimPrefix(text, "v"))[0])
	return v
}

// edit is an edit from process proc: held until released, then it lands.
func (tg *telegram) edit(ctx context.Context, proc int, k, text string) error {
	w := &onWay{proc: proc, key: k, text: text, release: make(chan struct{})}
	tg.mu.Lock()
	tg.held = append(tg.held, w)
	tg.signal()
	tg.mu.Unlock()
	select {
	case <-w.release:
	case <-ctx.Done():
		return ctx.Err()
	}
	tg.mu.Lock()
	defer tg.mu.Unlock()
	defer tg.signal()
	cur := tg.shows[k]
	switch {
	case cur == text:
		tg.redundant++
	case cur != "" && version(text) < version(cur):
		tg.older = append(tg.older, fmt.Sprintf("%s: %s over %s", k, text, cur))
	}
	tg.shows[k] = text
	tg.landed[k] = append(tg.landed[k], text)
	return nil
}

// heldBy reports whether process proc has an edit held.
func (tg *telegram) heldBy(proc int) bool {
	tg.mu.Lock()
	defer tg.mu.Unlock()
	for _, w := range tg.held {
		if w.proc == proc {
			return true
		}
	}
	return false
}

// releaseOne lets one held edit land: of several, the one drawing the newest version (the
// last to arrive among equals), else a random one when rnd says so. It reports false when
// none was held.
func (tg *telegram) releaseOne(rnd *rand.Rand) bool {
	tg.mu.Lock()
	defer tg.mu.Unlock()
	if len(tg.held) == 0 {
		return false
	}
	i := len(tg.held) - 1
	for j, w := range tg.held {
		if version(w.text) > version(tg.held[i].text) {
			i = j
		}
	}
	if rnd.IntN(4) == 0 {
		i = rnd.IntN(len(tg.held))
	}
	close(tg.held[i].release)
	tg.held = append(tg.held[:i], tg.held[i+1:]...)
	return true
}

// procAPI is one process's Bot API client over the telegram.
type procAPI struct {
	tg   *telegram
	proc int
}

func (a procAPI) SendMessage(context.Context, *tgbot.SendMessageParams) (*models.Message, error) {
	return nil, fmt.Errorf("fake: no sends here")
}

func (a procAPI) SendPhoto(context.Context, *tgbot.SendPhotoParams) (*models.Message, error) {
	return nil, fmt.Errorf("fake: no sends here")
}

func (a procAPI) EditMessageText(ctx context.Context, p *tgbot.EditMessageTextParams) (*models.Message, error) {
	return nil, a.tg.edit(ctx, a.proc, key(refOf(p.ChatID.(int64), p.MessageID, p.InlineMessageID)), p.Text)
}

func (a procAPI) EditMessageMedia(context.Context, *tgbot.EditMessageMediaParams) (*models.Message, error) {
	return nil, fmt.Errorf("fake: no pictures here")
}

func (a procAPI) EditMessageCaption(context.Context, *tgbot.EditMessageCaptionParams) (*models.Message, error) {
	return nil, fmt.Errorf("fake: no captions here")
}

func (a procAPI) EditMessageReplyMarkup(context.Context, *tgbot.EditMessageReplyMarkupParams) (*models.Message, error) {
	return nil, fmt.Errorf("fake: no keyboards alone here")
}

func (a procAPI) Retry(_ context.Context, fn func() error) error { return fn() }

// racers are two Editors, "processes", over one store, record and telegram, with the
// rechecks' timers in the test's hands.
type racers struct {
	t      *testing.T
	r      *fakeReader
	tg     *telegram
	e      [2]*Editor
	work   [2]sync.WaitGroup
	timers chan func()
}

func newRacers(t *testing.T, drawings game.Drawings) *racers {
	rc := &racers{t: t, r: newReader(), tg: newTelegram(), timers: make(chan func(), 10000)}
	for i := range rc.e {
		api := procAPI{tg: rc.tg, proc: i}
		rc.e[i] = New(Options{API: api, Once: api, Reader: rc.r,
			Content: func(g *game.Game, _ *engine.Game, _ game.MessageRef, _ game.Style, _ engine.Square) (Content, error) {
				return Content{Text: fmt.Sprintf("v%d", g.Version),
					Keyboard: &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{{{Text: "x"}}}}}, nil
			},
			StyleUser: func(*game.Game, game.MessageRef) (int64, bool) { return 0, true },
			StyleOf:   func(context.Context, *game.Game, game.MessageRef) game.Style { return game.StyleButtons },
			AddBoard:  func(context.Context, string, game.MessageRef) (*game.Game, error) { return nil, game.ErrNotFound },
			Work:      &rc.work[i],
			AfterFunc: func(_ time.Duration, fn func()) { rc.timers <- fn },
			Drawings:  drawings,
		})
	}
	return rc
}

// steady waits until each process has nothing to do but wait for its held edit: no edit of
// ref is drawn or queued in a process that has none held.
func (rc *racers) steady(ref game.MessageRef) {
	rc.t.Helper()
	deadline := time.Now().Add(guard)
	for {
		busy := false
		for i, e := range rc.e {
			if e.Pending(ref) && !rc.tg.heldBy(i) {
				busy = true
			}
		}
		if !busy {
			return
		}
		if time.Now().After(deadline) {
			rc.t.Fatal("the processes never settled")
		}
		rc.tg.mu.Lock()
		ch := rc.tg.changed
		rc.tg.mu.Unlock()
		select { // an edit arriving or landing, else look again soon
		case <-ch:
		case <-time.After(time.Millisecond):
		}
		runtime.Gosched()
	}
}

// fireTimer runs one recheck armed, if any, and reports whether it did.
func (rc *racers) fireTimer() bool {
	select {
	case fn := <-rc.timers:
		fn()
		return true
	default:
		return false
	}
}

// race plays moves of one game with one board, each step drawn by a process drawn at random
// (as a round-robin balancer hands out taps), with edits landing newest first while the
// next steps come, and rechecks fired when nothing is on its way. It returns the board.
func (rc *racers) race(seed uint64, moves int) game.MessageRef {
	rnd := rand.New(rand.NewPCG(seed, 1))
	g := twoPlayers("g")
	g.Boards = g.Boards[:1]
	g = rc.r.put(g)
	ref := g.Boards[0]
	for made := 0; made < moves; {
		rc.steady(ref)
		switch n := rnd.IntN(10); {
		case n < 5:
			g = rc.r.move("g")
			made++
			rc.e[rnd.IntN(2)].Refresh(g)
		case n < 8:
			rc.tg.releaseOne(rnd)
		default:
			rc.tg.mu.Lock()
			idle := len(rc.tg.held) == 0
			rc.tg.mu.Unlock()
			if idle {
				rc.fireTimer()
			}
		}
	}
	for { // let everything land and every recheck run
		rc.steady(ref)
		if rc.tg.releaseOne(rnd) || rc.fireTimer() {
			continue
		}
		if !rc.e[0].Pending(ref) && !rc.e[1].Pending(ref) {
			break
		}
	}
	for i := range rc.work {
		rc.work[i].Wait()
	}
	return ref
}

// TestTwoProcessesRaceEdits: two processes draw one board as the game moves on, their edits
// landing in the worst order. The message never shows a drawing older than one that landed
// before it, ends showing the game's newest version, and at most one edit in twenty moves
// changes nothing.
func TestTwoProcessesRaceEdits(t *testing.T) {
	const moves = 50
	for seed := range uint64(8) {
		t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) {
			d := gametest.NewDrawings(nil)
			rc := newRacers(t, d)
			ref := rc.race(seed, moves)
			rc.tg.mu.Lock()
			defer rc.tg.mu.Unlock()
			if len(rc.tg.older) > 0 {
				t.Errorf("older drawings landed over newer ones: %v", rc.tg.older)
			}
			g, _ := rc.r.Lookup(context.Background(), "g")
			if shows, want := rc.tg.shows[key(ref)], fmt.Sprintf("v%d", g.Version); shows != want {
				t.Errorf("the board ends showing %q, want %q", shows, want)
			}
			if rc.tg.redundant*20 > moves {
				t.Errorf("%d edits changed nothing in %d moves, want at most %d", rc.tg.redundant, moves, moves/20)
			}
			t.Logf("%d moves: %d edits landed, %d changed nothing; record: %v",
				moves, len(rc.tg.landed[key(ref)]), rc.tg.redundant, d.Calls())
		})
	}
}

// TestTwoProcessesDrawEachVersionOnce: the edits that change nothing when two processes
// share a board. Both draw the step of one (their reads see the same version), and the recheck
// of a process's step finds the game moved on by the other process, which has drawn it
// already. Each version reaches the message once: no edit changes nothing.
func TestTwoProcessesDrawEachVersionOnce(t *testing.T) {
	rc := newRacers(t, gametest.NewDrawings(nil))
	g := twoPlayers("g")
	g.Boards = g.Boards[:1]
	g = rc.r.put(g)
	ref := g.Boards[0]
	land := func() { // every edit on its way lands, in the order they came
		for {
			rc.steady(ref)
			rc.tg.mu.Lock()
			n := len(rc.tg.held)
			if n > 0 {
				close(rc.tg.held[0].release)
				rc.tg.held = rc.tg.held[1:]
			}
			rc.tg.mu.Unlock()
			if n == 0 && !rc.e[0].Pending(ref) && !rc.e[1].Pending(ref) {
				return
			}
		}
	}
	const moves = 20
	for i := range moves {
		g = rc.r.move("g")
		rc.e[i%2].Refresh(g)
		rc.e[(i+1)%2].Refresh(g) // a step of the other process that read the same version
		land()
		for rc.fireTimer() { // the rechecks: the other process has drawn the game since
			land()
		}
	}
	for i := range rc.work {
		rc.work[i].Wait()
	}
	rc.tg.mu.Lock()
	defer rc.tg.mu.Unlock()
	if rc.tg.redundant != 0 || len(rc.tg.older) != 0 {
		t.Errorf("%d edits changed nothing and %d drew older over newer in %d moves, want none",
			rc.tg.redundant, len(rc.tg.older), moves)
	}
	if n := len(rc.tg.landed[key(ref)]); n != moves {
		t.Errorf("%d edits landed for %d moves, want one each", n, moves)
	}
}

// TestRedrawSendsWhatTheRecordShows: with the drawn record, a step's edit of a board that
// shows its drawing already sends nothing, but Redraw sends it still (its caller changed
// the message outside the record: a keyboard edited in place, say).
func TestRedrawSendsWhatTheRecordShows(t *testing.T) {
	f := newFixture(t)
	f.e.o.Drawings = gametest.NewDrawings(nil)
	one := twoPlayers("g")
	one.Boards = one.Boards[:1]
	g := f.r.put(one)
	ref := g.Boards[0]
	f.e.Refresh(g)
	f.settle()
	f.e.Refresh(g) // the same version again: nothing to send
	f.settle()
	if _, edits := f.api.shown(ref); len(edits) != 1 {
		t.Fatalf("edits %v after two steps of one version, want one", edits)
	}
	f.e.Redraw(g, ref)
	f.settle()
	if _, edits := f.api.shown(ref); len(edits) != 2 {
		t.Fatalf("edits %v after Redraw, want a second", edits)
	}
}
