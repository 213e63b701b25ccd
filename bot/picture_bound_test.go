package bot_test

import (
	"bytes"
	"context"
	"image/jpeg"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reversibot/reversi/bot"
	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/render"
)

// drawGate holds every drawing of a bot (Options.OnDraw) until it is opened, telling each
// one on entered. A test opens it at its end too (t.Cleanup, registered after the harness's
// own, so that it runs first): the harness's Shutdown waits for the drawings.
type drawGate struct {
	entered chan struct{}
	release chan struct{}
	once    sync.Once
}

func newDrawGate() *drawGate {
	return &drawGate{entered: make(chan struct{}, 256), release: make(chan struct{})}
}

func (g *drawGate) onDraw() {
	g.entered <- struct{}{}
	<-g.release
}

func (g *drawGate) open() { g.once.Do(func() { close(g.release) }) }

// receive takes the next value of ch; guard failing first fails the test.
func receive[T any](t *testing.T, guard context.Context, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-guard.Done():
		t.Fatalf("%s never came", what)
		panic("unreachable")
	}
}

// pictureHarness is a harness whose bot serves its pictures at a test server's address, with
// mod applied to its options after that.
func pictureHarness(t *testing.T, mod func(*options)) (*harness, string) {
	late := &lateHandler{}
	pics := httptest.NewServer(late)
	t.Cleanup(pics.Close)
	h := newHarness(t, func(o *options) {
		o.PublicURL = pics.URL
		mod(o)
	})
	late.set(h.b.Pictures.Handler())
	return h, pics.URL
}

// inlinePictures has alice post a 16×16 game inline and bob join it, and both play until the
// post has shown n positions; it returns their picture addresses, in order.
func inlinePictures(h *harness, n int) []string {
	h.t.Helper()
	alice, bob := h.user("Alice", "en"), h.user("Bob", "en")
	chat := h.srv.NewGroup("Chat", alice, bob)
	ans := h.inlineAnswer(alice, "16")
	post, err := alice.ChooseInlineResult(ans.Results[0].ID, chat.ID())
	if err != nil {
		h.t.Fatal(err)
	}
	h.press(bob, post, "✅ Join")
	board := h.postBoard(post)
	urls := []string{board.PhotoURL}
	for len(urls) < n {
		mover := bob
		if toMove(board, render.BlackDisc+" Alice") || toMove(board, render.WhiteDisc+" Alice") {
			mover = alice
		}
		moves := legalMoves(board)
		if len(moves) == 0 {
			h.t.Fatalf("no move buttons:%s", dump([]telegramtest.ChatMessage{board}))
		}
		h.pressData(mover, board, moves[0].CallbackData)
		last := board.PhotoURL
		board = h.waitState(board, "the next position's picture", func(m telegramtest.ChatMessage) bool {
			return m.PhotoURL != last && strings.Contains(m.Content(), "To move")
		})
		urls = append(urls, board.PhotoURL)
	}
	return urls
}

// fetched is the answer to one picture request.
type fetched struct {
	status     int
	retryAfter string
	body       []byte
	err        error
}

func fetchAsync(u string, out chan<- fetched) {
	resp, err := http.Get(u)
	if err != nil {
		out <- fetched{err: err}
		return
	}
	defer resp.Body.Close()
	var body bytes.Buffer
	_, err = body.ReadFrom(resp.Body)
	out <- fetched{status: resp.StatusCode, retryAfter: resp.Header.Get("Retry-After"), body: body.Bytes(), err: err}
}

// TestPictureDrawsBounded: however many valid picture addresses are fetched at once, the bot
// draws at most DrawWorkers of them at a time; a short queue waits and the rest are answered
// 503 with Retry-After at once, without waiting. Meanwhile another user's tap is answered and
// their board drawn: nothing of a tap waits for the drawing workers. Once the workers are
// free, every queued request gets its picture.
func TestPictureDrawsBounded(t *testing.T) {
	const workers = 2
	queue := workers * 8 // the drawing queue: 8 a worker
	requests := workers + queue + 6
	gate := newDrawGate()
	h, _ := pictureHarness(t, func(o *options) { o.DrawWorkers, o.OnDraw = workers, gate.onDraw })
	t.Cleanup(gate.open)
	urls := inlinePictures(h, requests)

	answers := make(chan fetched, requests)
	for _, u := range urls {
		go fetchAsync(u, answers)
	}
	guard := h.guard()
	for range workers { // the workers hold their drawings at the gate
		receive(t, guard, gate.entered, "a drawing at the gate")
	}
	for i := range requests - workers - queue { // while they hold, only refusals come back
		a := receive(t, guard, answers, "a refusal")
		if a.err != nil || a.status != http.StatusServiceUnavailable || a.retryAfter != "1" {
			t.Fatalf("answer %d while the workers are busy and the queue is full: %d, Retry-After %q, %v", i, a.status, a.retryAfter, a.err)
		}
	}

	carol := h.user("Carol", "en")
	board := h.aiBoard(carol, carol.ID(), "/ai 8 1 black")
	moves := legalMoves(board)
	if a := h.pressData(carol, board, moves[0].CallbackData); a.ShowAlert {
		t.Fatalf("Carol's move answered %q", a.Text)
	}
	h.waitState(board, "Carol's board after her move", func(m telegramtest.ChatMessage) bool { return boardPly(m) > 0 })
	if st := h.b.Drawing(); st.Running != workers || st.Waiting != queue {
		t.Errorf("while Carol played: %+v; want %d drawing and %d waiting", st, workers, queue)
	}

	select {
	case <-gate.entered:
		t.Errorf("more than %d drawings at once", workers)
	default:
	}
	gate.open()
	for i := range workers + queue {
		// A picture takes 0.4 s to draw with the race detector on, and many times that on a
		// loaded machine: the guard bounds each one's wait, not the whole queue's.
		a := receive(t, h.guard(), answers, "a queued picture")
		if a.err != nil || a.status != http.StatusOK {
			t.Fatalf("queued answer %d: %d, %v", i, a.status, a.err)
		}
		if _, err := jpeg.Decode(bytes.NewReader(a.body)); err != nil {
			t.Errorf("queued answer %d is no JPEG: %v", i, err)
		}
	}
	st := h.b.Drawing()
	if st.PeakRunning != workers || st.Drawn != int64(workers+queue) || st.Refused != int64(requests-workers-queue) {
		t.Errorf("drawing stats %+v; want %d at most at once, %d drawn, %d refused", st, workers, workers+queue, requests-workers-queue)
	}
}

// TestPictureCacheBoundedInBytes: the pictures kept never take more than Options.PictureCache
// bytes; a picture kept is served again without drawing, one forgotten is drawn again, and an
// address the bot did not make is a 404 that draws nothing.
func TestPictureCacheBoundedInBytes(t *testing.T) {
	const capBytes = 300_000 // two 16×16 pictures of about 130 KB
	h, base := pictureHarness(t, func(o *options) { o.DrawWorkers, o.PictureCache = 1, capBytes })
	urls := inlinePictures(h, 6)
	for i, u := range urls {
		if status, body := fetchPicture(t, u); status != 200 || len(body) < 50_000 {
			t.Fatalf("picture %d: %d, %d bytes", i, status, len(body))
		}
		if st := h.b.Drawing(); st.CacheBytes > capBytes || st.CacheCap != capBytes || st.CachedCount < 1 {
			t.Fatalf("after %d pictures the cache holds %d bytes in %d pictures; bound %d (%d)", i+1, st.CacheBytes, st.CachedCount, capBytes, st.CacheCap)
		}
	}
	drawn := h.b.Drawing().Drawn
	if drawn != int64(len(urls)) {
		t.Errorf("%d pictures drawn for %d addresses", drawn, len(urls))
	}
	if status, _ := fetchPicture(t, urls[len(urls)-1]); status != 200 || h.b.Drawing().Drawn != drawn {
		t.Errorf("the newest picture again: %d, drawn %d times in all (was %d)", status, h.b.Drawing().Drawn, drawn)
	}
	if status, _ := fetchPicture(t, urls[0]); status != 200 || h.b.Drawing().Drawn != drawn+1 {
		t.Errorf("the first picture again: %d, drawn %d times in all (want %d)", status, h.b.Drawing().Drawn, drawn+1)
	}

	at0 := urls[0]
	id := at0[len(base+bot.PicturePath):strings.LastIndex(at0, "/")]
	mac := at0[strings.LastIndex(at0, "-")+1 : len(at0)-len(".jpg")]
	before := h.b.Drawing()
	for _, name := range []string{
		id + "/1-" + mac + ".jpg",                           // another ply under ply 0's MAC
		id + "/0-" + strings.Repeat("B", len(mac)) + ".jpg", // a forged MAC
		"ZZZZZZZZZZ/0-" + mac + ".jpg",                      // a game that is not there
		id + "/999-" + mac + ".jpg", "start/9.jpg", strings.Repeat("x", 100),
	} {
		if status, _ := fetchPicture(t, base+bot.PicturePath+name); status != http.StatusNotFound {
			t.Errorf("%q: %d, want 404", name, status)
		}
	}
	if after := h.b.Drawing(); after.Drawn != before.Drawn || after.Refused != 0 {
		t.Errorf("addresses the bot did not make: drawing stats %+v, were %+v", after, before)
	}
}

// waitDrawing polls the bot's drawing stats until ok holds; guard failing first fails the
// test. The stats change on the bot's own goroutines, which tell nobody.
func waitDrawing(h *harness, what string, ok func(bot.DrawStats) bool) {
	h.t.Helper()
	guard := h.guard()
	for !ok(h.b.Drawing()) {
		select {
		case <-guard.Done():
			h.t.Fatalf("%s: never happened; drawing stats %+v", what, h.b.Drawing())
		case <-time.After(time.Millisecond):
		}
	}
}

// TestReplaysDrawnByTheDrawingWorkers: the replays of finished games are drawn by the bot's
// drawing workers, one at a time with one worker: a replay waits in the replays' queue while
// the worker draws another, and each is sent once drawn.
func TestReplaysDrawnByTheDrawingWorkers(t *testing.T) {
	gate := newDrawGate()
	h := newHarness(t, func(o *options) { o.DrawWorkers, o.OnDraw = 1, gate.onDraw })
	t.Cleanup(gate.open)
	guard := h.guard()
	alice, bob := h.user("Alice", "en"), h.user("Bob", "en")
	finalA, _, _ := playToEnd(h, alice, h.aiBoard(alice, alice.ID(), "/ai 4x4 1 black"), render.BlackDisc+" Alice")
	receive(t, guard, gate.entered, "Alice's replay at the drawing worker")
	finalB, _, _ := playToEnd(h, bob, h.aiBoard(bob, bob.ID(), "/ai 4x4 1 black"), render.BlackDisc+" Bob")
	waitDrawing(h, "Bob's replay waiting", func(st bot.DrawStats) bool { return st.ReplaysQueued == 1 })
	select {
	case <-gate.entered:
		t.Fatal("two replays drawn at once by one worker")
	default:
	}
	for _, u := range []*telegramtest.Person{alice, bob} {
		for _, m := range h.srv.Messages(u.ID()) {
			if m.HasAnimation() {
				t.Fatalf("a replay was sent to %s while the drawing worker held it", u.Model().FirstName)
			}
		}
	}
	gate.open()
	h.waitReplay(alice.ID(), movesOf(finalA))
	h.waitReplay(bob.ID(), movesOf(finalB))
	if st := h.b.Drawing(); st.Drawn != 2 || st.PeakRunning != 1 {
		t.Errorf("drawing stats after the replays: %+v; want two drawings, one at a time", st)
	}
}
