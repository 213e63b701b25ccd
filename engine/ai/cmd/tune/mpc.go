package main

import (
	"context"
	"encoding/gob"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/reversibot/reversi/engine/ai"
)

// mpcState is what "tune mpc -data FILE" keeps between sittings: the configuration, how
// many games were sampled and their samples.
type mpcState struct {
	Cfg     ai.MPCGenConfig
	Games   int
	Samples []ai.MPCSample
}

// runMPC implements "tune mpc": sample shallow and deep search values of positions of
// self-play games and fit the Multi-ProbCut table (engine/ai/SELECTIVE.md).
func runMPC(args []string) int {
	cfg := ai.DefaultMPCGenConfig
	if n := sizeArg(args); n != 8 {
		cfg = ai.DefaultMPCGenConfigN(n)
	}
	fl := flag.NewFlagSet("mpc", flag.ContinueOnError)
	fl.IntVar(&cfg.Size, "size", cfg.Size, "board size (8: the defaults of the 8×8 table; 10, 12, 16: of the large boards')")
	fl.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "random seed of the games")
	fl.IntVar(&cfg.Games, "games", cfg.Games, "self-play games to sample")
	fl.IntVar(&cfg.Every, "every", cfg.Every, "take one position in this many (at random)")
	fl.IntVar(&cfg.Depth, "depth", cfg.Depth, "deepest search of each position (at most the table's depth)")
	data := fl.String("data", "", "file that keeps the samples so a stopped run resumes (outside the repository)")
	out := fl.String("out", "", "write the fitted table as Go source here (engine/ai/mpc_table.go)")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if cfg.Size == 8 {
		cfg.Size = 0
	}
	if cfg.Depth < 3 || cfg.Depth > ai.MPCMaxDepth || cfg.Games < 1 || cfg.Size != 0 && (cfg.Size <= 8 || cfg.Size > 16) {
		fmt.Fprintln(os.Stderr, "tune mpc: bad -depth, -games or -size")
		return 2
	}
	st := mpcState{Cfg: cfg}
	if *data != "" {
		f, err := os.Open(*data)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			fmt.Fprintln(os.Stderr, "tune mpc:", err)
			return 1
		default:
			var old mpcState
			err := gob.NewDecoder(f).Decode(&old)
			f.Close()
			if err != nil {
				fmt.Fprintln(os.Stderr, "tune mpc: reading", *data+":", err)
				return 1
			}
			want := cfg
			want.Games = old.Cfg.Games
			if old.Cfg != want {
				fmt.Fprintln(os.Stderr, "tune mpc:", *data, "holds samples of another configuration")
				return 1
			}
			st.Games, st.Samples = min(old.Games, cfg.Games), old.Samples
		}
	}
	save := func() error {
		if *data == "" {
			return nil
		}
		tmp := *data + ".tmp"
		f, err := os.Create(tmp)
		if err != nil {
			return err
		}
		if err := gob.NewEncoder(f).Encode(st); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
		return os.Rename(tmp, *data)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	for g := st.Games; g < cfg.Games; g++ {
		s, err := ai.MPCGame(ctx, cfg, g)
		if err != nil {
			fmt.Fprintf(os.Stderr, "tune mpc: stopped at game %d: %v\n", g, err)
			if err := save(); err != nil {
				fmt.Fprintln(os.Stderr, "tune mpc:", err)
			}
			return 1
		}
		st.Samples = append(st.Samples, s...)
		st.Games = g + 1
		if st.Games%10 == 0 || st.Games == cfg.Games {
			if err := save(); err != nil {
				fmt.Fprintln(os.Stderr, "tune mpc:", err)
				return 1
			}
			fmt.Fprintf(os.Stderr, "mpc: %d games, %d positions, %v\n", st.Games, len(st.Samples), time.Since(start).Round(time.Second))
		}
	}
	n := max(cfg.Size, 8)
	t := ai.FitMPC(n, st.Samples)
	sizeFlag := ""
	if n != 8 {
		sizeFlag = fmt.Sprintf(" -size %d", n)
	}
	note := fmt.Sprintf("tune mpc%s -seed %d -games %d -every %d -depth %d: %d positions", sizeFlag, cfg.Seed, cfg.Games, cfg.Every, cfg.Depth, len(st.Samples))
	src := t.GoSource(n, note)
	if *out == "" {
		os.Stdout.Write(src)
		return 0
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "tune mpc:", err)
		return 1
	}
	fmt.Fprintf(os.Stderr, "mpc: %s: wrote %s\n", note, *out)
	return 0
}

// sizeArg returns the value of a -size flag among args (8 when there is none or it does not
// parse), so that the other flags' defaults can be the ones of that size.
func sizeArg(args []string) int {
	for i, a := range args {
		a = strings.TrimLeft(a, "-")
		v, ok := strings.CutPrefix(a, "size=")
		if !ok && a == "size" && i+1 < len(args) {
			v, ok = args[i+1], true
		}
		if n, err := strconv.Atoi(v); ok && err == nil {
			return n
		}
	}
	return 8
}
