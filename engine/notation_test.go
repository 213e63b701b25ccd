package engine

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestParseSquare(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Square
	}{
		{"a1", SquareAt(0, 0)}, {"d3", SquareAt(3, 2)}, {"D3", SquareAt(3, 2)}, {"h8", SquareAt(7, 7)},
		{"p16", SquareAt(15, 15)}, {"J10", SquareAt(9, 9)}, {" e5\n", SquareAt(4, 4)},
		{"pass", Pass}, {"PASS", Pass}, {"pa", Pass},
	} {
		got, err := ParseSquare(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseSquare(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"", "a", "a0", "a17", "q1", "1a", "a1b", "a01", "aa1", "pas", "d 3", "é1", "a-1"} {
		if got, err := ParseSquare(in); !errors.Is(err, ErrSyntax) {
			t.Errorf("ParseSquare(%q) = %v, %v; want ErrSyntax", in, got, err)
		}
	}
}

func TestSquareRoundTrip(t *testing.T) {
	for i := -1; i < 256; i++ {
		sq := Square(i)
		text, err := sq.MarshalText()
		if err != nil {
			t.Fatalf("Square(%d).MarshalText: %v", i, err)
		}
		var back Square
		if err := back.UnmarshalText(text); err != nil || back != sq {
			t.Fatalf("UnmarshalText(%q) = %v, %v; want %v", text, back, err, sq)
		}
	}
	if _, err := Square(256).MarshalText(); !errors.Is(err, ErrOffBoard) {
		t.Errorf("Square(256).MarshalText: %v, want ErrOffBoard", err)
	}
	if s := Square(-7).String(); s != "Square(-7)" {
		t.Errorf("Square(-7).String() = %q", s)
	}
	if !SquareAt(7, 7).OnBoard(8) || SquareAt(8, 0).OnBoard(8) || Pass.OnBoard(16) {
		t.Error("OnBoard is wrong at the edge of an 8×8 board or for Pass")
	}
}

func TestParseRecord(t *testing.T) {
	sq := func(names ...string) []Square {
		var out []Square
		for _, n := range names {
			s, err := ParseSquare(n)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, s)
		}
		return out
	}
	for _, c := range []struct {
		in   string
		want []Square
	}{
		{"", nil},
		{"f5d6c3d3", sq("f5", "d6", "c3", "d3")},
		{"F5 d6, C3-d3;e3.", sq("f5", "d6", "c3", "d3", "e3")},
		{"f5passd6PAc3", sq("f5", "pass", "d6", "pass", "c3")},
		{"a10p16b1", sq("a10", "p16", "b1")},
		{"a1a1", sq("a1", "a1")},
	} {
		got, err := ParseRecord(c.in)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("ParseRecord(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"f5d", "f5 x3", "f5/d6", "f0", "ф5", "q1"} {
		if got, err := ParseRecord(in); !errors.Is(err, ErrSyntax) {
			t.Errorf("ParseRecord(%q) = %v, %v; want ErrSyntax", in, got, err)
		}
	}
	if got := FormatRecord(sq("f5", "pass", "p16")); got != "f5p16" {
		t.Errorf("FormatRecord = %q, want f5p16", got)
	}
}

func TestPositionText(t *testing.T) {
	for size := MinSize; size <= MaxSize; size += 2 {
		p := MustStart(size)
		text, err := p.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back Position
		if err := back.UnmarshalText(text); err != nil || back != p {
			t.Fatalf("UnmarshalText(%q) = %v, %v; want %v", text, back, err, p)
		}
		if len(p.BoardText()) != size*size || p.Size() != size || p.Count(Black) != 2 || p.Count(White) != 2 {
			t.Fatalf("Start(%d) = %v", size, p)
		}
	}
	want := "---------------------------OX------XO--------------------------- X"
	if got := MustStart(8).String(); got != want {
		t.Errorf("Start(8).String() = %q, want %q", got, want)
	}
	// The other spellings of DESIGN.md: '*' for black, '.' for empty; side words.
	alt := strings.NewReplacer("X", "*", "-", ".").Replace(want[:64])
	for _, side := range []string{"X", "x", "*", "B", "black"} {
		p, err := ParsePosition("  " + alt + "  " + side + " anything after is ignored")
		if err != nil || p != MustStart(8) {
			t.Errorf("ParsePosition(alt, %q) = %v, %v", side, p, err)
		}
	}
	p, err := ParsePosition(want[:64])
	if err != nil || p.Side() != Black {
		t.Errorf("ParsePosition without a side = %v, %v; want black to move", p, err)
	}
	p, err = ParsePosition(want[:64] + " O")
	if err != nil || p.Side() != White || p.String() != want[:64]+" O" {
		t.Errorf("ParsePosition(... O) = %v, %v", p, err)
	}
	for _, in := range []string{"", "   ", "XO", strings.Repeat("-", 63), strings.Repeat("-", 81), strings.Repeat("-", 64) + " Q", strings.Repeat("-", 63) + "#"} {
		if p, err := ParsePosition(in); err == nil {
			t.Errorf("ParsePosition(%q) = %v, want an error", in, p)
		} else if !errors.Is(err, ErrSyntax) && !errors.Is(err, ErrSize) {
			t.Errorf("ParsePosition(%q): %v is neither ErrSyntax nor ErrSize", in, err)
		}
	}
}

func TestSetAndColor(t *testing.T) {
	var s Set
	s = s.Add(SquareAt(3, 2)).Add(SquareAt(15, 15)).Add(Pass).Add(Square(999))
	if s.Len() != 2 || !s.Has(SquareAt(15, 15)) || s.Has(Pass) || s.First() != SquareAt(3, 2) {
		t.Errorf("Set = %v", s.Squares())
	}
	if (Set{}).First() != Pass || !(Set{}).Empty() {
		t.Error("empty Set: First is not Pass or Empty is false")
	}
	if Black.Opponent() != White || White.Opponent() != Black || Black.String() != "black" || White.Symbol() != 'O' || Color(4).String() != "Color(4)" {
		t.Error("Color methods")
	}
	p := MustStart(8)
	if !p.Discs(Color(5)).Empty() || p.Count(Color(-1)) != 0 || ZobristDisc(Color(2), 0) != 0 || ZobristDisc(Black, Pass) != 0 {
		t.Error("an invalid colour or square should give nothing")
	}
	me, you, ok := p.Bitboards8()
	if !ok || FromBitboards8(me, you, Black) != p || FromBitboards8(me, you, Color(9)) != p {
		t.Error("Bitboards8/FromBitboards8 do not round trip")
	}
	if _, _, ok := MustStart(10).Bitboards8(); ok {
		t.Error("Bitboards8 on 10×10: ok")
	}
}
