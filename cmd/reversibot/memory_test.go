package main

import (
	"bufio"
	"context"
	"fmt"
	"log/slog"
	"net"
	"os/exec"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/reversibot/reversi/bot/host/hosttest"
	"github.com/reversibot/reversi/storage"
)

// startRedisWith runs a redis-server of the test's own with args and returns its address once
// it accepts connections; it skips the test when redis-server is not installed.
func startRedisWith(t *testing.T, args ...string) string {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip("redis-server not installed")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command(bin, append([]string{"--port", fmt.Sprint(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", t.TempDir()}, args...)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ready := make(chan bool, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "Ready to accept connections") {
				ready <- true
			}
		}
		_ = cmd.Wait()
		ready <- false
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-done
	})
	if !<-ready {
		t.Fatal("redis-server exited before it was ready")
	}
	return fmt.Sprintf("127.0.0.1:%d", port)
}

func TestStartUpWarnsOfEvictionPolicy(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		args []string
		want string // "" for no warning
	}{
		{[]string{"--maxmemory", "64mb", "--maxmemory-policy", "allkeys-lru"}, "policy allkeys-lru can evict games in play and ratings"},
		{[]string{"--maxmemory", "64mb", "--maxmemory-policy", "volatile-ttl"}, "policy volatile-ttl can evict games in play"},
		{[]string{"--maxmemory", "0", "--maxmemory-policy", "noeviction"}, "maxmemory 0: "},
		{[]string{"--maxmemory", "64mb", "--maxmemory-policy", "noeviction"}, ""},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			client := redis.NewClient(&redis.Options{Addr: startRedisWith(t, tt.args...)})
			defer client.Close()
			var logs hosttest.LogBuffer
			warnMemoryRisks(ctx, storage.New(client, storage.Options{}), slog.New(slog.NewTextHandler(&logs, nil)))
			out := logs.String()
			if tt.want == "" {
				if out != "" {
					t.Errorf("warned under the documented policy:\n%s", out)
				}
				return
			}
			if !strings.Contains(out, "level=WARN") || !strings.Contains(out, tt.want) {
				t.Errorf("log lacks a warning with %q:\n%s", tt.want, out)
			}
		})
	}
}
