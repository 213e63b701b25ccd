package webapp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/game/gametest"
	"github.com/reversibot/reversi/webapp"
	"github.com/reversibot/reversi/webapp/webapptest"
)

func TestMain(m *testing.M) {
	webapptest.VerifyTestMain(m)
}

// token is the bot token of the tests; otherToken another bot's.
const (
	token      = "7012345678:AAH-test-token-of-the-reversi-mini-app"
	otherToken = "7012345679:AAH-another-bot-s-token"
)

var (
	alice = game.Player{UserID: 101, Name: "Alice", ChatID: 101, Lang: "en"}
	bob   = game.Player{UserID: 202, Name: "Bob", ChatID: 202, Lang: "ru"}
	carol = game.Player{UserID: 303, Name: "Carol", ChatID: 303}
)

const group = -1001

// fakeGames is webapp.Games over a game.Service, as bot.Bot is: Move plays through the
// Service, then tells the Server, and lets the AI answer in the background.
type fakeGames struct {
	svc *game.Service

	mu     sync.Mutex
	srv    *webapp.Server
	budget map[int64]int // requests a user has left; a user not in it has no limit
	deny   map[int64]int // requests of a user to refuse before the budget counts
	langs  map[int64]string
	moves  []string // "user sq" of each move asked for
	reads  int      // calls of Game
	bg     sync.WaitGroup
}

func (f *fakeGames) Game(ctx context.Context, id string) (*game.Snapshot, error) {
	r, err := f.svc.Game(ctx, id)
	f.mu.Lock()
	f.reads++ // once read: a test that waits for a count knows the reads are done
	f.mu.Unlock()
	return r, err
}

func (f *fakeGames) Move(ctx context.Context, id string, user int64, sq engine.Square, pos uint64) (*game.Snapshot, error) {
	f.mu.Lock()
	f.moves = append(f.moves, itoa(user)+" "+sq.String())
	srv := f.srv
	f.mu.Unlock()
	r, err := f.svc.MoveAt(ctx, id, user, sq, pos)
	if err != nil {
		return nil, err
	}
	srv.Changed(r.Game)
	if r.Reply != nil {
		f.bg.Add(1)
		go func() {
			defer f.bg.Done()
			if a, err := r.Reply.Wait(context.Background()); err == nil {
				srv.Changed(a.Game)
			}
		}()
	}
	return r, nil
}

func (f *fakeGames) Allow(_ context.Context, user int64) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.deny[user] > 0 {
		f.deny[user]--
		return false
	}
	left, limited := f.budget[user]
	if !limited {
		return true
	}
	if left <= 0 {
		return false
	}
	f.budget[user] = left - 1
	return true
}

func (f *fakeGames) Lang(_ context.Context, user int64) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.langs[user]
}

func (f *fakeGames) setBudget(user int64, n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.budget[user] = n
}

func (f *fakeGames) movesAsked() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.moves...)
}

func (f *fakeGames) gameReads() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.reads
}

func itoa(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// env is a Server over a fakeGames, served by an httptest.Server.
type env struct {
	t     testing.TB
	ctx   context.Context
	clock *gametest.Clock
	store *gametest.Memory
	svc   *game.Service
	games *fakeGames
	srv   *webapp.Server
	http  *httptest.Server
	log   *gametest.LogBuffer
}

func newEnv(t testing.TB, tune ...func(*webapp.Options)) *env {
	t.Helper()
	clock := gametest.NewClock(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
	store := gametest.NewMemory(gametest.MemoryOptions{Now: clock.Now})
	pool := game.NewAIPool(1, 8)
	svc := game.New(game.Config{Store: store, Mover: gametest.FirstMover{}, Pool: pool, Now: clock.Now,
		Rand: rand.New(rand.NewPCG(1, 2))})
	games := &fakeGames{svc: svc, budget: map[int64]int{}, deny: map[int64]int{}, langs: map[int64]string{}}
	logs := &gametest.LogBuffer{}
	o := webapp.Options{Token: token, Games: games, Now: clock.Now,
		Logger: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	for _, f := range tune {
		f(&o)
	}
	srv, err := webapp.New(o)
	if err != nil {
		t.Fatal(err)
	}
	games.srv = srv
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(func() {
		ts.CloseClientConnections()
		srv.Close()
		ts.Close()
		games.bg.Wait()
		svc.Close()
		pool.Close()
	})
	return &env{t: t, ctx: context.Background(), clock: clock, store: store, svc: svc, games: games, srv: srv, http: ts, log: logs}
}

// user is the Telegram user of p, as initData has them.
func user(p game.Player) webapp.User {
	return webapp.User{ID: p.UserID, FirstName: p.Name, LanguageCode: p.Lang, AllowsWriteToPM: true}
}

// initData is initData of p signed now by the bot.
func (e *env) initData(p game.Player) string {
	return webapptest.SignInitData(token, user(p), "", e.clock.Now())
}

// aiGame starts a game of p (black, to move) against the AI on a board of size n.
func (e *env) aiGame(p game.Player, n int) *game.Snapshot {
	e.t.Helper()
	r, err := e.svc.NewAIGame(e.ctx, p, p.ChatID, n, 1, game.ChooseBlack)
	if err != nil {
		e.t.Fatal(err)
	}
	return r
}

// peopleGame opens a lobby of flow with alice as black and lets bob join it.
func (e *env) peopleGame(flow game.Flow, n int) *game.Snapshot {
	e.t.Helper()
	l := game.Lobby{Flow: flow, Creator: alice, Size: n, Color: game.ChooseBlack, Lang: "en"}
	switch flow {
	case game.FlowGroup:
		l.ChatID = group
	case game.FlowInline:
		l.InlineID = "inline-msg-1"
	}
	r, err := e.svc.OpenLobby(e.ctx, l)
	if err != nil {
		e.t.Fatal(err)
	}
	r, err = e.svc.Join(e.ctx, r.Game.ID, bob)
	if err != nil {
		e.t.Fatal(err)
	}
	return r
}

// move plays the lowest legal move of the side to move in game id directly on the Service, as
// another bot process would, and returns the result.
func (e *env) move(id string) *game.Snapshot {
	e.t.Helper()
	r, err := e.svc.Game(e.ctx, id)
	if err != nil {
		e.t.Fatal(err)
	}
	_, p, ok := r.Turn()
	if !ok {
		e.t.Fatalf("nobody to move in %s", id)
	}
	r, err = e.svc.Move(e.ctx, id, p.UserID, r.Pos.LegalMoves()[0], game.Ply(r.Game))
	if err != nil {
		e.t.Fatal(err)
	}
	return r
}

// answer is one HTTP answer of the API.
type answer struct {
	status int
	body   []byte
	header http.Header
}

// state decodes the answer as a State.
func (a answer) state(t testing.TB) *webapp.State {
	t.Helper()
	var st webapp.State
	if err := json.Unmarshal(a.body, &st); err != nil {
		t.Fatalf("answer %d %s: %v", a.status, a.body, err)
	}
	return &st
}

// failure decodes the answer as an ErrorBody.
func (a answer) failure(t testing.TB) webapp.ErrorBody {
	t.Helper()
	var eb webapp.ErrorBody
	if err := json.Unmarshal(a.body, &eb); err != nil {
		t.Fatalf("answer %d %s: %v", a.status, a.body, err)
	}
	return eb
}

// do sends a request to the API with initData (none when "") and body (none when nil).
func (e *env) do(method, path, initData string, body any) answer {
	e.t.Helper()
	return e.doCtx(e.ctx, method, path, initData, body)
}

func (e *env) doCtx(ctx context.Context, method, path, initData string, body any) answer {
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		j, _ := json.Marshal(b)
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequestWithContext(ctx, method, e.http.URL+path, rd)
	if err != nil {
		e.t.Error(err)
		return answer{}
	}
	if initData != "" {
		req.Header.Set("Authorization", "tma "+initData)
	}
	res, err := e.http.Client().Do(req)
	if err != nil {
		return answer{status: -1, body: []byte(err.Error())}
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return answer{status: res.StatusCode, body: b, header: res.Header}
}

// fakeTimers stands in for the pollers' tickers and the watches' hold timers: they fire when
// the test says.
type fakeTimers struct {
	mu      sync.Mutex
	tickers []*fakeTimer
	holds   []*fakeTimer
	made    int // tickers made
}

type fakeTimer struct {
	c       chan time.Time
	stopped chan struct{}
	once    sync.Once
}

func newFakeTimer() *fakeTimer {
	return &fakeTimer{c: make(chan time.Time), stopped: make(chan struct{})}
}

func (f *fakeTimer) stop() { f.once.Do(func() { close(f.stopped) }) }

// fire delivers one tick, unless the timer is stopped first; it reports whether it did.
func (f *fakeTimer) fire() bool {
	select {
	case f.c <- time.Time{}:
		return true
	case <-f.stopped:
		return false
	}
}

func (ft *fakeTimers) install(s *webapp.Server) {
	s.SetTimers(func(time.Duration) (<-chan time.Time, func()) {
		t := newFakeTimer()
		ft.mu.Lock()
		ft.tickers = append(ft.tickers, t)
		ft.made++
		ft.mu.Unlock()
		return t.c, t.stop
	}, func(time.Duration) (<-chan time.Time, func()) {
		t := newFakeTimer()
		ft.mu.Lock()
		ft.holds = append(ft.holds, t)
		ft.mu.Unlock()
		return t.c, t.stop
	})
}

// live returns the timers of list that are not stopped.
func live(list []*fakeTimer) []*fakeTimer {
	var out []*fakeTimer
	for _, t := range list {
		select {
		case <-t.stopped:
		default:
			out = append(out, t)
		}
	}
	return out
}

// tick fires every live poller ticker once and returns how many ticks were delivered.
func (ft *fakeTimers) tick() int {
	ft.mu.Lock()
	ts := live(ft.tickers)
	ft.mu.Unlock()
	n := 0
	for _, t := range ts {
		if t.fire() {
			n++
		}
	}
	return n
}

// expire fires every live hold timer.
func (ft *fakeTimers) expire() {
	ft.mu.Lock()
	ts := live(ft.holds)
	ft.mu.Unlock()
	for _, t := range ts {
		t.fire()
	}
}

func (ft *fakeTimers) tickersMade() int {
	ft.mu.Lock()
	defer ft.mu.Unlock()
	return ft.made
}
