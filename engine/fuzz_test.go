package engine

import (
	"bufio"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
)

// seedLines adds the non-empty, non-comment lines of a testdata file to a fuzz corpus.
func seedLines(f *testing.F, name string, add func(string)) {
	file, err := os.Open("testdata/" + name)
	if err != nil {
		f.Fatal(err)
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	for sc.Scan() {
		if line := sc.Text(); line != "" && !strings.HasPrefix(line, "#") {
			add(line)
		}
	}
	if err := sc.Err(); err != nil {
		f.Fatal(err)
	}
}

func FuzzParseSquare(f *testing.F) {
	for _, s := range []string{"a1", "D3", "p16", "pass", "PA", "a10", "q1", "a0", "a17", " e5 ", "", "\xff1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sq, err := ParseSquare(s)
		var u Square
		uerr := u.UnmarshalText([]byte(s))
		if (err == nil) != (uerr == nil) || u != sq && err == nil {
			t.Fatalf("ParseSquare(%q) = %v, %v but UnmarshalText gives %v, %v", s, sq, err, u, uerr)
		}
		if err != nil {
			return
		}
		if sq != Pass && !sq.Valid() {
			t.Fatalf("ParseSquare(%q) = %d, not a square", s, sq)
		}
		back, err := ParseSquare(sq.String())
		if err != nil || back != sq {
			t.Fatalf("ParseSquare(%q) = %v, %v after ParseSquare(%q) = %v", sq.String(), back, err, s, sq)
		}
	})
}

func FuzzParseRecord(f *testing.F) {
	seedLines(f, "records.txt", func(s string) { f.Add(s, uint8(2)) })
	f.Add("f5d6c3d3c4", uint8(2))
	f.Add("F5 d6, pass c3", uint8(6))
	f.Add("a1p16", uint8(0))
	f.Fuzz(func(t *testing.T, s string, sizeIndex uint8) {
		moves, err := ParseRecord(s)
		if err != nil {
			return
		}
		var squares []Square
		for _, m := range moves {
			if m != Pass && !m.Valid() {
				t.Fatalf("ParseRecord(%q) gave %d, not a square", s, m)
			}
			if m != Pass {
				squares = append(squares, m)
			}
		}
		again, err := ParseRecord(FormatRecord(moves))
		if err != nil || !slices.Equal(again, squares) {
			t.Fatalf("ParseRecord(FormatRecord(%v)) = %v, %v; want %v", moves, again, err, squares)
		}
		size := MinSize + 2*int(sizeIndex%7)
		g, err := ReplayRecord(size, s)
		if err != nil {
			return
		}
		h, err := ReplayRecord(size, g.Record())
		if err != nil || h.Position() != g.Position() || !slices.Equal(h.Moves(), g.Moves()) {
			t.Fatalf("ReplayRecord(%d, %q) does not repeat ReplayRecord(%d, %q): %v", size, g.Record(), size, s, err)
		}
	})
}

func FuzzParsePosition(f *testing.F) {
	seedLines(f, "positions.txt", func(s string) { f.Add(s) })
	for size := MinSize; size <= MaxSize; size += 2 {
		f.Add(MustStart(size).String())
	}
	f.Add("*...O O")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePosition(s)
		var u Position
		uerr := u.UnmarshalText([]byte(s))
		if (err == nil) != (uerr == nil) || err == nil && u != p {
			t.Fatalf("ParsePosition(%q) = %v, %v but UnmarshalText gives %v, %v", s, p, err, u, uerr)
		}
		if err != nil {
			return
		}
		back, err := ParsePosition(p.String())
		if err != nil || back != p {
			t.Fatalf("ParsePosition(%q) = %v, %v; want %v", p.String(), back, err, p)
		}
		if b, err := ParseBoard(p.BoardText(), p.Side()); err != nil || b != p {
			t.Fatalf("ParseBoard(%q, %v) = %v, %v; want %v", p.BoardText(), p.Side(), b, err, p)
		}
		// Whatever the board, the engine agrees with the reference.
		ref := refBoard{size: p.Size(), turn: refBlack}
		if p.Side() == White {
			ref.turn = refWhite
		}
		for i, ch := range p.BoardText() {
			ref.cells[i/p.Size()][i%p.Size()] = strings.IndexRune("-XO", ch)
		}
		checkAgainstRef(t, "fuzz", p, &ref, rand.New(rand.NewPCG(uint64(len(s)), 0)))
	})
}

func FuzzParseBoard(f *testing.F) {
	f.Add("-----OX--XO-----", int8(0))
	f.Add("*.O.", int8(1))
	f.Add(strings.Repeat("x", 64), int8(7))
	f.Fuzz(func(t *testing.T, s string, side int8) {
		p, err := ParseBoard(s, Color(side))
		if err != nil {
			return
		}
		if Color(side) != p.Side() || p.Size()*p.Size() != len(s) {
			t.Fatalf("ParseBoard(%q, %d) = %v", s, side, p)
		}
		if back, err := ParseBoard(p.BoardText(), p.Side()); err != nil || back != p {
			t.Fatalf("ParseBoard(%q) = %v, %v; want %v", p.BoardText(), back, err, p)
		}
		_ = Perft(p, 2)
	})
}
