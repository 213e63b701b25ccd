package storage_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/game/gametest"
	"github.com/reversibot/reversi/storage/storagetest"
)

// The drawn record keeps game.Drawings' promises on Redis (REDIS_URL, else the embedded one).
func TestDrawingsContract(t *testing.T) {
	gametest.DrawingsContract(t, storagetest.New(t))
}

// The record and the lease of a message carry TTLs: the lease its own, the record
// game.DrawingsTTL; both keys share the message's hash tag.
func TestDrawingsKeysExpire(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	msg := "-100:" + strconv.FormatInt(time.Now().UnixNano(), 10) // its own on a shared Redis
	d := game.Drawing{Game: "g", Version: 1, Token: "a"}
	if st, err := s.BeginDraw(ctx, msg, d, 5*time.Second); err != nil || st.Verdict != game.DrawGo {
		t.Fatalf("BeginDraw = %+v, %v", st, err)
	}
	rdb := s.Client()
	keys, err := rdb.Keys(ctx, "*dw:{"+msg+"}*").Result()
	if err != nil || len(keys) != 2 {
		t.Fatalf("keys %v, %v; want the record and the lease", keys, err)
	}
	for _, k := range keys {
		ttl, err := rdb.PTTL(ctx, k).Result()
		if err != nil {
			t.Fatal(err)
		}
		limit := game.DrawingsTTL
		if strings.HasSuffix(k, ":l") {
			limit = 5 * time.Second
		}
		if ttl <= 0 || ttl > limit {
			t.Errorf("%s: TTL %v, want (0, %v]", k, ttl, limit)
		}
		if !strings.Contains(k, "{"+msg+"}") {
			t.Errorf("%s lacks the message's hash tag", k)
		}
	}
	if _, err := s.EndDraw(ctx, msg, d, game.DrawSent, "h"); err != nil {
		t.Fatal(err)
	}
	keys, _ = rdb.Keys(ctx, "*dw:{"+msg+"}*").Result()
	if len(keys) != 1 {
		t.Fatalf("keys after EndDraw: %v, want the record alone", keys)
	}
	if ttl, _ := rdb.PTTL(ctx, keys[0]).Result(); ttl <= 0 || ttl > game.DrawingsTTL {
		t.Errorf("the record's TTL after EndDraw is %v", ttl)
	}
}

// A lease whose process died frees the message when it runs out; the record is forgotten
// game.DrawingsTTL after its last drawing.
func TestDrawingsLeaseExpires(t *testing.T) {
	ctx := context.Background()
	s, mini := storagetest.NewEmbedded(t)
	begin := func(v int64, tok string) game.DrawVerdict {
		t.Helper()
		st, err := s.BeginDraw(ctx, "m", game.Drawing{Game: "g", Version: v, Token: tok}, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		return st.Verdict
	}
	if v := begin(2, "dead"); v != game.DrawGo {
		t.Fatalf("first = %v", v)
	}
	mini.FastForward(900 * time.Millisecond)
	if v := begin(3, "b"); v != game.DrawBusy {
		t.Fatalf("within the lease = %v, want busy", v)
	}
	mini.FastForward(100 * time.Millisecond)
	if v := begin(3, "b"); v != game.DrawGo {
		t.Fatalf("after the lease = %v, want go", v)
	}
	redraw, err := s.EndDraw(ctx, "m", game.Drawing{Game: "g", Version: 3, Token: "b"}, game.DrawSent, "h")
	if err != nil || !redraw {
		t.Fatalf("EndDraw = %v, %v; want the busy edit's wish (v3) reported", redraw, err)
	}
	if v := begin(2, "c"); v != game.DrawStale {
		t.Fatalf("older = %v, want stale", v)
	}
	mini.FastForward(game.DrawingsTTL)
	if v := begin(2, "c"); v != game.DrawGo {
		t.Fatalf("older after the record's TTL = %v, want go", v)
	}
}
