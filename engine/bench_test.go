package engine

import (
	"math/rand/v2"
	"testing"
)

// midgames returns count positions of the given size reached by seeded random play, each with
// about half of its squares filled and the side to move holding a legal move.
func midgames(tb testing.TB, size, count int) []Position {
	tb.Helper()
	rng := rand.New(rand.NewPCG(uint64(size), 42))
	var out []Position
	for len(out) < count {
		p := MustStart(size)
		for p.Empties() > size*size/2 && !p.GameOver() {
			ms := p.LegalMoves()
			if len(ms) == 0 {
				p, _, _ = p.Play(Pass)
				continue
			}
			p, _, _ = p.Play(ms[rng.IntN(len(ms))])
		}
		if p.HasMoves() {
			out = append(out, p)
		}
	}
	return out
}

var sinkSet Set
var sinkU64 uint64

// BenchmarkMoves8 and BenchmarkMoves16 measure the move generators themselves (Moves8 on
// bitboards, the multi-word code on 16×16) on the same kind of midgame positions; their ratio is
// the cost of the larger board per call.
func BenchmarkMoves8(b *testing.B) {
	ps := midgames(b, 8, 256)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		p := &ps[i&255]
		sinkU64 |= Moves8(p.b8[p.side], p.b8[p.side^1])
	}
}

func BenchmarkMoves16(b *testing.B) {
	ps := midgames(b, 16, 256)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		p := &ps[i&255]
		sinkSet = MovesN(16, p.bn[p.side], p.bn[p.side^1])
	}
}

// BenchmarkPositionMoves compares the public Position.Moves on the players' sizes.
func BenchmarkPositionMoves(b *testing.B) {
	for _, size := range []int{8, 10, 12, 16} {
		b.Run(sizeName(size), func(b *testing.B) {
			ps := midgames(b, size, 256)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				sinkSet = ps[i&255].Moves()
			}
		})
	}
}

// BenchmarkFlips8 and BenchmarkFlips16 measure the flips of legal moves in midgame positions.
func BenchmarkFlips8(b *testing.B) {
	ps := midgames(b, 8, 256)
	type mv struct {
		p, o uint64
		sq   int
	}
	var ms []mv
	for _, p := range ps {
		me, you, _ := p.Bitboards8()
		for m := Moves8(me, you); m != 0; m &= m - 1 {
			ms = append(ms, mv{me, you, trailingZeros(m)})
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		m := &ms[i%len(ms)]
		sinkU64 |= Flips8(m.p, m.o, m.sq)
	}
}

func BenchmarkFlips16(b *testing.B) {
	ps := midgames(b, 16, 256)
	type mv struct {
		p, o Set
		sq   Square
	}
	var ms []mv
	for _, p := range ps {
		for _, sq := range p.LegalMoves() {
			ms = append(ms, mv{p.bn[p.side], p.bn[p.side^1], sq})
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		m := &ms[i%len(ms)]
		sinkSet = flipsN(16, m.p, m.o, m.sq)
	}
}

// BenchmarkPlay measures Position.Play (legality check, flips, the new position) per move.
func BenchmarkPlay(b *testing.B) {
	for _, size := range []int{8, 16} {
		b.Run(sizeName(size), func(b *testing.B) {
			ps := midgames(b, size, 256)
			type mv struct {
				p  Position
				sq Square
			}
			var ms []mv
			for _, p := range ps {
				for _, sq := range p.LegalMoves() {
					ms = append(ms, mv{p, sq})
				}
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				m := &ms[i%len(ms)]
				q, _, err := m.p.Play(m.sq)
				if err != nil {
					b.Fatal(err)
				}
				sinkU64 += uint64(q.side)
			}
		})
	}
}

// BenchmarkPerft reports perft throughput in leaves per second.
func BenchmarkPerft(b *testing.B) {
	for _, c := range []struct {
		name  string
		size  int
		depth int
	}{{"8x8/d8", 8, 8}, {"16x16/d5", 16, 5}} {
		b.Run(c.name, func(b *testing.B) {
			p := MustStart(c.size)
			b.ReportAllocs()
			var leaves uint64
			for b.Loop() {
				leaves += Perft(p, c.depth)
			}
			b.ReportMetric(float64(leaves)/b.Elapsed().Seconds(), "leaves/s")
		})
	}
}

// BenchmarkPerftGeneric8 runs the multi-word code on 8×8 for comparison with BenchmarkPerft/8x8.
func BenchmarkPerftGeneric8(b *testing.B) {
	p := MustStart(8)
	me, you := spread8(p.b8[Black]), spread8(p.b8[White])
	b.ReportAllocs()
	var leaves uint64
	for b.Loop() {
		leaves += perftN(8, me, you, movesN(8, me, you), 8)
	}
	b.ReportMetric(float64(leaves)/b.Elapsed().Seconds(), "leaves/s")
}

func sizeName(n int) string {
	return string(rune('0'+n/10)) + string(rune('0'+n%10))
}
