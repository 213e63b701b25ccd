package e2e_test

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/reversibot/reversi/bot"
	"github.com/reversibot/reversi/engine"
)

// TestLateEditOfOtherProcessIsRedrawn: bot 0 plays a move and edits both boards, but its edit
// of the second player's board is held on its way. Meanwhile bot 1 takes the second player's
// typed reply and draws the newer position into both boards. Then bot 0's old edit lands, last,
// putting the older position back. Bot 0 must notice that the game moved on while its edit was
// on its way and draw that board again: it ends showing the newest position.
func TestLateEditOfOtherProcessIsRedrawn(t *testing.T) {
	var target atomic.Int64 // the bot that gets the next update
	hold := &holdingTransport{next: http.DefaultTransport}
	c := newClusterWith(t, redisURL(t), func(int64) []int { return []int{int(target.Load())} },
		func(i int, o *bot.Options) {
			healthyRedis(i, o)
			if i == 0 {
				o.HTTPClient = &http.Client{Transport: hold}
			}
		})
	g := c.startPeople(41, c.user("Gil"), c.user("Hal"))
	white := g.boards[engine.White]

	// Bot 0 plays black's move; its edit of white's board is held.
	target.Store(0)
	release := hold.holdEdit(white.ChatID)
	c.step2(g, engine.Black, func() { hold.waitHeld(t) })

	// Bot 1 takes white's typed reply and draws it into both boards.
	target.Store(1)
	sq := g.ref.legal()[0]
	if _, err := g.users[engine.White].Send(white.ChatID, sq.String()); err != nil {
		t.Fatal(err)
	}
	g.ref.play(t, sq)
	c.waitPly(white, len(g.ref.moves))

	// Bot 0's old edit lands now, after bot 1's; bot 0 then draws white's board again.
	landed := release()
	<-landed
	c.waitPly(white, len(g.ref.moves))
	c.waitPly(g.boards[engine.Black], len(g.ref.moves))
}

// step2 taps the move of colour col (who must be to move) on its board and waits until that
// player's own board shows it; then runs after (the other board may still be on its way).
func (c *cluster) step2(g *peopleGame, col engine.Color, after func()) {
	c.t.Helper()
	side, sq, board := c.pick(g)
	if side != col {
		c.t.Fatalf("%v to move, want %v", side, col)
	}
	if ans := c.tap(g.users[side], board, sq); ans.ShowAlert {
		c.t.Fatalf("move %v refused: %q", sq, ans.Text)
	}
	g.ref.play(c.t, sq)
	c.waitPly(g.boards[side], len(g.ref.moves))
	after()
}

// holdingTransport forwards Bot API requests, holding back the next editMessageText of one
// chat until released.
type holdingTransport struct {
	next http.RoundTripper

	mu      sync.Mutex
	chat    string        // the chat_id field of the edit to hold, as multipart/form-data; "" when not armed
	held    chan struct{} // closed when the edit is held
	release chan struct{} // closed to let it go
	landed  chan struct{} // closed when its answer came back
}

// holdEdit arms t for the next edit of chat; the returned function lets it go and returns a
// channel closed once the Bot API answered it.
func (t *holdingTransport) holdEdit(chat int64) func() <-chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.chat = "name=\"chat_id\"\r\n\r\n" + strconv.FormatInt(chat, 10) + "\r\n"
	t.held, t.release, t.landed = make(chan struct{}), make(chan struct{}), make(chan struct{})
	release, landed := t.release, t.landed
	return func() <-chan struct{} { close(release); return landed }
}

// waitHeld waits until the armed edit is held.
func (t *holdingTransport) waitHeld(tb *testing.T) {
	tb.Helper()
	t.mu.Lock()
	held := t.held
	t.mu.Unlock()
	select {
	case <-held:
	case <-guard(tb).Done():
		tb.Fatal("the edit to hold never came")
	}
}

func (t *holdingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	t.mu.Lock()
	armed := t.chat
	t.mu.Unlock()
	if armed == "" || r.Body == nil || !bytes.HasSuffix([]byte(r.URL.Path), []byte("/editMessageText")) {
		return t.next.RoundTrip(r)
	}
	body, err := io.ReadAll(r.Body)
	r.Body.Close()
	if err != nil {
		return nil, err
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	t.mu.Lock()
	mine := t.chat != "" && bytes.Contains(body, []byte(t.chat))
	var release, landed chan struct{}
	if mine {
		t.chat = ""
		close(t.held)
		release, landed = t.release, t.landed
	}
	t.mu.Unlock()
	if !mine {
		return t.next.RoundTrip(r)
	}
	<-release
	resp, err := t.next.RoundTrip(r)
	close(landed)
	return resp, err
}
