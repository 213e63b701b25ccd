package engine

import (
	"math/rand/v2"
	"testing"
)

// refBoard8 puts p's discs (as black, to move) and o's on the plain reference board.
func refBoard8(p, o uint64) refBoard {
	b := refBoard{size: 8, turn: refBlack}
	for sq := 0; sq < 64; sq++ {
		switch {
		case p&(1<<uint(sq)) != 0:
			b.cells[sq/8][sq%8] = refBlack
		case o&(1<<uint(sq)) != 0:
			b.cells[sq/8][sq%8] = refWhite
		}
	}
	return b
}

// refMoves8 finds the legal moves of p against o with the plain reference board.
func refMoves8(p, o uint64) uint64 {
	b := refBoard8(p, o)
	var m uint64
	for row := 0; row < 8; row++ {
		for col := 0; col < 8; col++ {
			if b.legal(refBlack, col, row) {
				m |= 1 << uint(row*8+col)
			}
		}
	}
	return m
}

// TestMoves8Reference holds Moves8 (the vector form in a GOEXPERIMENT=simd GOAMD64=v3 build)
// and moves8Scalar to the reference on random boards of every density, where runs reach the
// edges and would wrap around them if a lane's mask were wrong.
func TestMoves8Reference(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for i := 0; i < 20000; i++ {
		filled := rng.Uint64() | rng.Uint64() // about three quarters full
		if i%4 == 0 {
			filled &= rng.Uint64() // about three eighths
		}
		side := rng.Uint64()
		p, o := filled&side, filled&^side
		want := refMoves8(p, o)
		if got := Moves8(p, o); got != want {
			t.Fatalf("Moves8(%#x, %#x) = %#x, want %#x", p, o, got, want)
		}
		if got := moves8Scalar(p, o); got != want {
			t.Fatalf("moves8Scalar(%#x, %#x) = %#x, want %#x", p, o, got, want)
		}
	}
}

// FuzzMoves8 compares Moves8 with the reference on any two boards (overlapping discs count as
// p's).
func FuzzMoves8(f *testing.F) {
	f.Add(uint64(0x0000000810000000), uint64(0x0000001008000000))
	f.Add(uint64(0x8100000000000081), uint64(0x7effffffffffff7e))
	f.Add(uint64(1), ^uint64(1)&^(1<<63))
	f.Fuzz(func(t *testing.T, p, o uint64) {
		o &^= p
		if got, want := Moves8(p, o), refMoves8(p, o); got != want {
			t.Fatalf("Moves8(%#x, %#x) = %#x, want %#x", p, o, got, want)
		}
	})
}

// refFlips8 finds the discs p's move on sq flips with the plain reference board.
func refFlips8(p, o uint64, sq int) uint64 {
	b := refBoard8(p, o)
	var f uint64
	for _, s := range b.flips(refBlack, sq%8, sq/8) {
		f |= 1 << uint(bit8(s))
	}
	return f
}

// TestFlips8Reference holds Flips8 (the vector form in a GOEXPERIMENT=simd GOAMD64=v3 build) and
// flips8Rays to the reference for a placement on an empty square of random boards.
func TestFlips8Reference(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for i := 0; i < 50000; i++ {
		filled := rng.Uint64() | rng.Uint64()
		if i%4 == 0 {
			filled &= rng.Uint64()
		}
		sq := rng.IntN(64)
		filled &^= 1 << uint(sq)
		side := rng.Uint64()
		p, o := filled&side, filled&^side
		want := refFlips8(p, o, sq)
		if got := Flips8(p, o, sq); got != want {
			t.Fatalf("Flips8(%#x, %#x, %d) = %#x, want %#x", p, o, sq, got, want)
		}
		if got := flips8Rays(p, o, sq); got != want {
			t.Fatalf("flips8Rays(%#x, %#x, %d) = %#x, want %#x", p, o, sq, got, want)
		}
	}
}

// FuzzFlips8 compares Flips8 with the reference on any two boards and an empty square.
func FuzzFlips8(f *testing.F) {
	f.Add(uint64(0x0000000810000000), uint64(0x0000001008000000), 19)
	f.Add(uint64(0x8100000000000081), uint64(0x7effffffffffff7e), 0)
	f.Fuzz(func(t *testing.T, p, o uint64, sq int) {
		sq &= 63
		p &^= 1 << uint(sq)
		o &^= p | 1<<uint(sq)
		if got, want := Flips8(p, o, sq), refFlips8(p, o, sq); got != want {
			t.Fatalf("Flips8(%#x, %#x, %d) = %#x, want %#x", p, o, sq, got, want)
		}
	})
}
