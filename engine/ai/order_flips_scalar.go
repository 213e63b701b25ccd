//go:build !(goexperiment.simd && amd64.v3)

package ai

// orderFlips8 is flips8 for the solver's ordering loop, which computes the flips of every move
// of a node one after another.
func orderFlips8(p, o uint64, sq int) uint64 { return flips8(p, o, sq) }
