package ai

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/reversibot/reversi/engine"
)

func BenchmarkFlips8(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	p := midgame(b, rng, 8, 30)
	pl, op, _ := p.Bitboards8()
	b.ReportAllocs()
	var sink uint64
	for i := 0; i < b.N; i++ {
		for m := moves8(pl, op); m != 0; m &= m - 1 {
			sink ^= flips8(pl, op, bits.TrailingZeros64(m))
		}
	}
	_ = sink
}

// BenchmarkEval8 measures each evaluation on positions of a few random games, so the pattern
// tables are read at varied places as in a search.
func BenchmarkEval8(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	var pos [][2]uint64
	for i := 0; i < 256; i++ {
		p := midgame(b, rng, 8, 10+i%40)
		pl, op, _ := p.Bitboards8()
		pos = append(pos, [2]uint64{pl, op})
	}
	for _, ev := range []Eval{EvalLinear, EvalPattern} {
		b.Run(ev.String(), func(b *testing.B) {
			tables, err := tablesForEval(ev)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				q := pos[i&255]
				eval8(tables[8], q[0], q[1], moves8(q[0], q[1]))
			}
		})
	}
}

// BenchmarkChoose measures one move per level from the same midgame position; levels 4–6 run
// to their time budgets, so their ns/op is the budget actually used.
func BenchmarkChoose(b *testing.B) {
	for _, size := range []int{8, 16} {
		rng := rand.New(rand.NewPCG(2, 2))
		p := midgame(b, rng, size, size*size/3)
		for l := MinLevel; l <= MaxLevel; l++ {
			b.Run(fmt.Sprintf("%dx%d/level%d", size, size, l), func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					if _, err := Choose(context.Background(), p, l, rng); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkSearch8 searches midgame positions to a fixed depth with each evaluation: the cost
// of a better but slower evaluation, per search and per node.
func BenchmarkSearch8(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 3))
	var pos []engine.Position
	for i := 0; i < 8; i++ {
		pos = append(pos, midgame(b, rng, 8, 16+2*i))
	}
	for _, ev := range []Eval{EvalLinear, EvalPattern} {
		b.Run(ev.String(), func(b *testing.B) { benchSearch(b, pos, 8, ev) })
	}
}

// benchSearch searches the positions in turn, full width to depth with evaluation ev, and
// reports the nodes of a search and the nodes a second.
func benchSearch(b *testing.B, pos []engine.Position, depth int, ev Eval) {
	var nodes uint64
	for i := 0; i < b.N; i++ {
		cfg := &config{depth: depth, tableBits: 18, mustScore: true, eval: ev}
		r, err := run(cfg, pos[i%len(pos)])
		if err != nil {
			b.Fatal(err)
		}
		nodes += r.Nodes
	}
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkSearchN is BenchmarkSearch8 for the large boards' searcher: midgame positions of
// 10×10, 12×12 and 16×16 searched full width to a fixed depth with the linear evaluation
// (the one level 6 plays there); nodes/s is its speed.
func BenchmarkSearchN(b *testing.B) {
	for _, n := range []int{10, 12, 16} {
		rng := rand.New(rand.NewPCG(5, uint64(n)))
		var pos []engine.Position
		for i := 0; i < 8; i++ {
			pos = append(pos, midgame(b, rng, n, n*n/4+4*i))
		}
		b.Run(fmt.Sprintf("%dx%d", n, n), func(b *testing.B) { benchSearch(b, pos, 5, EvalLinear) })
	}
}
