//go:build !race

package render

// raceEnabled is false when the tests run without the race detector: every check is whole.
const raceEnabled = false
