package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/reversibot/reversi/engine"
	"github.com/reversibot/reversi/engine/ai"
)

func init() {
	commands["nboard"] = command{summary: "speak the NBoard protocol on stdin/stdout", run: runNBoard}
}

// runNBoard implements "reversi nboard [-level L | -movetime D]".
func runNBoard(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("nboard", flag.ContinueOnError)
	fs.SetOutput(stderr)
	level := fs.Int("level", 0, "play at this level (1-6) instead of by time")
	movetime := fs.Duration("movetime", time.Second, "time per move when no -level is given")
	seed := fs.Uint64("seed", 0, "random seed of the level's choices (0: from the clock)")
	book := fs.Bool("book", true, "with -level 5 or 6, play the 8×8 opening book's moves")
	mpc := fs.Bool("mpc", true, "with -level 6, search selectively (Multi-ProbCut)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: reversi nboard [-level L [-book=false] [-mpc=false] | -movetime D]\n"+
			"Speaks the NBoard protocol (version 2) on standard input and output.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *level != 0 && !ai.Level(*level).Valid() {
		fmt.Fprintln(stderr, "reversi nboard: -level must be 1 to 6")
		return 2
	}
	// Decode the weights and books before the first "go", whose time a GUI counts.
	if err := ai.Preload(); err != nil {
		fmt.Fprintln(stderr, "reversi nboard:", err)
		return 1
	}
	s := *seed
	if s == 0 {
		s = uint64(time.Now().UnixNano())
	}
	e := &nboardEngine{
		out:      bufio.NewWriter(stdout),
		log:      stderr,
		level:    ai.Level(*level),
		noBook:   !*book,
		noMPC:    !*mpc,
		movetime: *movetime,
		rng:      rand.New(rand.NewPCG(s, s>>1|1)),
		game:     engine.NewGameFrom(engine.MustStart(8)),
	}
	if err := e.serve(stdin); err != nil {
		fmt.Fprintln(stderr, "reversi nboard:", err)
		return 1
	}
	return 0
}

// nboardEngine holds the state of an NBoard session.
type nboardEngine struct {
	out      *bufio.Writer
	log      io.Writer
	level    ai.Level
	noBook   bool // the level plays without the opening book
	noMPC    bool // the level searches without Multi-ProbCut
	movetime time.Duration
	depth    int
	rng      *rand.Rand
	game     *engine.Game
}

// serve answers commands until the input ends or "quit".
func (e *nboardEngine) serve(in io.Reader) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		if quit := e.command(strings.TrimSpace(sc.Text())); quit {
			break
		}
		if err := e.out.Flush(); err != nil {
			return err
		}
	}
	if err := e.out.Flush(); err != nil {
		return err
	}
	return sc.Err()
}

func (e *nboardEngine) printf(format string, a ...any) { fmt.Fprintf(e.out, format+"\n", a...) }

// command runs one line; it reports whether the session should end.
func (e *nboardEngine) command(line string) bool {
	verb, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	switch verb {
	case "nboard":
		e.printf("set myname reversibot")
	case "set":
		e.set(rest)
	case "move":
		m := rest
		if i := strings.IndexByte(m, '/'); i >= 0 {
			m = m[:i]
		}
		if err := playGGFMove(e.game, strings.TrimSpace(m), -1); err != nil {
			fmt.Fprintf(e.log, "nboard: move %q: %v\n", rest, err)
		}
	case "go":
		e.goMove()
	case "hint":
		e.hint()
	case "ping":
		e.printf("pong %s", rest)
	case "learn":
		e.printf("learned")
	case "quit":
		return true
	}
	return false
}

func (e *nboardEngine) set(rest string) {
	key, val, _ := strings.Cut(rest, " ")
	switch key {
	case "depth":
		if d, err := strconv.Atoi(strings.TrimSpace(val)); err == nil && d > 0 {
			e.depth = d
		}
	case "game":
		g, err := ParseGGF(val)
		if err != nil {
			fmt.Fprintf(e.log, "nboard: set game: %v\n", err)
			return
		}
		e.game = g
	}
}

// search runs the engine on the current position.
func (e *nboardEngine) search() (ai.Result, error) {
	p := e.game.Position()
	if e.level != 0 {
		return ai.ChooseWith(context.Background(), p, e.level, e.rng, ai.Options{NoBook: e.noBook, NoMPC: e.noMPC})
	}
	return ai.Search(context.Background(), p, ai.Limits{Depth: e.depth, Time: e.movetime})
}

func (e *nboardEngine) goMove() {
	p := e.game.Position()
	e.printf("status thinking")
	if p.GameOver() {
		e.printf("status game over")
		return
	}
	start := time.Now()
	r, err := e.search()
	if err != nil {
		e.printf("status %v", err)
		return
	}
	el := time.Since(start).Seconds()
	if r.Nodes > 0 {
		e.printf("nodestats %d %.2f", r.Nodes, el)
	}
	e.printf("=== %s %.2f %.1f", ggfMove(r.Move), float64(r.Score)/100, el)
	e.printf("status")
}

func (e *nboardEngine) hint() {
	p := e.game.Position()
	e.printf("status thinking")
	if !p.GameOver() {
		r, err := ai.Search(context.Background(), p, ai.Limits{Depth: e.depth, Time: e.movetime})
		if err == nil {
			depth := strconv.Itoa(r.Depth)
			if r.Exact {
				depth = "100%"
			}
			e.printf("search %s %.2f 0 %s", ggfMove(r.Move), float64(r.Score)/100, depth)
		}
	}
	e.printf("status")
}

// ggfMove writes a move as NBoard expects: "D3" style, or "PA" for a pass.
func ggfMove(m engine.Square) string {
	if m == engine.Pass {
		return "PA"
	}
	return strings.ToUpper(m.String())
}

// ErrGGF is returned for a game record that ParseGGF cannot read.
var ErrGGF = errors.New("ggf: bad game record")

// ParseGGF reads a GGF game record as NBoard sends it, such as
// "(;GM[Othello]TY[8]BO[8 ---...--- *]B[F5]W[F6/0.5/1.2];)", and returns the game from its
// starting board through its moves. Boards of any supported size are accepted. Move values may
// carry "/eval/time" suffixes, and "PA" is a pass; a pass the record leaves out is inserted.
func ParseGGF(text string) (*engine.Game, error) {
	text = strings.TrimSpace(text)
	start := strings.Index(text, "(;")
	if start < 0 {
		return nil, fmt.Errorf("%w: no \"(;\"", ErrGGF)
	}
	text = text[start+2:]
	var g *engine.Game
	type mv struct {
		val  string
		side engine.Color
	}
	var moves []mv
	for {
		text = strings.TrimLeft(text, " \t\r\n")
		if text == "" || strings.HasPrefix(text, ";)") || strings.HasPrefix(text, ")") {
			break
		}
		i := 0
		for i < len(text) && text[i] >= 'A' && text[i] <= 'Z' {
			i++
		}
		if i == 0 || i >= len(text) || text[i] != '[' {
			return nil, fmt.Errorf("%w: expected TAG[value] at %q", ErrGGF, clip(text))
		}
		tag := text[:i]
		end := strings.IndexByte(text[i:], ']')
		if end < 0 {
			return nil, fmt.Errorf("%w: unterminated %s[", ErrGGF, tag)
		}
		val := text[i+1 : i+end]
		text = text[i+end+1:]
		switch tag {
		case "BO":
			p, err := parseGGFBoard(val)
			if err != nil {
				return nil, err
			}
			g = engine.NewGameFrom(p)
		case "B":
			moves = append(moves, mv{val, engine.Black})
		case "W":
			moves = append(moves, mv{val, engine.White})
		}
	}
	if g == nil {
		return nil, fmt.Errorf("%w: no board (BO tag)", ErrGGF)
	}
	for i, m := range moves {
		v := m.val
		if j := strings.IndexByte(v, '/'); j >= 0 {
			v = v[:j]
		}
		if err := playGGFMove(g, strings.TrimSpace(v), m.side); err != nil {
			return nil, fmt.Errorf("%w: move %d (%s): %v", ErrGGF, i+1, m.val, err)
		}
	}
	return g, nil
}

func clip(s string) string {
	if len(s) > 20 {
		return s[:20] + "…"
	}
	return s
}

// parseGGFBoard reads the value of a BO tag: "8 <board> <side>", the board possibly split by
// spaces, '*' or 'X' black, 'O' white, '-' or '.' empty, side '*' (black) or 'O' (white).
func parseGGFBoard(val string) (engine.Position, error) {
	f := strings.Fields(val)
	if len(f) < 3 {
		return engine.Position{}, fmt.Errorf("%w: board %q", ErrGGF, clip(val))
	}
	n, err := strconv.Atoi(f[0])
	if err != nil || !engine.ValidSize(n) {
		return engine.Position{}, fmt.Errorf("%w: board size %q", ErrGGF, f[0])
	}
	board := strings.Join(f[1:len(f)-1], "")
	if len(board) != n*n {
		return engine.Position{}, fmt.Errorf("%w: board of %d squares, want %d", ErrGGF, len(board), n*n)
	}
	side, err := engine.ParseSide(f[len(f)-1])
	if err != nil {
		return engine.Position{}, fmt.Errorf("%w: side %q", ErrGGF, f[len(f)-1])
	}
	p, err := engine.ParseBoard(board, side)
	if err != nil {
		return engine.Position{}, fmt.Errorf("%w: %v", ErrGGF, err)
	}
	return p, nil
}

// playGGFMove plays a move written as in GGF ("F5", "PA") for side (or for the side to move
// when side is −1), inserting a pass when the record leaves one out.
func playGGFMove(g *engine.Game, text string, side engine.Color) error {
	var sq engine.Square
	if strings.EqualFold(text, "PA") || strings.EqualFold(text, "pass") {
		sq = engine.Pass
	} else {
		var err error
		if sq, err = engine.ParseSquare(text); err != nil {
			return err
		}
	}
	p := g.Position()
	if side >= 0 && side != p.Side() && sq != engine.Pass && p.MustPass() {
		if _, err := g.Play(engine.Pass); err != nil {
			return err
		}
	}
	if side >= 0 && sq == engine.Pass && side != g.Position().Side() {
		return nil // a pass by the side not to move: already implied
	}
	if side >= 0 && side != g.Position().Side() {
		return fmt.Errorf("%v to move, record says %v", g.Position().Side(), side)
	}
	if sq != engine.Pass && g.Position().MustPass() {
		if _, err := g.Play(engine.Pass); err != nil {
			return err
		}
	}
	_, err := g.Play(sq)
	return err
}
