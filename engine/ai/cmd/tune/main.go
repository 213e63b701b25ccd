// Command tune refits the evaluation weights of package ai by self-play and writes them as
// JSON, ready to replace engine/ai/weights.json (which the package embeds):
//
//	go run ./engine/ai/cmd/tune > engine/ai/weights.json
//
// With the default flags it reproduces the embedded weights exactly (the run is seeded and
// single-threaded, and searches are bounded by depth, not time).
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
