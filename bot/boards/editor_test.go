package boards

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
)

// The tests run the Editor on fakes: a Bot API client that records what each message shows
// and can hold an edit on its way, a reader on a map that counts its reads, and a clock whose
// timers the test fires. Nothing sleeps: the tests wait for events, bounded by guard.

// guard bounds every wait of a test.
const guard = 10 * time.Second

// errAgain is the error the fake client's Retry tries again after (a 429, say).
var errAgain = errors.New("fake: try again")

// fakeReader is a Reader on a map of games, whose versions it counts as a store does.
type fakeReader struct {
	mu        sync.Mutex
	games     map[string]*game.Game
	styles    map[int64]game.Style
	reads     int // GameAndStyles calls
	gameReads int // Game calls
	styleOf   int // StyleOf calls
}

func newReader() *fakeReader {
	return &fakeReader{games: make(map[string]*game.Game), styles: make(map[int64]game.Style)}
}

// put stores g as the next version of its game and returns a copy of what it stored.
func (r *fakeReader) put(g *game.Game) *game.Game {
	r.mu.Lock()
	defer r.mu.Unlock()
	g = g.Clone()
	if old := r.games[g.ID]; old != nil {
		g.Version = old.Version + 1
	} else {
		g.Version = 1
	}
	r.games[g.ID] = g
	return g.Clone()
}

// move plays the first legal move in game id.
func (r *fakeReader) move(id string) *game.Game {
	r.mu.Lock()
	g := r.games[id].Clone()
	r.mu.Unlock()
	eg, err := engine.ReplayBytes(g.Size, g.Moves)
	if err != nil {
		panic(err)
	}
	g.Moves = append(g.Moves, byte(eg.Position().LegalMoves()[0]))
	return r.put(g)
}

func (r *fakeReader) Lookup(_ context.Context, id string) (*game.Game, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.gameReads++
	g := r.games[id]
	if g == nil {
		return nil, game.ErrNotFound
	}
	return g.Clone(), nil
}

func (r *fakeReader) GameAndStyles(_ context.Context, id string, users ...int64) (*game.Game, []game.Style, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reads++
	styles := make([]game.Style, len(users))
	g := r.games[id]
	if g == nil {
		return nil, styles, game.ErrNotFound
	}
	for i, u := range users {
		styles[i] = r.styles[u]
	}
	return g.Clone(), styles, nil
}

func (r *fakeReader) counts() (reads, gameReads, styleOf int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.reads, r.gameReads, r.styleOf
}

// fakeAPI is a Bot API client that keeps what each message shows.
type fakeAPI struct {
	mu     sync.Mutex
	shows  map[string]string // by key: the text of each message
	kbs    map[string]bool   // by key: whether the message has buttons
	edits  map[string][]string
	sent   int
	marks  int             // EditMessageReplyMarkup calls
	holds  map[string]hold // by key: the next edit of that message to hold
	fail   int             // the next edits that fail with errAgain
	onFail func()          // runs on each failed edit
}

// hold is an edit held on its way: held is closed once it is, release lets it go.
type hold struct{ held, release chan struct{} }

func newAPI() *fakeAPI {
	return &fakeAPI{shows: make(map[string]string), kbs: make(map[string]bool),
		edits: make(map[string][]string), holds: make(map[string]hold)}
}

// holdNext holds the next edit of ref until the returned function is called; held is closed
// once the edit is held.
func (a *fakeAPI) holdNext(ref game.MessageRef) (held <-chan struct{}, release func()) {
	h := hold{held: make(chan struct{}), release: make(chan struct{})}
	a.mu.Lock()
	a.holds[key(ref)] = h
	a.mu.Unlock()
	return h.held, func() { close(h.release) }
}

// show records that another process drew text into ref.
func (a *fakeAPI) show(ref game.MessageRef, text string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.shows[key(ref)] = text
}

// shown returns what ref shows and the texts this Editor's edits drew into it, in order.
func (a *fakeAPI) shown(ref game.MessageRef) (string, []string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.shows[key(ref)], slices.Clone(a.edits[key(ref)])
}

func (a *fakeAPI) editText(ctx context.Context, ref game.MessageRef, text string, kb bool) error {
	k := key(ref)
	a.mu.Lock()
	h, held := a.holds[k]
	delete(a.holds, k)
	if a.fail > 0 {
		a.fail--
		f := a.onFail
		a.mu.Unlock()
		if f != nil {
			f()
		}
		return errAgain
	}
	a.mu.Unlock()
	if held {
		close(h.held)
		select {
		case <-h.release:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.shows[k] = text
	a.kbs[k] = kb
	a.edits[k] = append(a.edits[k], text)
	return nil
}

func refOf(chat int64, msg int, inline string) game.MessageRef {
	return game.MessageRef{ChatID: chat, MessageID: msg, InlineID: inline}
}

func (a *fakeAPI) SendMessage(_ context.Context, p *tgbot.SendMessageParams) (*models.Message, error) {
	return a.send(p.ChatID.(int64), p.Text), nil
}

func (a *fakeAPI) SendPhoto(_ context.Context, p *tgbot.SendPhotoParams) (*models.Message, error) {
	return a.send(p.ChatID.(int64), p.Caption), nil
}

func (a *fakeAPI) send(chat int64, text string) *models.Message {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.sent++
	m := &models.Message{ID: 100 + a.sent, Chat: models.Chat{ID: chat}}
	a.shows[key(refOf(chat, m.ID, ""))] = text
	return m
}

func (a *fakeAPI) EditMessageText(ctx context.Context, p *tgbot.EditMessageTextParams) (*models.Message, error) {
	var chat int64
	if p.ChatID != nil {
		chat = p.ChatID.(int64)
	}
	return nil, a.editText(ctx, refOf(chat, p.MessageID, p.InlineMessageID), p.Text, p.ReplyMarkup != nil)
}

func (a *fakeAPI) EditMessageMedia(ctx context.Context, p *tgbot.EditMessageMediaParams) (*models.Message, error) {
	ph := p.Media.(*models.InputMediaPhoto)
	var chat int64
	if p.ChatID != nil {
		chat = p.ChatID.(int64)
	}
	return nil, a.editText(ctx, refOf(chat, p.MessageID, p.InlineMessageID), "photo "+ph.Caption, p.ReplyMarkup != nil)
}

func (a *fakeAPI) EditMessageCaption(ctx context.Context, p *tgbot.EditMessageCaptionParams) (*models.Message, error) {
	var chat int64
	if p.ChatID != nil {
		chat = p.ChatID.(int64)
	}
	return nil, a.editText(ctx, refOf(chat, p.MessageID, p.InlineMessageID), "caption "+p.Caption, p.ReplyMarkup != nil)
}

func (a *fakeAPI) EditMessageReplyMarkup(_ context.Context, p *tgbot.EditMessageReplyMarkupParams) (*models.Message, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.marks++
	a.kbs[key(refOf(p.ChatID.(int64), p.MessageID, p.InlineMessageID))] = p.ReplyMarkup != nil
	return nil, nil
}

func (a *fakeAPI) Retry(ctx context.Context, fn func() error) error {
	for {
		if err := fn(); !errors.Is(err, errAgain) || ctx.Err() != nil {
			return err
		}
	}
}

// fixture is an Editor on fakes.
type fixture struct {
	t     *testing.T
	e     *Editor
	api   *fakeAPI
	r     *fakeReader
	work  sync.WaitGroup
	timer chan func() // the rechecks armed, run when the test chooses: a schedule, not a clock
}

func newFixture(t *testing.T) *fixture {
	f := &fixture{t: t, api: newAPI(), r: newReader(), timer: make(chan func(), 100)}
	f.e = New(Options{API: f.api, Once: f.api, Reader: f.r,
		Content: func(g *game.Game, _ *engine.Game, ref game.MessageRef, style game.Style, hint engine.Square) (Content, error) {
			text := fmt.Sprintf("v%d", g.Version)
			if hint != engine.Pass {
				text += " hint " + hint.String()
			}
			c := Content{Text: text,
				Keyboard: &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{{{Text: "x"}}}}}
			if style == game.StyleImage {
				c.Photo = []byte("png")
			}
			return c, nil
		},
		StyleUser: func(g *game.Game, ref game.MessageRef) (int64, bool) {
			if ref.InlineID != "" {
				return 0, true
			}
			for _, p := range g.Players {
				if p.UserID != 0 && p.ChatID == ref.ChatID {
					return p.UserID, false
				}
			}
			return 0, false
		},
		StyleOf: func(_ context.Context, g *game.Game, ref game.MessageRef) game.Style {
			f.r.mu.Lock()
			defer f.r.mu.Unlock()
			f.r.styleOf++
			for _, p := range g.Players {
				if p.ChatID == ref.ChatID {
					return f.r.styles[p.UserID]
				}
			}
			return g.Style
		},
		AddBoard: func(_ context.Context, id string, ref game.MessageRef) (*game.Game, error) {
			g, err := f.r.Lookup(context.Background(), id)
			if err != nil {
				return nil, err
			}
			g.Boards = append(g.Boards, ref)
			return f.r.put(g), nil
		},
		Work:      &f.work,
		AfterFunc: func(_ time.Duration, fn func()) { f.timer <- fn },
	})
	return f
}

// settle fires the rechecks as they are armed until the Editor has nothing left to do, and
// returns how many it fired.
func (f *fixture) settle() int {
	f.t.Helper()
	done := make(chan struct{})
	go func() { f.work.Wait(); close(done) }()
	fired := 0
	for {
		select {
		case <-done:
			return fired
		case fn := <-f.timer:
			fired++
			go fn()
		case <-time.After(guard):
			f.t.Fatal("the Editor never settled")
		}
	}
}

// wait waits for ch to close.
func (f *fixture) wait(ch <-chan struct{}, what string) {
	f.t.Helper()
	select {
	case <-ch:
	case <-time.After(guard):
		f.t.Fatalf("%s never happened", what)
	}
}

// twoPlayers is a game between users 1 and 2 whose boards are in their private chats 1 and 2.
func twoPlayers(id string) *game.Game {
	return &game.Game{ID: id, Size: 8, Flow: game.FlowInvite, Status: game.StatusPlaying,
		Players: [2]game.Player{{UserID: 1, Name: "A", ChatID: 1}, {UserID: 2, Name: "B", ChatID: 2}},
		Boards:  []game.MessageRef{refOf(1, 10, ""), refOf(2, 11, "")}}
}

// TestCoalescing: while an edit of a message is on its way, newer requests for it wait, and
// only the newest state is drawn next: of three requests made while the first edit is held,
// one edit follows, drawing the newest version. The recheck of the first edit's step leaves
// the board to the newer edit and reads nothing.
func TestCoalescing(t *testing.T) {
	f := newFixture(t)
	one := twoPlayers("g")
	one.Boards = one.Boards[:1]
	g := f.r.put(one)
	ref := g.Boards[0]
	held, release := f.api.holdNext(ref)
	f.e.Redraw(g, ref)
	f.wait(held, "the first edit")
	for range 3 {
		f.e.Redraw(f.r.move("g"), ref)
	}
	release()
	if fired := f.settle(); fired != 2 {
		t.Errorf("%d rechecks, want 2 (one a step)", fired)
	}
	shows, edits := f.api.shown(ref)
	if want := []string{"v1", "v4"}; !slices.Equal(edits, want) {
		t.Errorf("edits %v, want %v", edits, want)
	}
	if shows != "v4" {
		t.Errorf("the board shows %q, want v4", shows)
	}
	if reads, gameReads, _ := f.r.counts(); reads != 2 || gameReads != 1 {
		t.Errorf("%d reads for edits and %d for rechecks, want 2 and 1", reads, gameReads)
	}
}

// TestQueueReplacesWaitingEdit: an edit queued behind a running one is replaced by a newer
// one; the running one is not interrupted.
func TestQueueReplacesWaitingEdit(t *testing.T) {
	f := newFixture(t)
	ref := refOf(1, 10, "")
	started, release := make(chan struct{}), make(chan struct{})
	var mu sync.Mutex
	var ran []int
	do := func(i int) func(context.Context) {
		return func(context.Context) {
			mu.Lock()
			ran = append(ran, i)
			mu.Unlock()
			if i == 1 {
				close(started)
				<-release
			}
		}
	}
	f.e.Queue(ref, do(1))
	f.wait(started, "the first edit")
	f.e.Queue(ref, do(2))
	f.e.Queue(ref, do(3))
	if !f.e.waiting(ref) {
		t.Error("an edit waits, but waiting says none does")
	}
	close(release)
	f.settle()
	if want := []int{1, 3}; !slices.Equal(ran, want) {
		t.Errorf("ran %v, want %v", ran, want)
	}
	if f.e.waiting(ref) {
		t.Error("waiting after all edits ended")
	}
}

// TestOneReadPerStep: the edits of all the boards of a step share one read of the game and
// the styles of its players; a board whose style follows a user the read did not include
// reads that style on its own.
func TestOneReadPerStep(t *testing.T) {
	f := newFixture(t)
	f.r.styles[2] = game.StyleImage
	g := twoPlayers("g")
	g.Boards = append(g.Boards, refOf(0, 0, "in1"), refOf(-5, 12, ""))
	g = f.r.put(g)
	f.e.Refresh(g)
	if fired := f.settle(); fired != 1 {
		t.Errorf("%d rechecks, want 1", fired)
	}
	if reads, gameReads, styleOf := f.r.counts(); reads != 1 || gameReads != 1 || styleOf != 0 {
		t.Errorf("%d reads, %d recheck reads, %d style reads; want 1, 1, 0", reads, gameReads, styleOf)
	}
	for i, want := range []string{"v1", "photo v1", "v1", "v1"} {
		if got, _ := f.api.shown(g.Boards[i]); got != want {
			t.Errorf("board %d shows %q, want %q", i, got, want)
		}
	}
}

// TestBatchRead: edits that start together share the batch's read; once the read is over,
// an edit that did not wait takes it too, and an edit that waited behind an earlier edit of
// its message reads again. styleIn takes the styles read with the game when they include the
// user a board follows, else reads the style on its own.
func TestBatchRead(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	f.r.styles[2] = game.StyleImage
	g := f.r.put(twoPlayers("g"))
	bb := f.e.newBatch(g, g.Boards)
	if len(bb.users) != 2 {
		t.Fatalf("batch users %v, want both players", bb.users)
	}
	var wg sync.WaitGroup
	states := make([]state, 4)
	for i := range states {
		wg.Go(func() {
			s, err := bb.read(ctx, f.e, false)
			if err != nil {
				t.Error(err)
			}
			states[i] = s
		})
	}
	wg.Wait()
	if reads, _, _ := f.r.counts(); reads != 1 {
		t.Errorf("%d reads for 4 edits, want 1", reads)
	}
	for i, s := range states {
		if s.g == nil || s.g.Version != g.Version {
			t.Fatalf("edit %d read %+v, want version %d", i, s.g, g.Version)
		}
		for j, ref := range g.Boards {
			want := []game.Style{game.StyleButtons, game.StyleImage}[j]
			hint, _ := f.e.o.StyleUser(g, ref)
			if got := f.e.styleIn(ctx, s, ref, hint); got != want {
				t.Errorf("edit %d: style of board %d = %v, want %v", i, j, got, want)
			}
		}
	}
	g2 := f.r.move("g")
	if s, err := bb.read(ctx, f.e, false); err != nil || s.g.Version != g.Version {
		t.Errorf("an edit that did not wait read %v, %v; want the batch's version %d", s.g, err, g.Version)
	}
	s, err := bb.read(ctx, f.e, true)
	if err != nil {
		t.Fatal(err)
	}
	if s.g.Version != g2.Version || len(s.g.Moves) != 1 {
		t.Errorf("an edit that waited read version %d, want %d", s.g.Version, g2.Version)
	}
	if reads, _, _ := f.r.counts(); reads != 2 {
		t.Errorf("%d reads, want 2", reads)
	}
	// A style that follows someone the batch did not read (here: no hint) is read on its own.
	if got := f.e.styleIn(ctx, s, g.Boards[1], 0); got != game.StyleImage {
		t.Errorf("style read on its own = %v, want image", got)
	}
	if _, _, styleOf := f.r.counts(); styleOf != 1 {
		t.Errorf("%d style reads, want 1", styleOf)
	}
}

// TestRecheckRedrawsOlderDrawing: our edit of a board, drawn from version 1, is held on its
// way while another process moves the game on and draws version 2 into both boards; our edit
// lands last, putting version 1 back. The recheck after the step reads the game once more and
// draws both boards again: they end showing version 2.
func TestRecheckRedrawsOlderDrawing(t *testing.T) {
	f := newFixture(t)
	g := f.r.put(twoPlayers("g"))
	a, b := g.Boards[0], g.Boards[1]
	held, release := f.api.holdNext(a)
	f.e.Refresh(g)
	f.wait(held, "the edit of the first board")
	g2 := f.r.move("g") // another process's move, drawn into both boards by that process
	f.api.show(a, "v2")
	f.api.show(b, "v2")
	release()
	if fired := f.settle(); fired != 3 {
		t.Errorf("%d rechecks, want 3 (the step's, and one for each redraw)", fired)
	}
	for _, ref := range []game.MessageRef{a, b} {
		shows, edits := f.api.shown(ref)
		if want := fmt.Sprintf("v%d", g2.Version); shows != want || len(edits) != 2 || edits[0] != "v1" {
			t.Errorf("board %v shows %q after edits %v, want %s after v1", ref, shows, edits, want)
		}
	}
}

// TestRetryDrawsAfresh: an edit that must be tried again (a 429) is drawn from a new read, so
// it never sends the state it was first drawn from when the game moved on meanwhile.
func TestRetryDrawsAfresh(t *testing.T) {
	f := newFixture(t)
	g := f.r.put(twoPlayers("g"))
	ref := g.Boards[0]
	f.api.fail = 1
	f.api.onFail = func() { f.r.move("g") }
	f.e.Redraw(g, ref)
	f.settle()
	if shows, edits := f.api.shown(ref); shows != "v2" || len(edits) != 1 {
		t.Errorf("the board shows %q after edits %v, want one edit drawing v2", shows, edits)
	}
	if reads, _, _ := f.r.counts(); reads != 2 {
		t.Errorf("%d reads, want 2", reads)
	}
}

// TestPost: a posted board has no buttons until it is recorded; then it gets the keyboard
// drawn with it, or, when a move landed in between, it is drawn afresh.
func TestPost(t *testing.T) {
	ctx := context.Background()
	for _, moved := range []bool{false, true} {
		t.Run(fmt.Sprint("moved=", moved), func(t *testing.T) {
			f := newFixture(t)
			g := twoPlayers("g")
			g.Boards = nil
			g = f.r.put(g)
			if moved {
				f.r.move("g")
			}
			if err := f.e.Post(ctx, g, 1); err != nil {
				t.Fatal(err)
			}
			f.settle()
			cur, err := f.r.Lookup(ctx, "g")
			if err != nil {
				t.Fatal(err)
			}
			if len(cur.Boards) != 1 || cur.Boards[0].ChatID != 1 {
				t.Fatalf("boards %v, want the one posted to chat 1", cur.Boards)
			}
			ref := cur.Boards[0]
			shows, edits := f.api.shown(ref)
			f.api.mu.Lock()
			kb, marks := f.api.kbs[key(ref)], f.api.marks
			f.api.mu.Unlock()
			switch {
			case !kb:
				t.Error("the posted board has no buttons")
			case !moved && (shows != "v1" || len(edits) != 0 || marks != 1):
				t.Errorf("shows %q after edits %v and %d keyboard edits; want v1, its keyboard added", shows, edits, marks)
			case moved && (shows != fmt.Sprintf("v%d", cur.Version) || marks != 0):
				t.Errorf("shows %q after %d keyboard edits; want v%d drawn afresh", shows, marks, cur.Version)
			}
		})
	}
}

// TestChats: where the boards of a new game are posted.
func TestChats(t *testing.T) {
	g := twoPlayers("g")
	if got := Chats(g); !slices.Equal(got, []int64{1, 2}) {
		t.Errorf("invitation: %v", got)
	}
	g.Flow, g.ChatID = game.FlowGroup, -5
	if got := Chats(g); !slices.Equal(got, []int64{-5}) {
		t.Errorf("group: %v", got)
	}
	g.Flow = game.FlowInline
	if got := Chats(g); got != nil {
		t.Errorf("inline: %v", got)
	}
}
