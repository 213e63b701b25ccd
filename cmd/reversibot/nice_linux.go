//go:build linux

package main

import (
	"runtime"
	"sync"
	"syscall"
)

// aiNice is the nice value of AI threads: a tenth of the CPU weight of a normal thread, so the
// handlers win the CPU at once, while the AI still gets its share on a machine shared with
// other work.
const aiNice = 10

// niced holds the ids of the threads already lowered to background priority.
var niced sync.Map

// backgroundThread wires the calling goroutine to its OS thread for good and lowers that
// thread's scheduling priority (nice 10), once per thread. An AI search then yields the CPU to
// the threads handling updates whenever they have work, however many searches run. The
// goroutine must be long-lived (a pool worker): when it ends, its thread ends with it.
func backgroundThread() {
	runtime.LockOSThread()
	tid := syscall.Gettid()
	if _, done := niced.LoadOrStore(tid, true); done {
		runtime.UnlockOSThread() // still locked by the first call
		return
	}
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, tid, aiNice)
}
