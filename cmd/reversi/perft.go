package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/reversibot/reversi/engine"
)

func init() {
	commands["perft"] = command{
		summary: "count the leaves of the game tree to each depth (move generator check and speed)",
		run:     runPerft,
	}
}

// runPerft is "reversi perft [-size N] [-board B -side X|O] DEPTH": one line per depth 1…DEPTH
// with the depth, the leaf count, the leaves per second and the time of that depth. Each depth is
// counted (and timed) on its own, single-threaded. Usage errors exit with 2.
func runPerft(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("perft", flag.ContinueOnError)
	fs.SetOutput(stderr)
	size := fs.Int("size", 8, "board size (even, 4 to 16) when starting from the initial position")
	board := fs.String("board", "", "start from this position text (N·N characters of X, O, -; also * and .) instead")
	side := fs.String("side", "X", "side to move in -board: X (black) or O (white)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: reversi perft [-size N] [-board B -side X|O] DEPTH")
		fmt.Fprintln(stderr, "Prints one line per depth 1…DEPTH: depth, leaves, leaves per second, time.")
		fmt.Fprintln(stderr, "A pass is a ply; a finished game counts as one leaf at every deeper depth.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "reversi perft: "+format+"\n", a...)
		return 2
	}
	if fs.NArg() != 1 {
		return fail("want exactly one DEPTH argument, got %d (usage: reversi perft [-size N] [-board B -side X|O] DEPTH)", fs.NArg())
	}
	depth, err := strconv.Atoi(fs.Arg(0))
	if err != nil || depth < 1 || depth > 64 {
		return fail("DEPTH %q is not a whole number from 1 to 64", fs.Arg(0))
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })

	var pos engine.Position
	if set["board"] {
		c, err := engine.ParseSide(*side)
		if err != nil {
			return fail("-side: %v", err)
		}
		if pos, err = engine.ParseBoard(*board, c); err != nil {
			return fail("-board: %v", err)
		}
		if set["size"] && *size != pos.Size() {
			return fail("-size %d does not match the %d×%d -board", *size, pos.Size(), pos.Size())
		}
	} else {
		if set["side"] {
			return fail("-side needs -board (the initial position has black to move)")
		}
		if pos, err = engine.Start(*size); err != nil {
			return fail("-size: %v", err)
		}
	}

	total := time.Duration(0)
	for d := 1; d <= depth; d++ {
		start := time.Now()
		n := engine.Perft(pos, d)
		el := time.Since(start)
		total += el
		rate := float64(n) / max(el.Seconds(), 1e-9)
		fmt.Fprintf(stdout, "%d %d %.0f leaves/s %.3fs\n", d, n, rate, el.Seconds())
	}
	fmt.Fprintf(stderr, "perft %d on %d×%d: %.3fs in all\n", depth, pos.Size(), pos.Size(), total.Seconds())
	return 0
}
