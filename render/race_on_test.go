//go:build race

package render

// raceEnabled is true when the tests run under the race detector, which makes the pixel
// comparisons about ten times slower: the long ones then check a sample (the concurrency
// tests, which the detector is for, check everything).
const raceEnabled = true
