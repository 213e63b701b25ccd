//go:build !linux

package main

// backgroundThread does nothing where thread priorities are not available.
func backgroundThread() {}
