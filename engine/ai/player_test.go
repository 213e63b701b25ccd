package ai

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/reversibot/reversi/engine"
)

// openings returns n positions of random 8×8 openings (many legal moves, far from the end, so
// the beginner level picks at random and never searches).
func openings(t testing.TB, n int) []engine.Position {
	rng := rand.New(rand.NewPCG(21, 22))
	out := make([]engine.Position, n)
	for i := range out {
		out[i] = midgame(t, rng, 8, 4+rng.IntN(16))
	}
	return out
}

// beginnerMoves returns the beginner-level moves of a on each position, asking for a hint
// before each move when hints is set.
func beginnerMoves(t *testing.T, a *Player, ps []engine.Position, hints bool) []engine.Square {
	t.Helper()
	ctx := context.Background()
	var out []engine.Square
	for _, p := range ps {
		if hints {
			if _, err := a.Hint(ctx, engine.MustStart(4)); err != nil {
				t.Fatal(err)
			}
		}
		m, err := a.Move(ctx, p, int(LevelBeginner))
		if err != nil || !legal(p, m) {
			t.Fatalf("Move(%v, 1) = %v, %v", p, m, err)
		}
		out = append(out, m)
	}
	return out
}

func TestPlayerSeeded(t *testing.T) {
	ps := openings(t, 60)
	a := beginnerMoves(t, NewPlayer(42), ps, false)
	if b := beginnerMoves(t, NewPlayer(42), ps, false); !slices.Equal(a, b) {
		t.Errorf("two Players seeded alike play\n%v\n%v", a, b)
	}
	// A hint draws no random stream: the moves stay those of the seed.
	if b := beginnerMoves(t, NewPlayer(42), ps, true); !slices.Equal(a, b) {
		t.Errorf("hints between the moves changed them:\n%v\n%v", a, b)
	}
	if b := beginnerMoves(t, NewPlayer(43), ps, false); slices.Equal(a, b) {
		t.Errorf("seeds 42 and 43 play the same %d moves", len(a))
	}
	// Each search gets a stream of its own: the same position asked again gets varied moves.
	p := NewPlayer(42)
	seen := map[engine.Square]bool{}
	for range 40 {
		seen[beginnerMoves(t, p, ps[:1], false)[0]] = true
	}
	if n := ps[0].MoveCount(); len(seen) < 2 && n > 1 {
		t.Errorf("40 searches of one position with %d legal moves all play %v", n, seen)
	}
}

func TestPlayerUnseeded(t *testing.T) {
	var a Player // the zero Player is ready
	start := engine.MustStart(8)
	seen := map[engine.Square]bool{}
	for range 60 {
		m, err := a.Move(context.Background(), start, int(LevelBeginner))
		if err != nil || !legal(start, m) {
			t.Fatalf("Move(start, 1) = %v, %v", m, err)
		}
		seen[m] = true
	}
	if len(seen) < 2 {
		t.Errorf("60 unseeded beginner moves from the start all play %v", seen)
	}
}

func TestPlayerErrors(t *testing.T) {
	a := NewPlayer(1)
	ctx := context.Background()
	start := engine.MustStart(8)
	for _, l := range []int{0, -1, 7, 1 << 40} {
		if _, err := a.Move(ctx, start, l); !errors.Is(err, ErrLevel) {
			t.Errorf("Move at level %d = %v, want ErrLevel", l, err)
		}
	}
	over, err := engine.ParsePosition("XXXXXXXXXXXXXXXX X")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Move(ctx, over, 3); !errors.Is(err, ErrGameOver) || !errors.Is(err, engine.ErrGameOver) {
		t.Errorf("Move in a finished game = %v, want ErrGameOver", err)
	}
	if _, err := a.Hint(ctx, over); !errors.Is(err, ErrGameOver) {
		t.Errorf("Hint in a finished game = %v, want ErrGameOver", err)
	}
	if _, err := a.Move(ctx, engine.Position{}, 3); !errors.Is(err, ErrPosition) {
		t.Errorf("Move in the zero Position = %v, want ErrPosition", err)
	}
	pass := mustPass(t)
	for l := MinLevel; l <= MaxLevel; l++ {
		if m, err := a.Move(ctx, pass, int(l)); m != engine.Pass || err != nil {
			t.Errorf("Move at level %d when the side to move must pass = %v, %v", l, m, err)
		}
	}
	if m, err := a.Hint(ctx, pass); m != engine.Pass || err != nil {
		t.Errorf("Hint when the side to move must pass = %v, %v", m, err)
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := a.Move(done, start, 4); !errors.Is(err, context.Canceled) {
		t.Errorf("Move with a done context = %v, want context.Canceled", err)
	}
}

// mustPass returns a position of a random 6×6 game where the side to move must pass.
func mustPass(t *testing.T) engine.Position {
	rng := rand.New(rand.NewPCG(8, 9))
	for range 1000 {
		p := engine.MustStart(6)
		for !p.GameOver() {
			if p.MustPass() {
				return p
			}
			ms := p.LegalMoves()
			p, _, _ = p.Play(ms[rng.IntN(len(ms))])
		}
	}
	t.Fatal("no 6×6 random game with a pass in 1000")
	return engine.Position{}
}

// goroutineID returns the id of the calling goroutine, from its stack trace header.
func goroutineID() string {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	id, _, _ := bytes.Cut(bytes.TrimPrefix(buf, []byte("goroutine ")), []byte(" "))
	return string(id)
}

func TestPlayerOnSearch(t *testing.T) {
	var calls atomic.Int64
	var caller string // the goroutine that asks; OnSearch runs on it
	a := NewPlayer(5)
	a.OnSearch = func() {
		calls.Add(1)
		if id := goroutineID(); id != caller {
			t.Errorf("OnSearch ran on goroutine %s, the search was asked on %s", id, caller)
		}
	}
	ctx := context.Background()
	caller = goroutineID()
	want := int64(0)
	check := func(what string) {
		t.Helper()
		want++
		if got := calls.Load(); got != want {
			t.Fatalf("after %s OnSearch ran %d times, want %d", what, got, want)
		}
	}
	p := engine.MustStart(6)
	if _, err := a.Move(ctx, p, 2); err != nil {
		t.Fatal(err)
	}
	check("Move")
	if _, err := a.Hint(ctx, p); err != nil {
		t.Fatal(err)
	}
	check("Hint")
	if _, err := a.Move(ctx, p, 0); err == nil {
		t.Fatal("Move at level 0 succeeded")
	}
	check("a Move that fails")

	// On other goroutines, each search runs it on its own goroutine.
	var wg sync.WaitGroup
	var mismatched atomic.Int64
	b := NewPlayer(6)
	ids := sync.Map{}
	b.OnSearch = func() { ids.Store(goroutineID(), true) }
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			me := goroutineID()
			if _, err := b.Move(ctx, p, 1); err != nil {
				t.Error(err)
			}
			if _, ok := ids.Load(me); !ok {
				mismatched.Add(1)
			}
		}()
	}
	wg.Wait()
	if n := mismatched.Load(); n > 0 {
		t.Errorf("%d searches did not run OnSearch on their own goroutine", n)
	}
}

// TestPlayerConcurrent runs many searches of one Player at once (run it with -race).
func TestPlayerConcurrent(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	var ps []engine.Position
	for _, size := range []int{4, 6, 8} {
		for range 3 {
			ps = append(ps, midgame(t, rng, size, size*size-size-8))
		}
	}
	var searches atomic.Int64
	a := NewPlayer(77)
	a.OnSearch = func() { searches.Add(1) }
	var wg sync.WaitGroup
	const workers, each = 6, 8
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				p := ps[(w*each+i)%len(ps)]
				var m engine.Square
				var err error
				if i%4 == 3 {
					m, err = a.Hint(context.Background(), p)
				} else {
					m, err = a.Move(context.Background(), p, 1+(w+i)%3)
				}
				if err != nil || !legal(p, m) {
					t.Errorf("search of %v = %v, %v", p, m, err)
				}
			}
		}()
	}
	wg.Wait()
	if got := searches.Load(); got != workers*each {
		t.Errorf("OnSearch ran %d times for %d searches", got, workers*each)
	}
}
