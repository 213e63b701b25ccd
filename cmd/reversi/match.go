package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/engine/ai"
)

func init() {
	commands["match"] = command{summary: "play AI levels against each other and print wins/draws/losses", run: runMatch}
}

// matchStats counts the results of a match from the first player's side.
type matchStats struct {
	wins, draws, losses int
	discs               int          // sum of final disc differences for the first player
	time                [2]moveTimes // per player: a, b
}

// moveTimes sums the thinking time of one player.
type moveTimes struct {
	n          int
	total, max time.Duration
	// book counts the moves taken from the opening book, bookTotal and bookMax their time.
	book               int
	bookTotal, bookMax time.Duration
	// firsts counts the player's first move after the opening, by square.
	firsts map[engine.Square]int
}

func (m *moveTimes) add(o moveTimes) {
	m.n += o.n
	m.total += o.total
	m.max = max(m.max, o.max)
	m.book += o.book
	m.bookTotal += o.bookTotal
	m.bookMax = max(m.bookMax, o.bookMax)
	for sq, c := range o.firsts {
		if m.firsts == nil {
			m.firsts = map[engine.Square]int{}
		}
		m.firsts[sq] += c
	}
}

func (m moveTimes) String() string {
	if m.n == 0 {
		return "no moves"
	}
	s := fmt.Sprintf("%d moves, mean %v, max %v", m.n, (m.total / time.Duration(m.n)).Round(time.Microsecond), m.max.Round(time.Microsecond))
	if m.book > 0 {
		s += fmt.Sprintf(" (%d from the book: mean %v, max %v)", m.book, (m.bookTotal / time.Duration(m.book)).Round(time.Microsecond), m.bookMax.Round(time.Microsecond))
	}
	return s
}

// runMatch implements "reversi match".
func runMatch(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("match", flag.ContinueOnError)
	fs.SetOutput(stderr)
	a := fs.Int("a", 2, "level of the first player")
	b := fs.Int("b", 1, "level of the second player")
	games := fs.Int("games", 100, "games to play (even: each opening is played with both colours)")
	size := fs.Int("size", 8, "board size")
	plies := fs.Int("opening", 6, "random plies that open each game pair")
	seed := fs.Uint64("seed", 1, "random seed (openings and the levels' choices)")
	jobs := fs.Int("j", 1, "games played at once")
	ladder := fs.Bool("ladder", false, "play every level against the one below (2v1 … 6v5) and print a Markdown table")
	verbose := fs.Bool("v", false, "print each game")
	slow := fs.Duration("slow", 0, "print to stderr every position on which a move took longer than this (0: none)")
	evalA := fs.String("eval-a", "default", "evaluation of the first player: default, linear or pattern")
	evalB := fs.String("eval-b", "default", "evaluation of the second player: default, linear or pattern")
	bookA := fs.Bool("book-a", true, "let the first player use the opening book (levels 5 and 6)")
	bookB := fs.Bool("book-b", true, "let the second player use the opening book (levels 5 and 6)")
	mpcA := fs.Bool("mpc-a", true, "let the first player search selectively (level 6's Multi-ProbCut)")
	mpcB := fs.Bool("mpc-b", true, "let the second player search selectively (level 6's Multi-ProbCut)")
	mpcT := fs.Float64("mpc-t", 0, "cut threshold of the first player's Multi-ProbCut in standard deviations (0: the default)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: reversi match [-a L -b L | -ladder] [-eval-a E] [-eval-b E] [-book-a=false] [-book-b=false] [-mpc-a=false] [-mpc-b=false] [-mpc-t T] [-games N] [-size N] [-opening K] [-seed S] [-j N] [-slow D] [-v]\n"+
			"Plays AI against AI from random openings, each opening twice with colours swapped, and prints\n"+
			"the first player's wins, draws and losses.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if !engine.ValidSize(*size) || *games < 1 || *jobs < 1 || *plies < 0 || !(*mpcT >= 0) {
		fmt.Fprintln(stderr, "reversi match: bad -size, -games, -opening, -j or -mpc-t")
		return 2
	}
	var opts [2]ai.Options
	for i, name := range []string{*evalA, *evalB} {
		ev, err := ai.ParseEval(name)
		if err != nil {
			fmt.Fprintln(stderr, "reversi match:", err)
			return 2
		}
		opts[i].Eval = ev
	}
	opts[0].NoBook, opts[1].NoBook = !*bookA, !*bookB
	opts[0].NoMPC, opts[1].NoMPC = !*mpcA, !*mpcB
	opts[0].MPCT = *mpcT
	// Decode the weights and books now, so that no move's time includes it (the bot does the
	// same at start).
	if err := ai.Preload(); err != nil {
		fmt.Fprintln(stderr, "reversi match:", err)
		return 1
	}
	type pair struct{ a, b ai.Level }
	var pairs []pair
	if *ladder {
		for l := ai.MinLevel + 1; l <= ai.MaxLevel; l++ {
			pairs = append(pairs, pair{l, l - 1})
		}
		fmt.Fprintf(stdout, "| match (%dx%d, %d games) | wins | draws | losses | win %% | mean disc diff |\n", *size, *size, *games)
		fmt.Fprintln(stdout, "| --- | ---: | ---: | ---: | ---: | ---: |")
	} else {
		if !ai.Level(*a).Valid() || !ai.Level(*b).Valid() {
			fmt.Fprintln(stderr, "reversi match: levels must be 1 to 6")
			return 2
		}
		pairs = append(pairs, pair{ai.Level(*a), ai.Level(*b)})
	}
	for _, pr := range pairs {
		var onSlow func(ai.Level, time.Duration, time.Duration, engine.Position)
		if *slow > 0 {
			onSlow = func(l ai.Level, el, cpu time.Duration, p engine.Position) {
				if el > *slow {
					fmt.Fprintf(stderr, "slow move: level %d took %v (process CPU time %v) on %v\n", l,
						el.Round(time.Microsecond), cpu.Round(time.Microsecond), p)
				}
			}
		}
		st := playMatch(pr.a, pr.b, opts, *games, *size, *plies, *seed, *jobs, onSlow, func(g int, res string) {
			if *verbose {
				fmt.Fprintf(stderr, "game %d: %s\n", g+1, res)
			}
		})
		n := st.wins + st.draws + st.losses
		if *ladder {
			fmt.Fprintf(stdout, "| level %d vs %d | %d | %d | %d | %.0f%% | %+.1f |\n", pr.a, pr.b, st.wins, st.draws, st.losses,
				100*float64(st.wins)/float64(n), float64(st.discs)/float64(n))
			fmt.Fprintf(stderr, "level %d: %v; level %d: %v\n", pr.a, st.time[0], pr.b, st.time[1])
			continue
		}
		fmt.Fprintf(stdout, "level %d%s vs level %d%s on %dx%d: %d wins, %d draws, %d losses (%.0f%% wins, mean disc difference %+.1f)\n",
			pr.a, evalNote(opts[0]), pr.b, evalNote(opts[1]), *size, *size, st.wins, st.draws, st.losses, 100*float64(st.wins)/float64(n), float64(st.discs)/float64(n))
		fmt.Fprintf(stdout, "time per move: level %d: %v; level %d: %v\n", pr.a, st.time[0], pr.b, st.time[1])
		fmt.Fprintf(stdout, "first moves after the opening: level %d: %s; level %d: %s\n", pr.a, firstsNote(st.time[0].firsts), pr.b, firstsNote(st.time[1].firsts))
	}
	return 0
}

// firstsNote lists how often each square was a player's first move, most frequent first.
func firstsNote(f map[engine.Square]int) string {
	type kv struct {
		sq engine.Square
		n  int
	}
	var l []kv
	for sq, n := range f {
		l = append(l, kv{sq, n})
	}
	sort.Slice(l, func(i, j int) bool { return l[i].n > l[j].n || l[i].n == l[j].n && l[i].sq.String() < l[j].sq.String() })
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "%v×%d", e.sq, e.n)
	}
	return b.String()
}

// evalNote names a player's options that differ from the default (an evaluation, no book)
// for the match's summary line.
func evalNote(o ai.Options) string {
	s := ""
	if o.Eval != ai.EvalDefault {
		s += fmt.Sprintf(" (%v eval)", o.Eval)
	}
	if o.NoBook {
		s += " (no book)"
	}
	if o.NoMPC {
		s += " (no MPC)"
	}
	if o.MPCT > 0 {
		s += fmt.Sprintf(" (MPC t=%g)", o.MPCT)
	}
	return s
}

// playMatch plays games between levels a and b, searching with opts[0] and opts[1]; game i
// uses opening i/2 and gives a black in even games, white in odd ones.
// onSlow, when not nil, is called after every move with the level that chose it, its
// wall-clock thinking time, the CPU time the process used meanwhile (a good measure of the
// search's own only when jobs is 1) and the position; it may be called from several
// goroutines at once when jobs > 1.
func playMatch(a, b ai.Level, opts [2]ai.Options, games, size, plies int, seed uint64, jobs int,
	onSlow func(ai.Level, time.Duration, time.Duration, engine.Position), report func(int, string)) matchStats {
	var (
		mu sync.Mutex
		st matchStats
		wg sync.WaitGroup
	)
	next := make(chan int)
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := range next {
				diff, rec, times := playGame(a, b, opts, g, size, plies, seed, onSlow)
				mu.Lock()
				st.time[0].add(times[0])
				st.time[1].add(times[1])
				switch {
				case diff > 0:
					st.wins++
				case diff < 0:
					st.losses++
				default:
					st.draws++
				}
				st.discs += diff
				report(g, fmt.Sprintf("level %d %s, %+d: %s", a, []string{"black", "white"}[g%2], diff, rec))
				mu.Unlock()
			}
		}()
	}
	for g := 0; g < games; g++ {
		next <- g
	}
	close(next)
	wg.Wait()
	return st
}

// opening returns the random opening of game pair k.
func opening(size, plies int, seed uint64, k int) *engine.Game {
	rng := rand.New(rand.NewPCG(seed, uint64(k)))
	g := engine.NewGameFrom(engine.MustStart(size))
	for i := 0; i < plies && !g.Over(); i++ {
		moves := g.Position().LegalMoves()
		if len(moves) == 0 {
			g.Play(engine.Pass)
			continue
		}
		g.Play(moves[rng.IntN(len(moves))])
	}
	return g
}

// playGame plays game g and returns the final disc difference (empties to the winner) for
// level a, and the game record.
func playGame(a, b ai.Level, opts [2]ai.Options, g, size, plies int, seed uint64,
	onSlow func(ai.Level, time.Duration, time.Duration, engine.Position)) (int, string, [2]moveTimes) {
	var times [2]moveTimes
	game := opening(size, plies, seed, g/2)
	aColor := engine.Color(g % 2)
	rngA := rand.New(rand.NewPCG(seed^0xa, uint64(g)))
	rngB := rand.New(rand.NewPCG(seed^0xb, uint64(g)))
	for !game.Over() {
		p := game.Position()
		lvl, rng, who := b, rngB, 1
		if p.Side() == aColor {
			lvl, rng, who = a, rngA, 0
		}
		cpu0, start := cpuTime(), time.Now()
		r, err := ai.ChooseWith(context.Background(), p, lvl, rng, opts[who])
		m := r.Move
		el, cpu := time.Since(start), cpuTime()-cpu0
		t := &times[who]
		t.n++
		t.total += el
		t.max = max(t.max, el)
		if r.Book {
			t.book++
			t.bookTotal += el
			t.bookMax = max(t.bookMax, el)
		}
		if t.n == 1 {
			t.firsts = map[engine.Square]int{m: 1}
		}
		if onSlow != nil {
			onSlow(lvl, el, cpu, p)
		}
		if err != nil {
			panic(fmt.Sprintf("match: %v at %v", err, p))
		}
		if _, err := game.Play(m); err != nil {
			panic(fmt.Sprintf("match: %v plays %v at %v: %v", lvl, m, p, err))
		}
	}
	p := game.Position()
	diff := p.FinalScore()
	if p.Side() != aColor {
		diff = -diff
	}
	return diff, game.Record(), times
}
