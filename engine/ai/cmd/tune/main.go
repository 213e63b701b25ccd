// Command tune trains the evaluations of package ai by self-play.
//
// Without a subcommand it refits the linear evaluation and writes it as JSON, ready to replace
// engine/ai/weights.json (which the package embeds):
//
//	go run ./engine/ai/cmd/tune > engine/ai/weights.json
//
// With the default flags it reproduces the embedded weights exactly (the run is seeded and
// single-threaded, and searches are bounded by depth, not time).
//
// The 8×8 pattern evaluation is trained in two steps that keep their state in a directory
// outside the repository (see engine/ai/PATTERNS.md):
//
//	tune gen -dir D -chunks N   # play and label self-play games, one file per chunk
//	tune fit -dir D -out engine/ai/patterns8.bin
//
// gen skips the chunks already in D, so it can be stopped and resumed; each chunk is a
// function of the seed and its number only. With -size 10, 12 or 16 both steps train the
// large-board patterns of that size instead (engine/ai/patterns16.bin, ...):
//
//	tune gen -size 16 -dir D -chunks N
//	tune fit -size 16 -dir D -out engine/ai/patterns16.bin
//
// The 8×8 opening book is built by the package's own search (see engine/ai/BOOK.md):
//
//	tune book -dir D -out engine/ai/book8.bin
//
// The Multi-ProbCut table of level 6's selective search is fitted from shallow and deep
// search values of self-play positions (see engine/ai/SELECTIVE.md):
//
//	tune mpc -data FILE -out engine/ai/mpc_table.go
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/reversibot/reversi/engine/ai"
)

func main() {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case "gen":
			os.Exit(runGen(os.Args[2:]))
		case "fit":
			os.Exit(runFit(os.Args[2:]))
		case "book":
			os.Exit(runBook(os.Args[2:]))
		case "mpc":
			os.Exit(runMPC(os.Args[2:]))
		}
	}
	cfg := ai.DefaultTuneConfig
	sizes := flag.String("sizes", "", "comma-separated board sizes (default: 4,6,8,10,12,16)")
	flag.IntVar(&cfg.Games, "games", cfg.Games, "self-play games per round on 8×8 (larger boards play fewer)")
	flag.IntVar(&cfg.Rounds, "rounds", cfg.Rounds, "rounds of play-then-fit")
	flag.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "random seed")
	flag.Parse()
	if *sizes != "" {
		for _, f := range strings.Split(*sizes, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil {
				fmt.Fprintln(os.Stderr, "tune: bad -sizes:", err)
				os.Exit(2)
			}
			cfg.Sizes = append(cfg.Sizes, n)
		}
	}
	w, err := ai.Tune(context.Background(), cfg, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "tune:", err)
		os.Exit(1)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	if err := enc.Encode(w); err != nil {
		fmt.Fprintln(os.Stderr, "tune:", err)
		os.Exit(1)
	}
}
