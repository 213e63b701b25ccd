package e2e_test

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"

	"github.com/reversibot/reversi/bot/telegramtest"
	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/storage"
)

// TestBotKilledMidMove runs the real reversibot binary (long polling) against the fake Bot API
// and a Redis reached through a proxy of the test's own, and kills it with SIGKILL in the
// middle of a move twice, each time restarting it on the same Redis:
//
//   - after it read the game and before its compare-and-set reached Redis: the move is not
//     applied, the tap is lost with the process (its update was already taken), and the same
//     tap on the same board after the restart plays it;
//   - after Redis applied the compare-and-set and before the reply reached the process: the
//     move is applied but no board shows it; the player's tap on the out-of-date board after
//     the restart is answered with an alert and brings the board up to date, and so does the
//     opponent's.
//
// The game then goes on to the end exactly as its reference replay: no move lost or doubled.
func TestBotKilledMidMove(t *testing.T) {
	c, proxy, prefix, run := killableBot(t)

	p := run()
	g := c.startPeople(31, c.user("Eve"), c.user("Fay"))
	for range 4 {
		c.step(g)
	}

	// 1. Killed before the write reached Redis.
	side, sq, board := c.pick(g)
	hold := proxy.hold(holdRequest, prefix+"{g}g:"+g.id)
	c.press(g.users[side], board, sq)
	waitHeld(t, hold, "the move's compare-and-set")
	p.kill()
	if got := storedMoves(t, c.stores[0], g.id); got != len(g.ref.moves) {
		t.Fatalf("store holds %d moves after a kill before the write, want %d", got, len(g.ref.moves))
	}
	p = run()
	board, _ = c.srv.Message(board.ChatID, board.ID)
	if ans := c.tap(g.users[side], board, sq); ans.ShowAlert {
		t.Fatalf("the same tap after the restart refused: %q", ans.Text)
	}
	c.played(g, sq)
	for range 3 {
		c.step(g)
	}

	// 2. Killed after Redis applied the write, before the process heard back.
	side, sq, board = c.pick(g)
	hold = proxy.hold(holdReply, prefix+"{g}g:"+g.id)
	c.press(g.users[side], board, sq)
	waitHeld(t, hold, "the reply to the move's compare-and-set")
	p.kill()
	stale := len(g.ref.moves)
	if got := storedMoves(t, c.stores[0], g.id); got != stale+1 {
		t.Fatalf("store holds %d moves after a kill past the write, want %d", got, stale+1)
	}
	g.ref.play(t, sq)
	p = run()
	// The mover taps the same square on the board that still shows the old position; the
	// opponent taps their old board too. Both are told, and both boards catch up.
	for _, col := range []engine.Color{side, side.Opponent()} {
		cur, _ := c.srv.Message(g.boards[col].ChatID, g.boards[col].ID)
		if boardPly(cur) != stale {
			t.Fatalf("board in chat %d shows ply %d, want the old %d", cur.ChatID, boardPly(cur), stale)
		}
		data := firstMoveButton(t, cur)
		if col == side {
			b, _ := moveButton(cur, sq)
			data = b.CallbackData
		}
		qid, err := g.users[col].Press(cur, data)
		if err != nil {
			t.Fatal(err)
		}
		c.wantStaleAlert(qid)
		c.waitPly(g.boards[col], len(g.ref.moves))
	}
	c.finish(g)
	p.stop()
}

// killableBot is the set-up of the tests that SIGKILL the real bot binary: it builds the bot
// and returns a cluster with one store on the test's Redis under a new key prefix, the proxy
// the bot reaches that Redis through (to hold a step there), the prefix, and run, which starts
// the bot process (again after a kill) on that Redis. It skips the test with -short.
func killableBot(t *testing.T) (c *cluster, proxy *redisProxy, prefix string, run func() *botProcess) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the bot binary")
	}
	bin := buildBot(t)
	redisAt := redisURL(t)
	proxy = startRedisProxy(t, redisAt)
	prefix = newPrefix()
	c = &cluster{t: t, srv: telegramtest.Start(t), logs: &logBuffer{}, stop: func() {}}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the bot's log:\n%s", c.logs.String())
		}
	})
	c.stores = openStoresAt(t, redisAt, prefix, 1)
	run = func() *botProcess { return startBotProcess(t, bin, c.srv, proxy.url(redisAt), prefix, c.logs) }
	return c, proxy, prefix, run
}

// storedMoves is the number of moves the store holds for game id.
func storedMoves(t *testing.T, st *storage.Store, id string) int {
	t.Helper()
	g, err := st.Game(context.Background(), id)
	if err != nil {
		t.Fatalf("game %s: %v", id, err)
	}
	return len(g.Moves)
}

// buildBot builds cmd/reversibot into the test's temporary directory.
func buildBot(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "reversibot")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/reversibot/reversi/cmd/reversibot").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// botProcess is a running reversibot binary.
type botProcess struct {
	t      *testing.T
	cmd    *exec.Cmd
	exited chan error
}

// startBotProcess starts the bot in long-polling mode against srv and the Redis at redisURL
// with the key prefix, its log going to logs, and waits until it asks for updates.
func startBotProcess(t *testing.T, bin string, srv *telegramtest.Server, redisURL, prefix string, logs io.Writer) *botProcess {
	t.Helper()
	polls := srv.Calls("getUpdates")
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(),
		"TELEGRAM_BOT_TOKEN="+srv.Token(),
		"TELEGRAM_API_URL="+srv.URL(),
		"REDIS_URL="+redisURL,
		"REDIS_PREFIX="+prefix,
		"WEBHOOK_URL=",
		"METRICS_ADDR=off",
		"LOG_FORMAT=text",
		"LOG_LEVEL=debug",
		"AI_WORKERS=1",
		"USER_RATE=off", // the scripted players tap faster than the per-user budget lets anyone
	)
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatalf("start the bot: %v", err)
	}
	p := &botProcess{t: t, cmd: cmd, exited: make(chan error, 1)}
	go func() { p.exited <- cmd.Wait() }()
	t.Cleanup(p.kill)
	err := srv.WaitFor(guard(t), func(v telegramtest.View) bool { return v.Calls("getUpdates") > polls })
	if err != nil {
		t.Fatalf("the bot never polled: %v", err)
	}
	return p
}

// kill stops the process with SIGKILL and waits for it; idempotent.
func (p *botProcess) kill() {
	if p.cmd == nil {
		return
	}
	_ = p.cmd.Process.Kill()
	<-p.exited
	p.cmd = nil
}

// stop stops the process with SIGTERM and expects a clean exit.
func (p *botProcess) stop() {
	p.t.Helper()
	if p.cmd == nil {
		return
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		p.t.Fatal(err)
	}
	select {
	case err := <-p.exited:
		if err != nil {
			p.t.Errorf("after SIGTERM the bot exited with %v, want 0", err)
		}
	case <-guard(p.t).Done():
		p.t.Error("the bot did not stop after SIGTERM")
		_ = p.cmd.Process.Kill()
		<-p.exited
	}
	p.cmd = nil
}

// holdMode says which half of a Redis exchange the proxy holds back.
type holdMode int

const (
	holdRequest holdMode = iota + 1 // the command never reaches Redis
	holdReply                       // Redis runs the command; its reply never reaches the client
)

// redisProxy forwards TCP connections to a Redis server. Armed with hold, it holds back one
// compare-and-set (a script call naming a given key): the request, or Redis's reply to it.
// Everything after that on the connection is dropped, as a process frozen at that point would
// see it, until the client goes away.
type redisProxy struct {
	t      *testing.T
	ln     net.Listener
	target string

	mu    sync.Mutex
	mode  holdMode
	key   []byte
	held  chan struct{}
	conns map[net.Conn]bool
}

// startRedisProxy listens on a loopback port and forwards to the server of redisURL.
func startRedisProxy(t *testing.T, redisURL string) *redisProxy {
	t.Helper()
	u, err := url.Parse(redisURL)
	if err != nil || u.Host == "" {
		t.Fatalf("cannot proxy %q: want redis://host:port", redisURL)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &redisProxy{t: t, ln: ln, target: u.Host, conns: map[net.Conn]bool{}}
	var wg sync.WaitGroup
	wg.Go(func() { p.accept(&wg) })
	t.Cleanup(func() {
		ln.Close()
		p.mu.Lock()
		for c := range p.conns {
			c.Close()
		}
		p.mu.Unlock()
		wg.Wait()
	})
	return p
}

// url is redisURL with its host replaced by the proxy's.
func (p *redisProxy) url(redisURL string) string {
	u, _ := url.Parse(redisURL)
	u.Host = p.ln.Addr().String()
	return u.String()
}

// hold arms the proxy for the next script call naming key; the returned channel is closed
// when it held one.
func (p *redisProxy) hold(mode holdMode, key string) <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.mode, p.key, p.held = mode, []byte(key), make(chan struct{})
	return p.held
}

// match reports whether chunk is the armed script call and disarms the proxy if so.
func (p *redisProxy) match(chunk []byte) (holdMode, chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.mode == 0 || !bytes.Contains(chunk, p.key) || !bytes.Contains(bytes.ToLower(chunk), []byte("evalsha")) {
		return 0, nil
	}
	mode, held := p.mode, p.held
	p.mode, p.held = 0, nil
	return mode, held
}

func (p *redisProxy) track(c net.Conn, add bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if add {
		p.conns[c] = true
	} else {
		delete(p.conns, c)
	}
}

func (p *redisProxy) accept(wg *sync.WaitGroup) {
	for {
		client, err := p.ln.Accept()
		if err != nil {
			return
		}
		server, err := net.Dial("tcp", p.target)
		if err != nil {
			client.Close()
			continue
		}
		p.track(client, true)
		p.track(server, true)
		wg.Go(func() { p.pipe(client, server) })
	}
}

// pipe forwards one connection both ways until either side closes.
func (p *redisProxy) pipe(client, server net.Conn) {
	defer func() {
		client.Close()
		server.Close()
		p.track(client, false)
		p.track(server, false)
	}()
	var (
		mu        sync.Mutex
		frozen    bool          // drop everything from now on
		replyHeld chan struct{} // set: hold the next reply and close this
	)
	done := make(chan struct{})
	go func() { // Redis → client
		defer close(done)
		buf := make([]byte, 64<<10)
		for {
			n, err := server.Read(buf)
			if n > 0 {
				mu.Lock()
				if replyHeld != nil {
					close(replyHeld)
					replyHeld, frozen = nil, true
				}
				drop := frozen
				mu.Unlock()
				if !drop {
					if _, werr := client.Write(buf[:n]); werr != nil {
						return
					}
				}
			}
			if err != nil {
				client.Close()
				return
			}
		}
	}()
	buf := make([]byte, 64<<10)
	for {
		n, err := client.Read(buf)
		if n > 0 {
			mode, held := p.match(buf[:n])
			mu.Lock()
			switch mode {
			case holdRequest:
				frozen = true
				close(held)
			case holdReply:
				replyHeld = held
			}
			drop := frozen
			mu.Unlock()
			if !drop {
				if _, werr := server.Write(buf[:n]); werr != nil {
					break
				}
			}
		}
		if err != nil {
			break
		}
	}
	server.Close()
	<-done
}

// waitHeld waits until the proxy held what it was armed for.
func waitHeld(t *testing.T, held <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-held:
	case <-guard(t).Done():
		t.Fatalf("the proxy never saw %s", what)
	}
}
