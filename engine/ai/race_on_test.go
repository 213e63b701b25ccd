//go:build race

package ai

// raceEnabled is true when the tests run under the race detector, which makes the solver
// about ten times slower.
const raceEnabled = true
