//go:build goexperiment.simd && amd64.v3

package ai

import "github.com/reversibot/reversi/engine"

// orderFlips8 is flips8 for the solver's ordering loop, which computes the flips of every move
// of a node one after another. There the AVX2 form (engine.Flips8) is faster than the line
// tables, its longer chain of steps overlapping the other moves' work (FFO #40, #41, #44: 13.82
// G → 13.47 G instructions, −3% time on #45, #48, #49); at the last empty squares, where each
// flip is waited on, the tables stay faster.
func orderFlips8(p, o uint64, sq int) uint64 { return engine.Flips8(p, o, sq) }
