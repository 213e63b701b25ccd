package storage_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"net"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/reversibot/reversi/game"
	"github.com/reversibot/reversi/storage"
	"github.com/reversibot/reversi/storage/storagetest"
)

// markUpdates runs FirstSeen for the n update ids from first on, from 16 goroutines, and
// returns how many it reported as first.
func markUpdates(t *testing.T, s *storage.Store, first, n int64) int64 {
	t.Helper()
	ctx := context.Background()
	var next, firsts atomic.Int64
	next.Store(first)
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for {
				id := next.Add(1) - 1
				if id >= first+n {
					return
				}
				ok, err := s.FirstSeen(ctx, id)
				if err != nil {
					t.Errorf("FirstSeen(%d): %v", id, err)
					return
				}
				if ok {
					firsts.Add(1)
				}
			}
		})
	}
	wg.Wait()
	return firsts.Load()
}

// TestDedupeMemory measures what remembering updates costs Redis: 100,000 sequential update
// ids (as Telegram numbers them), each marked once, must take at most one byte each
// (MEMORY USAGE of every key the store wrote), and every id must be remembered.
func TestDedupeMemory(t *testing.T) {
	if !storagetest.Real() {
		t.Skip("MEMORY USAGE needs a real Redis: set REDIS_URL")
	}
	ctx := context.Background()
	s := storagetest.New(t)
	const base, n = 731_400_017, 100_000 // Telegram may start anywhere
	if got := markUpdates(t, s, base, n); got != n {
		t.Fatalf("FirstSeen reported %d of %d new updates as first", got, n)
	}
	for id := int64(base); id < base+n; id += 97 {
		if ok, err := s.FirstSeen(ctx, id); err != nil || ok {
			t.Fatalf("FirstSeen(%d) again = %v, %v; want false", id, ok, err)
		}
	}
	keys, err := s.MemoryUsage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var total int64
	for _, k := range keys {
		total += k.Bytes
		if k.TTL <= 0 || k.TTL > storage.DefaultDedupeTTL*2 {
			t.Errorf("key %s has TTL %v, want about DedupeTTL (%v)", k.Key, k.TTL, storage.DefaultDedupeTTL)
		}
		t.Logf("%s: %d bytes, TTL %v", k.Key, k.Bytes, k.TTL)
	}
	perUpdate := float64(total) / n
	t.Logf("dedupe of %d sequential updates: %d keys, %d bytes in all, %.3f bytes per update", n, len(keys), total, perUpdate)
	if perUpdate > 1 {
		t.Errorf("dedupe costs %.1f bytes per update, want at most 1", perUpdate)
	}
}

// replyDropper is a TCP proxy in front of a Redis server that can lose one reply: armed with
// a marker, it forwards the next request that contains the marker to the server and then, in
// place of the server's reply, closes the client's connection, as a network failure after the
// server ran the command would. go-redis then retries the command on a new connection.
type replyDropper struct {
	ln      net.Listener
	target  string
	mu      sync.Mutex
	marker  string
	conns   []net.Conn
	dropped chan struct{} // closed when the reply was dropped
	wg      sync.WaitGroup
}

func newReplyDropper(t *testing.T, target string) *replyDropper {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	d := &replyDropper{ln: ln, target: target, dropped: make(chan struct{})}
	d.wg.Go(d.accept)
	t.Cleanup(func() {
		ln.Close()
		d.mu.Lock()
		for _, c := range d.conns {
			c.Close()
		}
		d.mu.Unlock()
		d.wg.Wait()
	})
	return d
}

func (d *replyDropper) addr() string { return d.ln.Addr().String() }

// arm makes the proxy drop the reply to the next request that contains marker.
func (d *replyDropper) arm(marker string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.marker = marker
}

func (d *replyDropper) accept() {
	for {
		client, err := d.ln.Accept()
		if err != nil {
			return
		}
		server, err := net.Dial("tcp", d.target)
		if err != nil {
			client.Close()
			continue
		}
		d.mu.Lock()
		d.conns = append(d.conns, client, server)
		d.mu.Unlock()
		var drop atomic.Bool
		d.wg.Go(func() { // client -> server
			buf := make([]byte, 64<<10)
			for {
				n, err := client.Read(buf)
				if err != nil {
					server.Close()
					return
				}
				d.mu.Lock()
				if d.marker != "" && bytes.Contains(bytes.ToLower(buf[:n]), []byte(d.marker)) {
					d.marker = ""
					drop.Store(true)
				}
				d.mu.Unlock()
				if _, err := server.Write(buf[:n]); err != nil {
					client.Close()
					return
				}
			}
		})
		d.wg.Go(func() { // server -> client
			buf := make([]byte, 64<<10)
			for {
				n, err := server.Read(buf)
				if err != nil {
					client.Close()
					return
				}
				if drop.Load() {
					client.Close()
					server.Close()
					close(d.dropped)
					return
				}
				if _, err := client.Write(buf[:n]); err != nil {
					server.Close()
					return
				}
			}
		})
	}
}

// TestFirstSeenLostReply loses the reply to FirstSeen's command after Redis ran it, so go-redis
// sends it again. The update was seen by nobody else, so FirstSeen must not call it a
// duplicate: it reports it as first, or fails (the bot then handles the update all the same).
// Reporting "seen" would drop an update that nobody handled.
func TestFirstSeenLostReply(t *testing.T) {
	ctx := context.Background()
	m := miniredis.RunT(t)
	proxy := newReplyDropper(t, m.Addr())
	client := redis.NewClient(&redis.Options{Addr: proxy.addr(), MaxRetries: 3})
	defer client.Close()
	s := storage.New(client, storage.Options{})
	if ok, err := s.FirstSeen(ctx, 1000); err != nil || !ok { // loads the script
		t.Fatalf("FirstSeen(1000) = %v, %v", ok, err)
	}
	proxy.arm("evalsha")
	ok, err := s.FirstSeen(ctx, 1001)
	<-proxy.dropped
	t.Logf("FirstSeen(1001) with its reply lost = %v, %v", ok, err)
	if err == nil && !ok {
		t.Fatal("FirstSeen called an update nobody saw a duplicate after its reply was lost")
	}
	if ok, err := s.FirstSeen(ctx, 1001); err != nil || ok {
		t.Fatalf("FirstSeen(1001) again = %v, %v; want false", ok, err)
	}
}

// TestFirstSeenNegative: update_ids are never negative; FirstSeen refuses one (ErrInvalid)
// and writes nothing.
func TestFirstSeenNegative(t *testing.T) {
	ctx := context.Background()
	s := storagetest.New(t)
	for _, id := range []int64{-1, -5, math.MinInt64} {
		if ok, err := s.FirstSeen(ctx, id); ok || !errors.Is(err, game.ErrInvalid) {
			t.Errorf("FirstSeen(%d) = %v, %v; want ErrInvalid", id, ok, err)
		}
	}
	if storagetest.Real() {
		if keys, err := s.MemoryUsage(ctx); err != nil || len(keys) != 0 {
			t.Errorf("keys after refused marks: %+v, %v; want none", keys, err)
		}
	}
}
