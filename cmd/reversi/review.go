package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/engine/ai"
)

func init() {
	commands["review"] = command{
		summary: "review a game: each move's score against the best, the biggest mistakes, the turning point",
		run:     runReview,
	}
}

// runReview is "reversi review [-size N] [flags] [RECORD]": it reviews the game RECORD (the
// arguments, or standard input when there are none) with ai.NewReview and prints a header,
// one line per disc placed (ply, mover, move played and its score, best move and its score,
// loss, "exact" or the search depth; scores in discs for the mover), then the biggest
// mistakes of each side and the turning point. Usage errors exit with 2, a bad record with 1.
func runReview(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("review", flag.ContinueOnError)
	fs.SetOutput(stderr)
	size := fs.Int("size", 8, "board size (even, 4 to 16)")
	depth := fs.Int("depth", 0, "midgame search depth (0: the default of the board size)")
	exact := fs.Int("exact", 0, "solve positions with at most this many empty squares (0: the default; -1: none)")
	nodes := fs.Uint64("nodes", 0, "cap on a midgame search's nodes (0: the default of the board size)")
	top := fs.Int("n", 3, "mistakes to list for each side")
	jobs := fs.Int("j", 1, "steps to run at once")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: reversi review [-size N] [-depth D] [-exact E] [-nodes N] [-n N] [-j N] [RECORD]\n"+
			"Reviews the game RECORD (like f5d6c3d3; from standard input when not given): one line per\n"+
			"disc placed with the move played and its score, the best move and its score, the loss and\n"+
			"whether the scores are exact, then each side's biggest mistakes and the turning point.\n"+
			"Scores are in discs for the mover; exact ones give the empty squares to the winner.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if !engine.ValidSize(*size) {
		fmt.Fprintf(stderr, "reversi review: -size %d is not an even size from 4 to 16\n", *size)
		return 2
	}
	if *depth < 0 || *jobs < 1 {
		fmt.Fprintln(stderr, "reversi review: -depth must be at least 0 and -j at least 1")
		return 2
	}
	record := strings.Join(fs.Args(), " ")
	if fs.NArg() == 0 {
		b, err := io.ReadAll(io.LimitReader(stdin, 1<<20))
		if err != nil {
			fmt.Fprintln(stderr, "reversi review:", err)
			return 1
		}
		record = string(b)
	}
	g, err := engine.ReplayRecord(*size, record)
	if err != nil {
		fmt.Fprintln(stderr, "reversi review:", err)
		return 1
	}
	r, err := ai.NewReview(g, ai.ReviewOptions{ExactFrom: *exact, Depth: *depth, Nodes: *nodes})
	if err != nil {
		fmt.Fprintln(stderr, "reversi review:", err)
		return 1
	}
	fmt.Fprintf(stderr, "reversi review: %d moves on %d×%d, %d steps, about %v on one core\n",
		g.Ply(), *size, *size, r.Steps(), ai.EstimateReview(*size, g.Ply()).Round(100*time.Millisecond))
	if err := runSteps(r, *jobs); err != nil {
		fmt.Fprintln(stderr, "reversi review:", err)
		return 1
	}
	gr, err := r.Result()
	if err != nil {
		fmt.Fprintln(stderr, "reversi review:", err)
		return 1
	}
	printReview(stdout, gr, *top)
	return 0
}

// runSteps runs every step of r on jobs goroutines.
func runSteps(r *ai.Review, jobs int) error {
	next := make(chan int)
	errs := make(chan error, jobs)
	var wg sync.WaitGroup
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var first error
			for i := range next {
				if err := r.Step(context.Background(), i); err != nil && first == nil {
					first = err
				}
			}
			errs <- first
		}()
	}
	for i := 0; i < r.Steps(); i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// discs writes a score in hundredths of a disc as discs.
func discs(v int) string { return fmt.Sprintf("%+.2f", float64(v)/100) }

// printReview writes the table of moves, the mistakes and the turning point.
func printReview(w io.Writer, gr ai.GameReview, top int) {
	fmt.Fprintf(w, "%4s %-5s %-6s %7s %-6s %7s %6s  %s\n", "ply", "mover", "played", "score", "best", "score", "loss", "how")
	for _, m := range gr.Moves {
		how := "exact"
		if !m.Exact {
			how = fmt.Sprintf("depth %d", m.Depth)
		}
		fmt.Fprintf(w, "%4d %-5s %-6s %7s %-6s %7s %6.2f  %s\n", m.Ply, m.Mover, m.Played, discs(m.PlayedScore),
			m.Best, discs(m.BestScore), float64(m.Loss)/100, how)
	}
	for _, c := range []engine.Color{engine.Black, engine.White} {
		ms := gr.Mistakes(c, top)
		fmt.Fprintf(w, "%s's biggest mistakes (loss of %d discs or more):", c, ai.MistakeThreshold/100)
		if len(ms) == 0 {
			fmt.Fprint(w, " none")
		}
		fmt.Fprintln(w)
		for _, m := range ms {
			fmt.Fprintf(w, "  ply %d: %v %s, best %v %s, loss %.2f\n", m.Ply, m.Played, discs(m.PlayedScore), m.Best,
				discs(m.BestScore), float64(m.Loss)/100)
		}
	}
	if gr.Turning < 0 {
		fmt.Fprintln(w, "turning point: none")
		return
	}
	m := gr.Moves[gr.Turning]
	fmt.Fprintf(w, "turning point: ply %d, %s %v (%s for %s, best %v %s)\n", m.Ply, m.Mover, m.Played,
		discs(m.PlayedScore), m.Mover, m.Best, discs(m.BestScore))
}
