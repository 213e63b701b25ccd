package storage_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/storage"
)

func TestNewClientURLs(t *testing.T) {
	tests := []struct {
		url  string
		kind string // "single", "cluster", "sentinel", "" for an error
	}{
		{"redis://127.0.0.1:6379/0", "single"},
		{"rediss://user:pw@redis.example:6380/2?dial_timeout=3s", "single"},
		{"unix:///run/redis.sock", "single"},
		{"redis+cluster://10.0.0.1:7000?addr=10.0.0.2:7000&addr=10.0.0.3:7000", "cluster"},
		{"rediss+cluster://10.0.0.1:7000", "cluster"},
		{"redis://10.0.0.1:26379?master_name=main&addr=10.0.0.2:26379", "sentinel"},
		{"redis+sentinel://10.0.0.1:26379?master_name=main", "sentinel"},
		{"redis+sentinel://10.0.0.1:26379", ""},
		{"http://example.com", ""},
		{"redis+mesh://x", ""},
		{"redis://h/1/2", ""},
		{"redis://h?no_such_option=1", ""},
		{"::", ""},
	}
	for _, tt := range tests {
		c, err := storage.NewClient(tt.url)
		if tt.kind == "" {
			if err == nil {
				c.Close()
				t.Errorf("NewClient(%q) = nil error, want one", tt.url)
			}
			continue
		}
		if err != nil {
			t.Errorf("NewClient(%q) = %v", tt.url, err)
			continue
		}
		var kind string
		switch c.(type) {
		case *redis.ClusterClient:
			kind = "cluster"
		case *redis.Client:
			kind = "single"
			if tt.kind == "sentinel" {
				kind = "sentinel" // a failover client is a *redis.Client too
			}
		}
		if kind != tt.kind {
			t.Errorf("NewClient(%q) is %T, want %s", tt.url, c, tt.kind)
		}
		c.Close()
	}
}

func TestOpenEmbedded(t *testing.T) {
	ctx := context.Background()
	s, err := storage.Open(ctx, "", storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !s.Embedded() {
		t.Error("Embedded() = false for an empty url")
	}
	g := sampleGame(3)
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Game(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Game(ctx, g.ID); !errors.Is(err, game.ErrUnavailable) {
		t.Errorf("Game after Close = %v, want ErrUnavailable", err)
	}
}

func TestOpenUnreachable(t *testing.T) {
	// Port 1 on loopback: nothing listens there.
	_, err := storage.Open(context.Background(), "redis://127.0.0.1:1/0?max_retries=-1&dial_timeout=1s", storage.Options{})
	if !errors.Is(err, game.ErrUnavailable) {
		t.Fatalf("Open(unreachable) = %v, want ErrUnavailable", err)
	}
}

func TestNewClientFailsFastByDefault(t *testing.T) {
	c, err := storage.NewClient("redis://127.0.0.1:6379/0")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	o := c.(*redis.Client).Options()
	if o.DialTimeout != time.Second || o.MaxRetryBackoff != 100*time.Millisecond {
		t.Errorf("defaults: dial timeout %v, max retry backoff %v; want 1s, 100ms", o.DialTimeout, o.MaxRetryBackoff)
	}
	c2, err := storage.NewClient("redis://127.0.0.1:6379/0?dial_timeout=3s")
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	if got := c2.(*redis.Client).Options().DialTimeout; got != 3*time.Second {
		t.Errorf("dial_timeout=3s gave %v", got)
	}
}

// The embedded Redis of Open expires keys as time passes, as a real one does: a flood-limit
// hold ends by itself (before, it lasted until the process stopped, and so did every board of
// that chat).
func TestOpenEmbeddedExpires(t *testing.T) {
	ctx := context.Background()
	s, err := storage.Open(ctx, "", storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.PaceBudgets().Hold(ctx, "p:1", 50*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for {
		wait, err := s.PaceBudgets().Take(ctx, "p:1", "call", 1, time.Second, 1)
		if err != nil {
			t.Fatal(err)
		}
		if wait == 0 {
			break
		}
		if time.Since(start) > 10*time.Second {
			t.Fatalf("a 50 ms hold still holds after %v", time.Since(start))
		}
		time.Sleep(wait) // what the pacer itself does: wait as long as Take says
	}
	if took := time.Since(start); took < 50*time.Millisecond {
		t.Fatalf("a 50 ms hold ended after %v", took)
	}
}
