package main

import "runtime"

// addProcs gives the Go scheduler one processor more for each of workers AI searches and
// drawings run in this process, when GOMAXPROCS is below that. They run on threads of the
// lowest priority (backgroundThread), each holding a processor while it works: with
// processors of their own they never take the handlers' CPUs' worth, and the OS gives the
// handlers the cores the moment they have work.
func addProcs(workers int) {
	if want := runtime.NumCPU() + workers; runtime.GOMAXPROCS(0) < want {
		runtime.GOMAXPROCS(want)
	}
}
