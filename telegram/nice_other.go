//go:build !linux

package telegram

// backgroundThread does nothing where thread priorities are not available.
func backgroundThread() {}
