package main

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/reversibot/reversi/storage"
)

// With -spawn this command starts the reversibot processes under load itself, points them at
// the fake Bot API server and a fresh key prefix of -redis, and stops them and deletes their
// keys at the end.

const (
	// killAfter is how long a spawned process has to stop after SIGTERM before SIGKILL.
	killAfter = 5 * time.Second
	// tailBytes is how much of a spawned process's latest output is kept for a failure report.
	tailBytes = 64 << 10
	// tailLines is how many of its last lines a failure report shows.
	tailLines = 20
	// spawnWebhookURL is the WEBHOOK_URL of spawned webhook processes: it only has to be a
	// valid https URL (the fake server does not deliver to it; this command's balancer posts
	// the updates to LISTEN_ADDR), and its path is the one each process serves.
	spawnWebhookURL  = "https://bot.invalid/hook"
	spawnWebhookPath = "/hook"
)

// fleet is the reversibot processes one run started.
type fleet struct {
	procs    []*botProcess
	store    *storage.Store  // over the run's key prefix, to delete its keys at the end
	stopping atomic.Bool     // set once stop began: an exit is no longer a failure
	ctx      context.Context // ends with an *exitError when a process ends early
	cancel   context.CancelCauseFunc
}

// botProcess is one spawned reversibot.
type botProcess struct {
	cmd    *exec.Cmd
	target string        // its webhook URL; "" when it long-polls
	out    *tailWriter   // the end of its standard output and error
	done   chan struct{} // closed once it has exited
	err    error         // how it exited, once done is closed
}

// exitError is a spawned process that ended before the run did.
type exitError struct {
	PID  int
	Err  error  // from Wait; nil for exit status 0
	Tail string // its last log lines
}

func (e *exitError) Error() string {
	how := "exit status 0"
	if e.Err != nil {
		how = e.Err.Error()
	}
	tail := e.Tail
	if tail == "" {
		tail = "(it wrote nothing)"
	}
	return fmt.Sprintf("bot process %d ended early (%s); its last output:\n%s", e.PID, how, tail)
}

// spawn starts cfg.Procs processes of the binary cfg.Spawn against the fake Bot API server at
// apiURL, whose bot token is token, over cfg.RedisURL with a fresh key prefix. One process
// long-polls; several run in webhook mode on free loopback ports (see fleet.targets). The
// returned context is ctx, cancelled with an *exitError as its cause as soon as a process
// ends before stop is called. The caller must call stop.
func spawn(ctx context.Context, cfg Config, apiURL, token string, logw io.Writer) (*fleet, context.Context, error) {
	var b [6]byte
	_, _ = crand.Read(b[:])
	prefix := "load:" + hex.EncodeToString(b[:]) + ":"
	store, err := storage.Open(ctx, cfg.RedisURL, storage.Options{Prefix: prefix})
	if err != nil {
		return nil, nil, fmt.Errorf("redis: %w", err)
	}
	if store.Embedded() { // validate requires -redis; this is a guard, not a path
		store.Close()
		return nil, nil, errors.New("-spawn needs a Redis server at -redis")
	}
	f := &fleet{store: store}
	var ports []int
	if cfg.Procs > 1 {
		if ports, err = freePorts(cfg.Procs); err != nil {
			store.Close()
			return nil, nil, err
		}
	}
	base := map[string]string{
		"TELEGRAM_API_URL":   apiURL,
		"TELEGRAM_BOT_TOKEN": token,
		"REDIS_URL":          cfg.RedisURL,
		"REDIS_PREFIX":       prefix,
		"METRICS_ADDR":       "off",
		"LOG_LEVEL":          "error",
		"WEBHOOK_URL":        "",
		"PACE":               "off", // the fake sets no flood limits: measure the bot's own pace
	}
	if cfg.Limits { // pace as production does, at the speed of the fake's limits
		base["PACE"] = "" // on, whatever this command's environment says
		for k, v := range paceEnv(paceLimits(cfg)) {
			base[k] = v
		}
	}
	if addr := cfg.pictureAddr; addr != "" { // -pictures: one process serves them here
		base["LISTEN_ADDR"], base["PUBLIC_URL"] = addr, cfg.picturePublicURL()
	}
	if !cfg.Flood { // the players tap faster than any human: a budget that never refuses
		base["USER_RATE"], base["USER_BURST"] = wideUserRate, wideUserBurst
	}
	fctx, fail := context.WithCancelCause(ctx)
	f.ctx, f.cancel = fctx, fail
	var outMu sync.Mutex // serialises -v output of all processes
	for i := range cfg.Procs {
		env := base
		p := &botProcess{out: &tailWriter{max: tailBytes}, done: make(chan struct{})}
		if cfg.Procs > 1 {
			env = map[string]string{
				"WEBHOOK_URL":    spawnWebhookURL,
				"WEBHOOK_SECRET": cfg.Secret,
				"LISTEN_ADDR":    net.JoinHostPort("127.0.0.1", strconv.Itoa(ports[i])),
			}
			if cfg.Pictures > 0 { // each process serves its pictures on its LISTEN_ADDR
				env["PUBLIC_URL"] = "http://" + env["LISTEN_ADDR"]
			}
			for k, v := range base {
				if _, ok := env[k]; !ok {
					env[k] = v
				}
			}
			p.target = "http://" + env["LISTEN_ADDR"] + spawnWebhookPath
		}
		cmd := exec.Command(cfg.Spawn)
		cmd.Env = spawnEnv(os.Environ(), env)
		var out io.Writer = p.out
		if cfg.Verbose {
			out = io.MultiWriter(p.out, &prefixWriter{mu: &outMu, w: logw, prefix: fmt.Sprintf("[bot %d] ", i)})
		}
		cmd.Stdout, cmd.Stderr = out, out
		cmd.SysProcAttr = spawnAttr()
		if err := cmd.Start(); err != nil {
			f.stop(logw)
			return nil, nil, fmt.Errorf("-spawn: %w", err)
		}
		p.cmd = cmd
		f.procs = append(f.procs, p)
		go func() {
			p.err = cmd.Wait()
			if !f.stopping.Load() && ctx.Err() == nil {
				fail(&exitError{PID: cmd.Process.Pid, Err: p.err, Tail: p.out.lastLines(tailLines)})
			}
			close(p.done)
		}()
	}
	if cfg.Verbose {
		fmt.Fprintf(logw, "reversiload: started %d reversibot process(es), pids %v, key prefix %s\n", len(f.procs), f.pids(), prefix)
	}
	return f, fctx, nil
}

// targets returns the webhook URLs of the processes, nil when one long-polls.
func (f *fleet) targets() []string {
	var out []string
	for _, p := range f.procs {
		if p.target != "" {
			out = append(out, p.target)
		}
	}
	return out
}

// pids returns the process ids.
func (f *fleet) pids() []int {
	out := make([]int, len(f.procs))
	for i, p := range f.procs {
		out[i] = p.cmd.Process.Pid
	}
	return out
}

// stop ends the processes (SIGTERM, SIGKILL for those still running killAfter later), reports
// a process that failed on its way out, and deletes the run's keys.
func (f *fleet) stop(logw io.Writer) {
	f.stopping.Store(true)
	defer f.cancel(nil)
	for _, p := range f.procs {
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
	}
	killed := false
	deadline := time.After(killAfter)
	for _, p := range f.procs {
		select {
		case <-p.done:
			continue
		case <-deadline:
		}
		fmt.Fprintf(logw, "reversiload: bot processes still running %v after SIGTERM: SIGKILL\n", killAfter)
		for _, q := range f.procs {
			_ = q.cmd.Process.Kill() // an error only says it has ended
		}
		killed = true
		break
	}
	var reported *exitError // the failure the run already reports
	errors.As(context.Cause(f.ctx), &reported)
	for _, p := range f.procs {
		<-p.done
		pid := p.cmd.Process.Pid
		if !killed && !terminated(p.err) && (reported == nil || reported.PID != pid) {
			fmt.Fprintln(logw, "reversiload:", &exitError{PID: pid, Err: p.err, Tail: p.out.lastLines(tailLines)})
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := f.store.DeleteAll(ctx); err != nil {
		fmt.Fprintln(logw, "reversiload: delete the run's keys:", err)
	}
	f.store.Close()
}

// terminated reports whether err, from exec.Cmd.Wait, says the process ended well: exit
// status 0, or killed by the SIGTERM of stop before it could handle it.
func terminated(err error) bool {
	var ee *exec.ExitError
	if err == nil {
		return true
	}
	if !errors.As(err, &ee) {
		return false
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGTERM
}

// spawnEnv returns base (KEY=VALUE entries) with every variable of set replaced by its value
// in set, or added.
func spawnEnv(base []string, set map[string]string) []string {
	out := make([]string, 0, len(base)+len(set))
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if _, ok := set[k]; !ok {
			out = append(out, kv)
		}
	}
	for k, v := range set {
		out = append(out, k+"="+v)
	}
	return out
}

// freePorts returns n distinct TCP ports free on 127.0.0.1 a moment ago. Another program may
// take one before a bot does; that bot then fails to listen and the run fails with its log.
func freePorts(n int) ([]int, error) {
	var lns []net.Listener
	defer func() {
		for _, ln := range lns {
			ln.Close()
		}
	}()
	var out []int
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("find a free port: %w", err)
		}
		lns = append(lns, ln)
		out = append(out, ln.Addr().(*net.TCPAddr).Port)
	}
	return out, nil
}

// tailWriter keeps the last max bytes written to it. It is safe for concurrent use.
type tailWriter struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailWriter) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

// lastLines returns the last n lines written (the first may be cut short), without the
// final newline.
func (t *tailWriter) lastLines(n int) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := bytes.TrimRight(t.buf, "\n")
	i := len(b)
	for ; n > 0 && i > 0; n-- {
		i = bytes.LastIndexByte(b[:i], '\n')
		if i < 0 {
			i = 0
			break
		}
	}
	return string(bytes.TrimLeft(b[i:], "\n"))
}

// prefixWriter writes whole lines to w, each after prefix, holding mu for each line.
type prefixWriter struct {
	mu     *sync.Mutex
	w      io.Writer
	prefix string
	part   []byte // an unfinished line
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	p.part = append(p.part, b...)
	for {
		i := bytes.IndexByte(p.part, '\n')
		if i < 0 {
			break
		}
		p.mu.Lock()
		_, _ = fmt.Fprintf(p.w, "%s%s\n", p.prefix, p.part[:i]) // a lost line must not stop the process
		p.mu.Unlock()
		p.part = p.part[i+1:]
	}
	return len(b), nil
}
