package main

import "syscall"

// spawnAttr makes the kernel kill a spawned bot when this process dies without stopping it
// (SIGKILL of the load command, a crash), so no bot is left polling a dead server.
func spawnAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
