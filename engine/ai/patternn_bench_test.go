package ai

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkEvalN measures one evaluation of the generic search on the large boards, the
// linear one beside the pattern one (with weights of that size: the embedded ones or random
// ones where none are embedded), on positions of a few random games.
func BenchmarkEvalN(b *testing.B) {
	for _, n := range []int{10, 12, 16} {
		rng := rand.New(rand.NewPCG(4, uint64(n)))
		var pos [][3]setN
		geo := geoms[n]
		for i := 0; i < 256; i++ {
			p := midgame(b, rng, n, 10+i%(n*n-30))
			pl, op := toSetN(p.Discs(p.Side())), toSetN(p.Discs(p.Side().Opponent()))
			pos = append(pos, [3]setN{pl, op, geo.moves(pl, op)})
		}
		lin, err := tablesForEval(EvalLinear)
		if err != nil {
			b.Fatal(err)
		}
		pat := *lin[n]
		if pat.patN, _, err = DefaultPatternWeightsN(n); err != nil {
			b.Fatal(err)
		}
		if pat.patN == nil {
			pat.patN = randomPatternWeightsN(b, rng, n, 300)
		}
		for _, ev := range []struct {
			name string
			t    *evalTable
		}{{"linear", lin[n]}, {"pattern", &pat}} {
			b.Run(fmt.Sprintf("%dx%d/%s", n, n, ev.name), func(b *testing.B) {
				s := newSearcherN(&config{tableBits: 10}, geo, ev.t)
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					q := &pos[i&255]
					s.eval(q[0], q[1], q[2])
				}
			})
		}
	}
}
