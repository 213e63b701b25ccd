package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/reversibot/reversi/storage/storagetest"
)

func TestParseFlagsSpawn(t *testing.T) {
	exe := os.Args[0] // this test binary: an executable file
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain")
	if err := os.WriteFile(plain, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	const redis = "redis://127.0.0.1:6379/0"
	for _, args := range [][]string{
		{"-spawn", exe, "-redis", ""},
		{"-spawn", exe, "-redis", "redis://10.0.0.1:6379"},
		{"-spawn", exe, "-redis", redis, "-external"},
		{"-spawn", exe, "-redis", redis, "-targets", "http://127.0.0.1:8080/hook"},
		{"-spawn", exe, "-redis", redis, "-pids", "12"},
		{"-spawn", exe, "-redis", redis, "-procs", "0"},
		{"-spawn", exe, "-redis", redis, "-procs", "17"},
		{"-spawn", filepath.Join(dir, "missing"), "-redis", redis},
		{"-spawn", dir, "-redis", redis},
		{"-spawn", plain, "-redis", redis},
		{"-procs", "2", "-redis", redis},
		{"-procs", "2", "-external"},
	} {
		if _, err := parseFlags(args, &bytes.Buffer{}); err == nil {
			t.Errorf("parseFlags(%q) accepted", args)
		}
	}
	cfg, err := parseFlags([]string{"-spawn", exe, "-redis", redis, "-procs", "3", "-v"}, &bytes.Buffer{})
	if err != nil || cfg.Spawn != exe || cfg.Procs != 3 || !cfg.Verbose {
		t.Errorf("parseFlags(-spawn -procs 3 -v) = %+v, %v", cfg, err)
	}
}

func TestSpawnEnv(t *testing.T) {
	got := spawnEnv([]string{"GOGC=200", "REDIS_URL=redis://elsewhere", "WEBHOOK_URL=https://x/y", "PATH=/bin"},
		map[string]string{"REDIS_URL": "redis://127.0.0.1:1/0", "WEBHOOK_URL": "", "LOG_LEVEL": "error"})
	slices.Sort(got)
	want := []string{"GOGC=200", "LOG_LEVEL=error", "PATH=/bin", "REDIS_URL=redis://127.0.0.1:1/0", "WEBHOOK_URL="}
	if !slices.Equal(got, want) {
		t.Errorf("spawnEnv = %q, want %q", got, want)
	}
}

func TestTailWriter(t *testing.T) {
	w := &tailWriter{max: 16}
	if got := w.lastLines(3); got != "" {
		t.Errorf("empty lastLines = %q", got)
	}
	_, _ = w.Write([]byte("one\ntwo\nthr"))
	_, _ = w.Write([]byte("ee\n"))
	if got := w.lastLines(2); got != "two\nthree" {
		t.Errorf("lastLines(2) = %q, want two lines", got)
	}
	if got := w.lastLines(9); got != "one\ntwo\nthree" {
		t.Errorf("lastLines(9) = %q, want all", got)
	}
	_, _ = w.Write([]byte("four\nfive\n")) // 24 bytes in all: the first 8 go
	if got := w.lastLines(9); got != "three\nfour\nfive" {
		t.Errorf("lastLines after overflow = %q", got)
	}
}

// TestSpawnRun builds reversibot, has the load command start it (one long-polling process,
// then two in webhook mode, then two under the fake's flood limits) over an embedded Redis
// that this test serves on loopback, and checks that the games moved without errors (or 429s), that the report has a CPU row per process,
// that the processes are gone afterwards and that the run's keys were deleted.
func TestSpawnRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds reversibot")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool to build reversibot")
	}
	bin := filepath.Join(t.TempDir(), "reversibot")
	build := exec.Command(goTool, "build", "-o", bin, "github.com/reversibot/reversi/cmd/reversibot")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build reversibot: %v\n%s", err, out)
	}
	_, m := storagetest.NewEmbedded(t)
	for _, c := range []struct {
		name string
		args []string
	}{
		{"procs=1", []string{"-procs", "1"}},
		{"procs=2", []string{"-procs", "2"}},
		// Under the fake's flood limits, paced by the PACE_* settings: no 429.
		{"limits", []string{"-procs", "2", "-limits", "-speedup", "50", "-groups", "1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			// Until every kind of game has made two moves (a loaded machine may take seconds
			// before the first), at most two minutes.
			args := append([]string{"-spawn", bin, "-redis", "redis://" + m.Addr(), "-chats", "6", "-each", "2", "-duration", "2m"}, c.args...)
			cfg, res, out, logs := runLoad(t, args...)
			if res.PeopleMoves == 0 || res.Failed() {
				t.Errorf("%d moves, errors %v, limits %+v; want moves and no errors\nlog:\n%s", res.PeopleMoves, res.Errors, res.Limits, logs.String())
			}
			if cfg.Limits && (res.GroupMoves == 0 || res.Limits.Lag["people"].N == 0) {
				t.Errorf("under -limits: %d group moves, lag %v; want both", res.GroupMoves, res.Limits.Lag)
			}
			if len(res.BotCPU) != cfg.Procs || strings.Count(out, "bot pid ") != cfg.Procs {
				t.Errorf("CPU rows of %d bot processes, want %d:\n%s", len(res.BotCPU), cfg.Procs, out)
			}
			for _, b := range res.BotCPU {
				if err := syscall.Kill(b.PID, 0); !errors.Is(err, syscall.ESRCH) {
					t.Errorf("bot process %d still there after the run (kill 0: %v)", b.PID, err)
				}
			}
			if keys := m.Keys(); len(keys) != 0 {
				t.Errorf("%d keys left after the run, like %q", len(keys), keys[0])
			}
		})
	}
}

// TestSpawnEarlyExit checks that a spawned process that ends at once fails the run, and
// that the error shows its last output.
func TestSpawnEarlyExit(t *testing.T) {
	script := filepath.Join(t.TempDir(), "fakebot")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho 'first line' >&2\necho \"bad luck: $REDIS_PREFIX\" >&2\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	_, m := storagetest.NewEmbedded(t)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"-spawn", script, "-procs", "2", "-redis", "redis://" + m.Addr(),
		"-chats", "2", "-duration", "30s"}, &stdout, &stderr)
	if code != 1 {
		t.Errorf("run = %d, want 1", code)
	}
	if e := stderr.String(); !strings.Contains(e, "ended early (exit status 3)") || !strings.Contains(e, "first line\nbad luck: load:") {
		t.Errorf("stderr lacks the process's exit and last lines:\n%s", e)
	}
	if stdout.Len() != 0 {
		t.Errorf("a failed run printed a report:\n%s", stdout.String())
	}
}
