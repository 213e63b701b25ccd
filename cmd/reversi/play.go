package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/engine/ai"
)

func init() {
	commands["play"] = command{summary: "play against the AI in the terminal", run: runPlay}
}

// runPlay implements "reversi play [-size N] [-level L] [-color black|white] [-seed S]".
func runPlay(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	fs.SetOutput(stderr)
	size := fs.Int("size", 8, "board size (even, 4 to 16)")
	level := fs.Int("level", 3, "AI level, 1 (beginner) to 6 (master)")
	color := fs.String("color", "black", "your colour: black (moves first) or white")
	seed := fs.Uint64("seed", 0, "random seed of the AI's choices (0: from the clock)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: reversi play [-size N] [-level L] [-color black|white] [-seed S]\n"+
			"Type a move (d3), \"hint\", \"undo\" or \"quit\".")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	lvl := ai.Level(*level)
	if !lvl.Valid() || !engine.ValidSize(*size) {
		fmt.Fprintln(stderr, "reversi play: bad -level or -size")
		return 2
	}
	human, err := engine.ParseSide(*color)
	if err != nil {
		fmt.Fprintln(stderr, "reversi play: bad -color")
		return 2
	}
	s := *seed
	if s == 0 {
		s = uint64(time.Now().UnixNano())
	}
	bot := ai.NewPlayer(s)
	g := engine.NewGameFrom(engine.MustStart(*size))
	in := bufio.NewScanner(stdin)
	for !g.Over() {
		p := g.Position()
		printBoard(stdout, p)
		if !p.HasMoves() {
			fmt.Fprintf(stdout, "%v must pass.\n", p.Side())
			g.Play(engine.Pass)
			continue
		}
		if p.Side() != human {
			m, err := bot.Move(context.Background(), p, int(lvl))
			if err != nil {
				fmt.Fprintln(stderr, "reversi play:", err)
				return 1
			}
			fmt.Fprintf(stdout, "AI (%v) plays %v\n", lvl, m)
			g.Play(m)
			continue
		}
		fmt.Fprintf(stdout, "your move (%v): ", p.Side())
		if !in.Scan() {
			fmt.Fprintln(stdout)
			return 0
		}
		cmd := strings.ToLower(strings.TrimSpace(in.Text()))
		switch cmd {
		case "", "board":
			continue
		case "quit", "q", "exit":
			return 0
		case "hint":
			m, err := bot.Hint(context.Background(), p)
			if err == nil {
				fmt.Fprintf(stdout, "hint: %v\n", m)
			}
			continue
		case "undo":
			// Take back the AI's reply and the player's move.
			for g.Len() > 0 {
				g.Undo()
				if q := g.Position(); q.Side() == human && q.HasMoves() {
					break
				}
			}
			continue
		}
		sq, err := engine.ParseSquare(cmd)
		if err == nil {
			_, err = g.Play(sq)
		}
		if err != nil {
			fmt.Fprintf(stdout, "%v\n", err)
		}
	}
	p := g.Position()
	printBoard(stdout, p)
	b, w := p.Count(engine.Black), p.Count(engine.White)
	fmt.Fprintf(stdout, "game over: black %d, white %d: %v\n", b, w, engine.OutcomeOf(b, w))
	return 0
}

// printBoard draws p with coordinates; '*' marks the legal moves of the side to move.
func printBoard(w io.Writer, p engine.Position) {
	n := p.Size()
	moves := p.Moves()
	var sb strings.Builder
	sb.WriteString("   ")
	for c := 0; c < n; c++ {
		sb.WriteByte(' ')
		sb.WriteByte(byte('a' + c))
	}
	sb.WriteByte('\n')
	for r := 0; r < n; r++ {
		fmt.Fprintf(&sb, "%2d ", r+1)
		for c := 0; c < n; c++ {
			sq := engine.SquareAt(c, r)
			ch := byte('.')
			if col, ok := p.At(sq); ok {
				ch = col.Symbol()
			} else if moves.Has(sq) {
				ch = '*'
			}
			sb.WriteByte(' ')
			sb.WriteByte(ch)
		}
		sb.WriteByte('\n')
	}
	fmt.Fprintf(&sb, "black (X) %d, white (O) %d, %v to move\n", p.Count(engine.Black), p.Count(engine.White), p.Side())
	io.WriteString(w, sb.String())
}
