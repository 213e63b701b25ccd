package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"time"

	"github.com/reversibot/reversi/engine/ai"
)

// runBook implements "tune book": it builds the opening book of a board size (8×8 unless
// -size says otherwise) with the package's own search (ai.GenerateBook) and writes it to -out. With -dir, the raw search results are kept in
// DIR/book-cache.bin (saved every few positions and when stopped), so a run stopped by Ctrl-C
// or killed resumes where it was.
func runBook(args []string) int {
	cfg := ai.DefaultBookGenConfig
	if n := sizeArg(args); n != 8 {
		cfg = ai.DefaultBookGenConfigN(n)
	}
	fs := flag.NewFlagSet("book", flag.ContinueOnError)
	fs.IntVar(&cfg.Size, "size", cfg.Size, "board size (8, or 10, 12, 16 with their own defaults)")
	out := fs.String("out", "", "book file to write (e.g. engine/ai/book8.bin, book16.bin; required)")
	dir := fs.String("dir", "", "directory for the resumable state (keep it outside the repository; empty: none)")
	fs.IntVar(&cfg.Plies, "plies", cfg.Plies, "depth of the book's tree in plies from the start")
	fs.IntVar(&cfg.Depth, "depth", cfg.Depth, "search depth of every position")
	fs.IntVar(&cfg.Full, "full", cfg.Full, "expand every legal move (not only the stored ones) at this many first plies")
	fs.IntVar(&cfg.Margin, "margin", cfg.Margin, "store and expand the moves within this many hundredths of a disc of the best")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *out == "" {
		fmt.Fprintln(os.Stderr, "tune book: -out is required")
		return 2
	}
	if cfg.Size == 8 {
		cfg.Size = 0
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	log := io.Writer(os.Stderr)
	var cache *ai.Book
	cacheName := ""
	if *dir != "" {
		if err := os.MkdirAll(*dir, 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "tune book:", err)
			return 1
		}
		logf, err := os.OpenFile(filepath.Join(*dir, "book-log.txt"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			fmt.Fprintln(os.Stderr, "tune book:", err)
			return 1
		}
		defer logf.Close()
		log = io.MultiWriter(os.Stderr, logf)
		cacheName = filepath.Join(*dir, "book-cache.bin")
		if data, err := os.ReadFile(cacheName); err == nil {
			cache = &ai.Book{}
			if err := cache.UnmarshalBinary(data); err != nil {
				fmt.Fprintln(os.Stderr, "tune book:", cacheName+":", err)
				return 1
			}
			fmt.Fprintf(log, "book: resuming with %d searched positions from %s\n", cache.Len(), cacheName)
		} else if !errors.Is(err, os.ErrNotExist) {
			fmt.Fprintln(os.Stderr, "tune book:", err)
			return 1
		} else {
			cache = &ai.Book{}
		}
	}
	save := func() {
		if cacheName == "" {
			return
		}
		if err := writeAtomic(cacheName, cache); err != nil {
			fmt.Fprintln(log, "book: saving the cache:", err)
		}
	}
	fmt.Fprintf(log, "book: %s plies=%d depth=%d margin=%d full=%d\n", time.Now().UTC().Format(time.RFC3339), cfg.Plies, cfg.Depth, cfg.Margin, cfg.Full)
	start, last := time.Now(), time.Now()
	b, err := ai.GenerateBook(ctx, cfg, cache, func(searched, ply, left int) {
		if time.Since(last) >= 20*time.Second {
			last = time.Now()
			save()
			fmt.Fprintf(log, "book: %d positions searched in %v; ply %d, %d left at this ply\n", searched, time.Since(start).Round(time.Second), ply, left)
		}
	})
	save()
	if err != nil {
		fmt.Fprintln(log, "book: stopped:", err)
		return 1
	}
	if err := writeAtomic(*out, b); err != nil {
		fmt.Fprintln(log, "tune book:", err)
		return 1
	}
	st, _ := os.Stat(*out)
	fmt.Fprintf(log, "book: %d positions (plies 0-%d, depth %d, margin %d, full %d) in %v: wrote %s (%d bytes)\n",
		b.Len(), cfg.Plies, cfg.Depth, cfg.Margin, cfg.Full, time.Since(start).Round(time.Second), *out, st.Size())
	return 0
}

// writeAtomic writes a book to a temporary file and renames it to name.
func writeAtomic(name string, b *ai.Book) error {
	data, err := b.MarshalBinary()
	if err != nil {
		return err
	}
	tmp := name + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, name)
}
