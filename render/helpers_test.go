package render

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/go-telegram/bot/models"
	"github.com/reversibot/reversi/engine"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata and the examples in docs/boards")

// sizes are every board size the engine supports.
var sizes = []int{4, 6, 8, 10, 12, 14, 16}

// playRandom plays up to plies moves of a deterministic pseudo-random game.
func playRandom(t testing.TB, size int, seed uint64, plies int) *engine.Game {
	t.Helper()
	g, err := engine.NewGame(size)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	for i := 0; i < plies && !g.Over(); i++ {
		m := engine.Pass
		if ms := g.Position().LegalMoves(); len(ms) > 0 {
			m = ms[rng.IntN(len(ms))]
		}
		if _, err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// fullest returns a position of the given size with as many legal moves for the side to move
// as a construction and a short hill climb find: columns cycling disc of the mover, opponent's
// disc, empty (each empty then closes a line to the left), improved by random single-square
// changes that keep or raise the count; and the busiest position of some random games.
func fullest(t testing.TB, size int) engine.Position {
	t.Helper()
	cells := []byte(strings.Repeat("-", size*size))
	for r := 0; r < size; r++ {
		for c := 0; c < size; c++ {
			cells[r*size+c] = "XO-"[c%3]
		}
	}
	parse := func() engine.Position {
		p, err := engine.ParseBoard(string(cells), engine.Black)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	best := parse()
	rng := rand.New(rand.NewPCG(uint64(size), 1))
	for range 3000 {
		i := rng.IntN(len(cells))
		old := cells[i]
		cells[i] = "XO-"[rng.IntN(3)]
		if p := parse(); p.MoveCount() >= best.MoveCount() {
			best = p
		} else {
			cells[i] = old
		}
	}
	for seed := uint64(0); seed < 20; seed++ {
		g := playRandom(t, size, seed, size*size)
		// Walk back through the game for its busiest moment.
		for g.Len() > 0 {
			if p := g.Position(); p.MoveCount() > best.MoveCount() {
				best = p
			}
			if err := g.Undo(); err != nil {
				t.Fatal(err)
			}
		}
	}
	return best
}

// controlRows returns n control buttons in rows of 8 (none of them shows a disc symbol).
func controlRows(n int) [][]models.InlineKeyboardButton {
	var rows [][]models.InlineKeyboardButton
	for i := 0; i < n; i++ {
		if i%8 == 0 {
			rows = append(rows, nil)
		}
		cb := Callback{Action: ActionHint, Game: "G", Arg: i}
		rows[len(rows)-1] = append(rows[len(rows)-1], models.InlineKeyboardButton{Text: "ctl", CallbackData: cb.Encode()})
	}
	return rows
}

// golden compares got (as indented JSON) with testdata/name, or rewrites the file under -update.
func golden(t *testing.T, name string, got any) {
	t.Helper()
	data, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, '\n')
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(data, want) {
		// Report the first differing line: the files are line-oriented JSON.
		gl, wl := strings.Split(string(data), "\n"), strings.Split(string(want), "\n")
		for i := 0; i < max(len(gl), len(wl)); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("%s differs from the golden at line %d:\n got: %s\nwant: %s\n(run go test -update if the change is intended)", path, i+1, g, w)
			}
		}
	}
}

// sameWhenConcurrent checks that draw, run on four goroutines at once, gives each the bytes it
// gives alone.
func sameWhenConcurrent(t *testing.T, what string, draw func() ([]byte, error)) {
	t.Helper()
	want, err := draw()
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Go(func() {
			got, err := draw()
			if err == nil && !bytes.Equal(got, want) {
				err = errors.New("a concurrent " + what + " differs")
			}
			if err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
