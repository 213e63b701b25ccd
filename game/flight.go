package game

import (
	"context"
	"errors"
	"hash/fnv"
	"strconv"
	"sync"
	"time"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/engine/ai"
)

// flight is one piece of AI work in progress in a Service: the callers that ask for the same
// work while it runs join it instead of starting it again.
type flight struct {
	done   chan struct{} // closed when the work has landed
	sq     engine.Square
	err    error
	joined bool // another caller joined it (under flights.mu)
}

// flights are the Service's AI work in progress, by key.
type flights struct {
	mu      sync.Mutex
	m       map[string]*flight
	waiters int // callers waiting for a flight they joined
}

// join returns the flight of key and whether the caller leads it: then the caller does the
// work and calls land; otherwise the work is already in progress.
func (fs *flights) join(key string) (*flight, bool) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if f, ok := fs.m[key]; ok {
		f.joined = true
		return f, false
	}
	if fs.m == nil {
		fs.m = make(map[string]*flight)
	}
	f := &flight{done: make(chan struct{})}
	fs.m[key] = f
	return f, true
}

// land ends the flight of key with its result, for the callers that joined it, and reports
// whether any did.
func (fs *flights) land(key string, f *flight, sq engine.Square, err error) (joined bool) {
	fs.mu.Lock()
	delete(fs.m, key)
	joined = f.joined
	fs.mu.Unlock()
	f.sq, f.err = sq, err
	close(f.done)
	return joined
}

// wait waits for a flight the caller joined and returns its result; ErrBusy when ctx ends
// first.
func (fs *flights) wait(ctx context.Context, f *flight) (engine.Square, error) {
	fs.mu.Lock()
	fs.waiters++
	fs.mu.Unlock()
	defer func() {
		fs.mu.Lock()
		fs.waiters--
		fs.mu.Unlock()
	}()
	select {
	case <-f.done:
		return f.sq, f.err
	case <-ctx.Done():
		return engine.Pass, ErrBusy
	}
}

// Lease times: a lease lives a search's budget and this margin (for the store's round trips
// and the work around the search), and its holder renews it every half of that while it waits
// for a worker or searches, so a dead process holds a game up for about one budget.
const (
	leaseMargin = 500 * time.Millisecond
	hintBudget  = 300 * time.Millisecond // ai.Hint's
)

// aiLeaseTTL is the lease time of the AI's reply in game g.
func aiLeaseTTL(g *Game) time.Duration {
	return ai.Level(g.AILevel).Budget(g.Size) + leaseMargin
}

// leaseTimeout bounds the taking of a lease: a lease only saves work (the step it guards
// lands by compare-and-set), so a store that cannot give one in time is not waited for.
const leaseTimeout = 250 * time.Millisecond

// lease takes the lease on name across the Services sharing the store, and keeps it until
// release is called. ok is false when another holds it. Without Leases every caller gets it,
// and so does a caller whose store fails or does not answer within leaseTimeout (a Redis node
// lost that holds the lease's key but not the game's): the work may then be done twice by
// two Services, never applied twice. The first such failure is logged, and the end of the run.
func (s *Service) lease(ctx context.Context, name string, ttl time.Duration) (release func(), ok bool, err error) {
	if s.leases == nil {
		return func() {}, true, nil
	}
	lctx, cancel := context.WithTimeout(ctx, leaseTimeout)
	token, ok, err := s.leases.AcquireLease(lctx, name, ttl)
	cancel()
	if err != nil && ctx.Err() == nil && (errors.Is(err, ErrUnavailable) || errors.Is(err, context.DeadlineExceeded)) {
		if !s.leaseFailing.Swap(true) {
			s.log.Warn("lease not taken: going on without it until the store gives leases again", "lease", name, "err", err)
		}
		return func() {}, true, nil
	}
	if err == nil && s.leaseFailing.Swap(false) {
		s.log.Info("leases taken again", "lease", name)
	}
	if err != nil || !ok {
		return nil, false, storeErr(err)
	}
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(ttl / 2)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ttl/2)
				held, err := s.leases.RenewLease(rctx, name, token, ttl)
				cancel()
				if err == nil && !held {
					return // expired: someone else may search now; this search still lands by CAS
				}
			}
		}
	}()
	return func() {
		close(stop)
		<-stopped
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		defer cancel()
		_ = s.leases.ReleaseLease(rctx, name, token) // on failure the lease ends with its TTL
	}, true, nil
}

// positionKey names game g's position: its ID, ply and a hash of its moves (an undo and
// other moves can bring the same ply back with another position).
func positionKey(g *Game) string {
	h := fnv.New64a()
	_, _ = h.Write(g.Moves)
	return g.ID + ":" + strconv.Itoa(len(g.Moves)) + ":" + strconv.FormatUint(h.Sum64(), 36)
}

// humanOf returns the user ID of the person playing the AI in g (0 for none).
func humanOf(g *Game) int64 {
	for _, p := range g.Players {
		if p.UserID != 0 {
			return p.UserID
		}
	}
	return 0
}
