package main

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/reversibot/reversi/engine/ai"
)

// A chunk file holds the labelled positions of a run of games: chunkMagic, the number of
// games and of samples (uint32 each), then per sample P, O (uint64) and Score (int16), all
// little-endian.
const chunkMagic = "RVPS\x01"

var errChunk = errors.New("tune: bad chunk file")

func chunkName(dir string, c int) string { return filepath.Join(dir, fmt.Sprintf("chunk-%05d.bin", c)) }

// writeChunk writes a chunk atomically: to a temporary file, then renamed.
func writeChunk(name string, games int, samples []ai.PatternSample) error {
	tmp := name + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	w.WriteString(chunkMagic)
	binary.Write(w, binary.LittleEndian, [2]uint32{uint32(games), uint32(len(samples))})
	for _, s := range samples {
		binary.Write(w, binary.LittleEndian, s)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, name)
}

// readChunk reads a chunk file and returns its number of games and its samples.
func readChunk(name string) (int, []ai.PatternSample, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return 0, nil, err
	}
	const rec = 18
	if len(data) < len(chunkMagic)+8 || string(data[:len(chunkMagic)]) != chunkMagic {
		return 0, nil, fmt.Errorf("%w: %s", errChunk, name)
	}
	data = data[len(chunkMagic):]
	games, n := binary.LittleEndian.Uint32(data), binary.LittleEndian.Uint32(data[4:])
	data = data[8:]
	if uint64(len(data)) != uint64(n)*rec {
		return 0, nil, fmt.Errorf("%w: %s: %d bytes for %d samples", errChunk, name, len(data), n)
	}
	out := make([]ai.PatternSample, n)
	for i := range out {
		b := data[i*rec:]
		out[i] = ai.PatternSample{P: binary.LittleEndian.Uint64(b), O: binary.LittleEndian.Uint64(b[8:]),
			Score: int16(binary.LittleEndian.Uint16(b[16:]))}
	}
	return int(games), out, nil
}

// runGen implements "tune gen".
func runGen(args []string) int {
	cfg := ai.DefaultPatternGenConfig
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	dir := fs.String("dir", "", "directory of the training state (required; keep it outside the repository)")
	chunks := fs.Int("chunks", 10, "chunks to have in -dir when done")
	games := fs.Int("games", 100, "games per chunk")
	evalName := fs.String("eval", cfg.Eval.String(), "evaluation that plays and labels the games: linear or pattern (the embedded weights)")
	weights := fs.String("weights", "", "pattern weights file to play and label with instead of the embedded ones")
	fs.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "random seed")
	fs.IntVar(&cfg.LabelDepth, "depth", cfg.LabelDepth, "depth of the labelling search")
	fs.IntVar(&cfg.ExactEmpties, "exact", cfg.ExactEmpties, "label positions with at most this many empty squares by an exact solve")
	fs.Float64Var(&cfg.OutcomeShare, "outcome", cfg.OutcomeShare, "share of the game's outcome in the target of a search-labelled position")
	size := fs.Int("size", 8, "board size (10, 12, 16: the large-board patterns, with their own defaults for -depth, -exact and -seed)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *dir == "" || *games < 1 {
		fmt.Fprintln(os.Stderr, "tune gen: -dir is required and -games must be positive")
		return 2
	}
	if *size != 8 {
		return runGenN(fs, *size, *dir, *chunks, *games, *evalName, *weights)
	}
	ev, err := ai.ParseEval(*evalName)
	if err != nil {
		fmt.Fprintln(os.Stderr, "tune gen:", err)
		return 2
	}
	cfg.Eval = ev
	if *weights != "" {
		data, err := os.ReadFile(*weights)
		if err != nil {
			fmt.Fprintln(os.Stderr, "tune gen:", err)
			return 1
		}
		cfg.Weights = &ai.PatternWeights8{}
		if err := cfg.Weights.UnmarshalBinary(data); err != nil {
			fmt.Fprintln(os.Stderr, "tune gen:", err)
			return 1
		}
		cfg.Eval = ai.EvalPattern
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "tune gen:", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	logf, err := os.OpenFile(filepath.Join(*dir, "log.txt"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, "tune gen:", err)
		return 1
	}
	defer logf.Close()
	log := io.MultiWriter(os.Stderr, logf)
	fmt.Fprintf(log, "gen: %s seed=%d depth=%d exact=%d outcome=%.2f eval=%v weights=%q games/chunk=%d\n",
		time.Now().UTC().Format(time.RFC3339), cfg.Seed, cfg.LabelDepth, cfg.ExactEmpties, cfg.OutcomeShare, cfg.Eval, *weights, *games)
	for c := 0; c < *chunks; c++ {
		name := chunkName(*dir, c)
		if _, err := os.Stat(name); err == nil {
			continue
		}
		start := time.Now()
		var samples []ai.PatternSample
		for g := c * *games; g < (c+1)**games; g++ {
			s, err := ai.PatternGame(ctx, cfg, g)
			if err != nil {
				fmt.Fprintln(log, "gen: stopped:", err)
				return 1
			}
			samples = append(samples, s...)
		}
		if err := writeChunk(name, *games, samples); err != nil {
			fmt.Fprintln(log, "gen:", err)
			return 1
		}
		fmt.Fprintf(log, "gen: chunk %d: %d games, %d positions in %v\n", c, *games, len(samples), time.Since(start).Round(time.Millisecond))
	}
	return 0
}

// runFit implements "tune fit".
func runFit(args []string) int {
	cfg := ai.DefaultPatternFitConfig
	fs := flag.NewFlagSet("fit", flag.ContinueOnError)
	dir := fs.String("dir", "", "directories of the training state, comma-separated (required)")
	out := fs.String("out", "", "weights file to write (e.g. engine/ai/patterns8.bin); empty: fit and report only")
	holdout := fs.Int("holdout", 1, "chunks (the last ones of the last directory) kept out of the fit to measure its error on unseen games")
	fs.IntVar(&cfg.Iterations, "iters", cfg.Iterations, "conjugate-gradient iterations")
	fs.Float64Var(&cfg.Lambda, "lambda", cfg.Lambda, "regularisation (in samples' worth)")
	size := fs.Int("size", 8, "board size of the chunks (10, 12, 16: the large-board patterns)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "tune fit: -dir is required")
		return 2
	}
	if *size != 8 {
		return runFitN(*size, *dir, *out, *holdout, cfg)
	}
	var names []string
	for _, d := range strings.Split(*dir, ",") {
		n, err := filepath.Glob(filepath.Join(d, "chunk-*.bin"))
		if err != nil || len(n) == 0 {
			fmt.Fprintln(os.Stderr, "tune fit: no chunks in", d)
			return 1
		}
		sort.Strings(n)
		names = append(names, n...)
	}
	if *holdout >= len(names) {
		*holdout = 0
	}
	var train, test []ai.PatternSample
	games := 0
	for i, name := range names {
		g, s, err := readChunk(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, "tune fit:", err)
			return 1
		}
		if i >= len(names)-*holdout {
			test = append(test, s...)
			continue
		}
		games += g
		train = append(train, s...)
	}
	start := time.Now()
	w, rms, err := ai.FitPatterns8(context.Background(), train, cfg, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "tune fit:", err)
		return 1
	}
	fmt.Fprintf(os.Stderr, "fit: %d games, %d positions (%d chunks), lambda %g, %d iterations in %v: rms %.3f discs on them, %.3f on %d held-out positions\n",
		games, len(train), len(names)-*holdout, cfg.Lambda, cfg.Iterations, time.Since(start).Round(time.Millisecond),
		rms, ai.PatternRMS(w, test), len(test))
	if lin, err := ai.LinearRMS8(test); err == nil && len(test) > 0 {
		fmt.Fprintf(os.Stderr, "fit: the linear evaluation's rms on the held-out positions: %.3f discs\n", lin)
	}
	if emb, err := ai.DefaultPatternWeights8(); err == nil && len(test) > 0 {
		fmt.Fprintf(os.Stderr, "fit: the embedded pattern weights' rms on the held-out positions: %.3f discs\n", ai.PatternRMS(emb, test))
	}
	if *out == "" {
		return 0
	}
	data, err := w.MarshalBinary()
	if err == nil {
		err = os.WriteFile(*out, data, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "tune fit:", err)
		return 1
	}
	fmt.Fprintf(os.Stderr, "fit: wrote %s (%d bytes)\n", *out, len(data))
	return 0
}
