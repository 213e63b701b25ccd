package main

import (
	"bufio"
	"context"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/engine/ai"
)

// A large-board chunk file holds the labelled positions of a run of games on one size:
// chunkNMagic, the board size, the number of games and of samples (uint32 each), then per
// sample the four words of P, the four of O (uint64) and Score (int16), all little-endian.
const chunkNMagic = "RVSN\x01"

const chunkNRecord = 8*8 + 2

// writeChunkN writes a large-board chunk atomically: to a temporary file, then renamed.
func writeChunkN(name string, size, games int, samples []ai.PatternSampleN) error {
	tmp := name + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	w.WriteString(chunkNMagic)
	binary.Write(w, binary.LittleEndian, [3]uint32{uint32(size), uint32(games), uint32(len(samples))})
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

// readChunkN reads a large-board chunk and returns its board size, number of games and
// samples.
func readChunkN(name string) (size, games int, samples []ai.PatternSampleN, err error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return 0, 0, nil, err
	}
	if len(data) < len(chunkNMagic)+12 || string(data[:len(chunkNMagic)]) != chunkNMagic {
		return 0, 0, nil, fmt.Errorf("%w: %s", errChunk, name)
	}
	data = data[len(chunkNMagic):]
	sz, g, n := binary.LittleEndian.Uint32(data), binary.LittleEndian.Uint32(data[4:]), binary.LittleEndian.Uint32(data[8:])
	data = data[12:]
	if uint64(len(data)) != uint64(n)*chunkNRecord || !engine.ValidSize(int(min(sz, 100))) {
		return 0, 0, nil, fmt.Errorf("%w: %s: %d bytes for %d samples of size %d", errChunk, name, len(data), n, sz)
	}
	out := make([]ai.PatternSampleN, n)
	for i := range out {
		b := data[i*chunkNRecord:]
		for w := 0; w < 4; w++ {
			out[i].P[w] = binary.LittleEndian.Uint64(b[8*w:])
			out[i].O[w] = binary.LittleEndian.Uint64(b[32+8*w:])
		}
		out[i].Score = int16(binary.LittleEndian.Uint16(b[64:]))
	}
	return int(sz), int(g), out, nil
}

// runGenN is "tune gen -size N" for a large board: the flags set on the command line
// override the size's defaults (ai.DefaultPatternGenConfigN).
func runGenN(fs *flag.FlagSet, size int, dir string, chunks, games int, evalName, weights string) int {
	cfg := ai.DefaultPatternGenConfigN(size)
	fs.Visit(func(f *flag.Flag) {
		var err error
		switch f.Name {
		case "seed":
			_, err = fmt.Sscan(f.Value.String(), &cfg.Seed)
		case "depth":
			_, err = fmt.Sscan(f.Value.String(), &cfg.LabelDepth)
		case "exact":
			_, err = fmt.Sscan(f.Value.String(), &cfg.ExactEmpties)
		case "outcome":
			_, err = fmt.Sscan(f.Value.String(), &cfg.OutcomeShare)
		case "eval":
			cfg.Eval, err = ai.ParseEval(evalName)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "tune gen:", err)
			os.Exit(2)
		}
	})
	if weights != "" {
		data, err := os.ReadFile(weights)
		if err != nil {
			fmt.Fprintln(os.Stderr, "tune gen:", err)
			return 1
		}
		cfg.Weights = &ai.PatternWeightsN{}
		if err := cfg.Weights.UnmarshalBinary(data); err != nil {
			fmt.Fprintln(os.Stderr, "tune gen:", err)
			return 1
		}
		cfg.Eval = ai.EvalPattern
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "tune gen:", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	logf, err := os.OpenFile(filepath.Join(dir, "log.txt"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, "tune gen:", err)
		return 1
	}
	defer logf.Close()
	log := io.MultiWriter(os.Stderr, logf)
	fmt.Fprintf(log, "gen: %s size=%d seed=%d depth=%d exact=%d outcome=%.2f eval=%v weights=%q games/chunk=%d\n",
		time.Now().UTC().Format(time.RFC3339), size, cfg.Seed, cfg.LabelDepth, cfg.ExactEmpties, cfg.OutcomeShare, cfg.Eval, weights, games)
	for c := 0; c < chunks; c++ {
		name := chunkName(dir, c)
		if _, err := os.Stat(name); err == nil {
			continue
		}
		start := time.Now()
		var samples []ai.PatternSampleN
		for g := c * games; g < (c+1)*games; g++ {
			s, err := ai.PatternGameN(ctx, cfg, g)
			if err != nil {
				fmt.Fprintln(log, "gen: stopped:", err)
				return 1
			}
			samples = append(samples, s...)
		}
		if err := writeChunkN(name, size, games, samples); err != nil {
			fmt.Fprintln(log, "gen:", err)
			return 1
		}
		fmt.Fprintf(log, "gen: chunk %d: %d games, %d positions in %v\n", c, games, len(samples), time.Since(start).Round(time.Millisecond))
	}
	return 0
}

// runFitN is "tune fit -size N" for a large board.
func runFitN(size int, dirs, out string, holdout int, cfg ai.PatternFitConfig) int {
	var names []string
	for _, d := range strings.Split(dirs, ",") {
		n, err := filepath.Glob(filepath.Join(d, "chunk-*.bin"))
		if err != nil || len(n) == 0 {
			fmt.Fprintln(os.Stderr, "tune fit: no chunks in", d)
			return 1
		}
		sort.Strings(n)
		names = append(names, n...)
	}
	if holdout >= len(names) {
		holdout = 0
	}
	var train, test []ai.PatternSampleN
	games := 0
	for i, name := range names {
		sz, g, s, err := readChunkN(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, "tune fit:", err)
			return 1
		}
		if sz != size {
			fmt.Fprintf(os.Stderr, "tune fit: %s holds %d×%d games, not %d×%d\n", name, sz, sz, size, size)
			return 1
		}
		if i >= len(names)-holdout {
			test = append(test, s...)
			continue
		}
		games += g
		train = append(train, s...)
	}
	start := time.Now()
	w, rms, err := ai.FitPatternsN(context.Background(), size, train, cfg, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "tune fit:", err)
		return 1
	}
	fmt.Fprintf(os.Stderr, "fit: %d×%d: %d games, %d positions (%d chunks), lambda %g, %d iterations in %v: rms %.3f discs on them, %.3f on %d held-out positions\n",
		size, size, games, len(train), len(names)-holdout, cfg.Lambda, cfg.Iterations, time.Since(start).Round(time.Millisecond),
		rms, ai.PatternRMSN(w, test), len(test))
	if lin, err := ai.LinearRMSN(size, test); err == nil && len(test) > 0 {
		fmt.Fprintf(os.Stderr, "fit: the linear evaluation's rms on the held-out positions: %.3f discs\n", lin)
	}
	if out == "" {
		return 0
	}
	data, err := w.MarshalBinary()
	if err == nil {
		err = os.WriteFile(out, data, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "tune fit:", err)
		return 1
	}
	fmt.Fprintf(os.Stderr, "fit: wrote %s (%d bytes)\n", out, len(data))
	return 0
}
