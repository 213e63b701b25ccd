package main

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/reversibot/reversi/game/gametest"
	"github.com/reversibot/reversi/storage"
	"github.com/reversibot/reversi/storage/storagetest"
)

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
			client := redis.NewClient(&redis.Options{Addr: storagetest.StartScratchServer(t, tt.args...)})
			defer client.Close()
			var logs gametest.LogBuffer
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
