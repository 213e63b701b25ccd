package pictures

import (
	"context"
	"errors"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// waitUntil waits for a state of the drawer that the test's goroutines reach on their own
// (a job queued), polling; it fails after 10 s.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for i := 0; !cond(); i++ {
		if i == 10000 {
			t.Fatalf("%s: never happened", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestDrawerBound: however many drawings are asked for at once, at most the workers' number
// run at once, a queue of drawQueuePerWorker per worker waits, and the rest are refused at
// once; the queued ones run once the workers are free.
func TestDrawerBound(t *testing.T) {
	const workers, asks = 3, 40
	queue := workers * drawQueuePerWorker
	d := newDrawer(workers, nil)
	defer d.close()
	release := make(chan struct{})
	entered := make(chan struct{}, asks)
	var inside, most atomic.Int64
	var ran atomic.Int64
	draw := func(*drawScratch) {
		n := inside.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		entered <- struct{}{}
		<-release
		inside.Add(-1)
		ran.Add(1)
	}
	errs := make(chan error, asks)
	var wg sync.WaitGroup
	ask := func() { wg.Go(func() { errs <- d.do(context.Background(), drawUrgent, draw) }) }
	for range workers { // the workers take these, and hold
		ask()
	}
	for range workers {
		<-entered
	}
	for range asks - workers {
		ask()
	}
	refused := 0
	for refused < asks-workers-queue { // only refusals can come back while the workers hold
		if err := <-errs; !errors.Is(err, ErrBusy) {
			t.Fatalf("a drawing ended with %v while the workers were held", err)
		}
		refused++
	}
	waitUntil(t, "the queue full", func() bool { return d.stats().Waiting == queue })
	if st := d.stats(); st.Running != workers {
		t.Errorf("%d drawings running while the workers hold; want %d", st.Running, workers)
	}
	close(release)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("a queued drawing ended with %v", err)
		}
	}
	st := d.stats()
	if most.Load() != workers || st.PeakRunning != workers {
		t.Errorf("%d drawings ran at once (stats: %d); want %d", most.Load(), st.PeakRunning, workers)
	}
	if ran.Load() != int64(workers+queue) || st.Drawn != int64(workers+queue) || st.Refused != int64(refused) {
		t.Errorf("ran %d, stats %+v; want %d drawn and %d refused", ran.Load(), st, workers+queue, refused)
	}
}

// TestDrawerPicturesFirst: a picture somebody fetches is drawn before a replay that waited
// longer.
func TestDrawerPicturesFirst(t *testing.T) {
	d := newDrawer(1, nil)
	defer d.close()
	hold, release := make(chan struct{}), make(chan struct{})
	go func() { _ = d.do(context.Background(), drawUrgent, func(*drawScratch) { close(hold); <-release }) }()
	<-hold
	var mu sync.Mutex
	var order []string
	mark := func(s string) func(*drawScratch) {
		return func(*drawScratch) { mu.Lock(); order = append(order, s); mu.Unlock() }
	}
	var wg sync.WaitGroup
	wg.Go(func() { _ = d.do(context.Background(), drawIdle, mark("replay")) })
	waitUntil(t, "the replay queued", func() bool { return len(d.idle) == 1 })
	wg.Go(func() { _ = d.do(context.Background(), drawUrgent, mark("picture")) })
	waitUntil(t, "the picture queued", func() bool { return len(d.urgent) == 1 })
	close(release)
	wg.Wait()
	if len(order) != 2 || order[0] != "picture" {
		t.Errorf("drawn in the order %v; want the picture first", order)
	}
}

// TestDrawerGivesUp: a drawing whose caller stopped waiting before a worker took it is not
// drawn; one asked for after close is refused, and so is one still queued at close.
func TestDrawerGivesUp(t *testing.T) {
	d := newDrawer(1, nil)
	hold, release := make(chan struct{}), make(chan struct{})
	go func() { _ = d.do(context.Background(), drawUrgent, func(*drawScratch) { close(hold); <-release }) }()
	<-hold
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	drawn := false
	if err := d.do(ctx, drawUrgent, func(*drawScratch) { drawn = true }); !errors.Is(err, context.Canceled) {
		t.Errorf("a drawing nobody waits for: %v", err)
	}
	queued := make(chan error, 1)
	go func() { queued <- d.do(context.Background(), drawIdle, func(*drawScratch) { drawn = true }) }()
	waitUntil(t, "the replay queued", func() bool { return len(d.idle) == 1 })
	closed := make(chan struct{})
	go func() { d.close(); close(closed) }()
	waitUntil(t, "the drawer closing", func() bool { d.mu.Lock(); defer d.mu.Unlock(); return d.closed })
	close(release)
	<-closed
	if err := <-queued; err != nil && !errors.Is(err, ErrBusy) {
		t.Errorf("a drawing queued at close: %v", err)
	}
	if err := d.do(context.Background(), drawUrgent, func(*drawScratch) { drawn = true }); !errors.Is(err, ErrBusy) {
		t.Errorf("a drawing after close: %v, want ErrBusy", err)
	}
	if drawn {
		t.Error("a drawing nobody waited for, or asked for after close, was drawn")
	}
}

// TestPictureCacheBound: whatever is put in, the bytes kept never exceed the bound, the count
// of bytes is the sum of what is kept, the most recently used stay and a picture larger than
// the bound is not kept.
func TestPictureCacheBound(t *testing.T) {
	const capBytes = 10_000
	c := newPictureCache(capBytes)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		c.put(strconv.Itoa(i), make([]byte, rng.IntN(3000)+1))
		if i%7 == 0 { // use an older one, which keeps it longer
			c.get(strconv.Itoa(rng.IntN(i + 1)))
		}
		bytes, bound, n := c.size()
		var sum int64
		for _, e := range c.byKey {
			sum += int64(cap(e.Value.(*cached).data))
		}
		if bytes > bound || bytes != sum || n != len(c.byKey) || n != c.order.Len() {
			t.Fatalf("after %d puts: %d bytes counted, %d kept in %d pictures (list %d); bound %d", i+1, bytes, sum, n, c.order.Len(), bound)
		}
	}
	c.put("keep", make([]byte, 100))
	c.put("x1", make([]byte, 2000))
	c.get("keep")
	for i := range 4 {
		c.put("y"+string(rune('0'+i)), make([]byte, 2000))
	}
	if _, ok := c.get("keep"); !ok {
		t.Error("the picture used last was forgotten before older ones")
	}
	c.put("huge", make([]byte, capBytes+1))
	if _, ok := c.get("huge"); ok {
		t.Error("a picture larger than the bound was kept")
	}
}
