//go:build !linux

package bot

// backgroundThread does nothing where thread priorities are not available.
func backgroundThread() {}
