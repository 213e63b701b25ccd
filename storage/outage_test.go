package storage_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/reversibot/reversi/storage"
)

// redisServer is a redis-server process this test started.
type redisServer struct {
	cmd  *exec.Cmd
	done chan struct{} // closed when the process has exited and its output is drained
}

// startRedis starts redis-server on port with an append-only file in dir (fsync on every
// write, so a kill loses nothing) and returns once it accepts connections.
func startRedis(t *testing.T, port int, dir string, extra ...string) *redisServer {
	t.Helper()
	args := append([]string{"--port", fmt.Sprint(port), "--bind", "127.0.0.1",
		"--dir", dir, "--save", "", "--appendonly", "yes", "--appendfsync", "always", "--daemonize", "no"}, extra...)
	cmd := exec.Command("redis-server", args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	srv := &redisServer{cmd: cmd, done: make(chan struct{})}
	ready := make(chan struct{})
	var log strings.Builder
	go func() {
		defer close(srv.done)
		sc := bufio.NewScanner(out)
		waiting := true
		for sc.Scan() {
			if waiting {
				log.WriteString(sc.Text() + "\n")
				if strings.Contains(sc.Text(), "Ready to accept connections") {
					close(ready)
					waiting = false
				}
			}
		}
		_ = cmd.Wait()
	}()
	select {
	case <-ready:
	case <-srv.done:
		t.Fatalf("redis-server exited before it was ready:\n%s", log.String())
	}
	t.Cleanup(srv.kill)
	return srv
}

// kill stops the server abruptly (SIGKILL) and waits until it is gone.
func (r *redisServer) kill() {
	_ = r.cmd.Process.Kill()
	<-r.done
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// TestRedisRestart kills Redis mid-game: every operation must fail with ErrUnavailable (and
// nothing panic); after a restart on the same port the same Store carries on by itself.
func TestRedisRestart(t *testing.T) {
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Skip("redis-server not installed")
	}
	ctx := context.Background()
	dir, port := t.TempDir(), freePort(t)
	srv := startRedis(t, port, dir)
	client := redis.NewClient(&redis.Options{Addr: fmt.Sprintf("127.0.0.1:%d", port),
		DialTimeout: 500 * time.Millisecond, DialerRetries: 1, MaxRetries: 1})
	defer client.Close()
	s := storage.New(client, storage.Options{})

	g := sampleGame(2)
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	g.Moves = append(g.Moves, 0x33)
	if err := s.UpdateGame(ctx, g); err != nil {
		t.Fatal(err)
	}

	srv.kill()
	down := map[string]func() error{
		"Ping":       func() error { return s.Ping(ctx) },
		"Game":       func() error { _, err := s.Game(ctx, g.ID); return err },
		"UpdateGame": func() error { c := g.Clone(); c.Moves = append(c.Moves, 0x34); return s.UpdateGame(ctx, c) },
		"CreateGame": func() error { return s.CreateGame(ctx, sampleGame(0)) },
		"GameByChat": func() error { _, err := s.GameByChat(ctx, g.ChatID); return err },
		"StartGame": func() error {
			_, err := s.StartGame(ctx, sampleGame(0), storage.Hosting{Chats: []int64{1}})
			return err
		},
		"JoinGame":     func() error { c := g.Clone(); return s.JoinGame(ctx, c, []int64{2}) },
		"Profile":      func() error { _, err := s.Profile(ctx, 1); return err },
		"RecordResult": func() error { return s.RecordResult(ctx, finished("x", 1, 2, storage.OutcomeDraw)) },
		"Top":          func() error { _, err := s.Top(ctx, 0, 10); return err },
		"Enqueue":      func() error { _, err := s.Enqueue(ctx, 8, storage.Waiter{UserID: 1}); return err },
		"LeaveQueue":   func() error { _, err := s.LeaveQueue(ctx, 1); return err },
		"FirstSeen":    func() error { _, err := s.FirstSeen(ctx, 1); return err },
		"ChatLang":     func() error { _, err := s.ChatLang(ctx, 1); return err },
	}
	for name, op := range down {
		if err := op(); !errors.Is(err, storage.ErrUnavailable) {
			t.Errorf("%s with Redis down = %v, want ErrUnavailable", name, err)
		}
	}

	startRedis(t, port, dir)
	// The same Store, no reconnect call. After a burst of failed dials go-redis probes the
	// server in the background once a second, so recovery takes up to about a second: wait
	// for it (bounded), then check that the game survived (AOF) and play goes on although
	// the restarted server has forgotten the Lua scripts.
	deadline := time.Now().Add(10 * time.Second)
	for attempts := 1; ; attempts++ {
		err := s.Ping(ctx)
		if err == nil {
			t.Logf("recovered after %d pings", attempts)
			break
		}
		if !errors.Is(err, storage.ErrUnavailable) || time.Now().After(deadline) {
			t.Fatalf("Ping after restart: %v", err)
		}
		<-time.After(50 * time.Millisecond)
	}
	got, err := s.Game(ctx, g.ID)
	if err != nil {
		t.Fatalf("Game after restart: %v", err)
	}
	if got.Version != g.Version || string(got.Moves) != string(g.Moves) {
		t.Fatalf("after restart: version %d moves %x; want %d %x", got.Version, got.Moves, g.Version, g.Moves)
	}
	got.Moves = append(got.Moves, 0x34)
	if err := s.UpdateGame(ctx, got); err != nil {
		t.Fatalf("UpdateGame after restart: %v", err)
	}
	if _, err := s.Enqueue(ctx, 8, storage.Waiter{UserID: 1}); err != nil {
		t.Fatalf("Enqueue after restart: %v", err)
	}
}
