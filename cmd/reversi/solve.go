package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/engine/ai"
)

func init() {
	commands["solve"] = command{summary: "solve positions exactly: best move and final disc difference", run: runSolve}
}

// runSolve implements "reversi solve [-time D] [-v] [FILE]": one output line per position,
// starting with the best move and the exact final disc difference for the side to move (empty
// squares to the winner). A position whose game is over prints "end" and its final score.
func runSolve(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("solve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	limit := fs.Duration("time", 0, "give up on a position after this long (0: no limit)")
	verbose := fs.Bool("v", false, "also print nodes, wall time, CPU time and the principal variation")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: reversi solve [-time D] [-v] [FILE]\n"+
			"Reads positions, one per line (BOARD SIDE, anything after is ignored; blank lines and lines\n"+
			"starting with # are skipped), from FILE or standard input, and prints for each the best move\n"+
			"and the exact final disc difference for the side to move (empty squares to the winner).")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	in := stdin
	switch fs.NArg() {
	case 0:
	case 1:
		f, err := os.Open(fs.Arg(0))
		if err != nil {
			fmt.Fprintln(stderr, "reversi solve:", err)
			return 1
		}
		defer f.Close()
		in = f
	default:
		fs.Usage()
		return 2
	}
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	code := 0
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		p, err := engine.ParsePosition(text)
		if err != nil {
			fmt.Fprintf(stderr, "reversi solve: line %d: %v\n", line, err)
			code = 1
			continue
		}
		if p.GameOver() {
			fmt.Fprintf(out, "end %+d\n", p.FinalScore())
			out.Flush()
			continue
		}
		ctx, cancel := context.Background(), context.CancelFunc(func() {})
		if *limit > 0 {
			ctx, cancel = context.WithTimeout(ctx, *limit)
		}
		cpu0 := cpuTime()
		start := time.Now()
		r, err := ai.SolveStats(ctx, p)
		wall, cpu := time.Since(start), cpuTime()-cpu0
		cancel()
		if err != nil {
			if errors.Is(err, context.DeadlineExceeded) {
				err = fmt.Errorf("not solved within %v", *limit)
			}
			fmt.Fprintf(stderr, "reversi solve: line %d: %v\n", line, err)
			code = 1
			continue
		}
		fmt.Fprintf(out, "%v %+d", r.Move, r.Score/100)
		if *verbose {
			fmt.Fprintf(out, "  nodes %d  time %.2fs  cpu %.2fs  %.1f Mn/s  pv %s", r.Nodes, wall.Seconds(),
				cpu.Seconds(), float64(r.Nodes)/wall.Seconds()/1e6, pvText(r.PV))
		}
		fmt.Fprintln(out)
		out.Flush()
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(stderr, "reversi solve:", err)
		return 1
	}
	return code
}

// pvText writes a line of play as "a2 b1 pass c1".
func pvText(pv []engine.Square) string {
	parts := make([]string, len(pv))
	for i, m := range pv {
		parts[i] = m.String()
	}
	return strings.Join(parts, " ")
}
